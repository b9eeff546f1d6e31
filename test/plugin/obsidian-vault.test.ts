import type { EventRef, TAbstractFile } from 'obsidian';
import { ObsidianVault, toVaultEvent } from '../../plugin/obsidian-vault';
import type { VaultEvent } from '../../shared/ports';
import { LithosError } from '../../shared/errors';
import { MemoryVault } from '../twins/memory-vault';
import { FakeApp } from './fake-obsidian';
import { editNoteText } from '../../shared/vault/text-edit';

const dec = new TextDecoder();

function setup(files: Record<string, string> = {}) {
  const app = FakeApp.with(files);
  const registered: EventRef[] = [];
  const vault = new ObsidianVault(app.host(), (ref) => registered.push(ref));
  return { app, vault, registered };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof LithosError) return err.code;
    throw err;
  }
  throw new Error('expected a LithosError');
}

describe('ObsidianVault (VaultPort over app.vault / app.fileManager)', () => {
  test('lists Markdown notes with the mtime and size Obsidian reports, nothing else', async () => {
    const { app, vault } = setup({ 'a.md': 'alpha', 'dir/b.md': 'bravo!', 'img.png': 'png', '.obsidian/c.md': 'hidden' });
    const listed = await vault.listMarkdown();
    expect(listed.map((f) => f.path).sort()).toEqual(['a.md', 'dir/b.md']);
    const b = listed.find((f) => f.path === 'dir/b.md');
    expect(b).toEqual({ path: 'dir/b.md', mtime: app.adapter.files.get('dir/b.md')?.mtime, size: 6 });
  });

  test('stat: cached files, folders (null), missing (null), and files Obsidian has not noticed yet', async () => {
    const { app, vault } = setup({ 'dir/a.md': 'x' });
    expect(await vault.stat('dir/a.md')).toMatchObject({ path: 'dir/a.md', size: 1 });
    expect(await vault.stat('dir')).toBeNull();
    expect(await vault.stat('nope.md')).toBeNull();
    app.adapter.put('fresh.md', 'written by the bridge');
    expect(await vault.stat('fresh.md')).toMatchObject({ path: 'fresh.md', size: 21 });
  });

  test('readBytes returns the raw bytes, including ones that are not valid UTF-8', async () => {
    const { app, vault } = setup({ 'a.md': 'héllo' });
    expect(dec.decode(await vault.readBytes('a.md'))).toBe('héllo');
    app.adapter.put('bin.md', new Uint8Array([0xff, 0x00, 0xfe]));
    expect([...(await vault.readBytes('bin.md'))]).toEqual([0xff, 0x00, 0xfe]);
    expect(await codeOf(vault.readBytes('missing.md'))).toBe('not_found');
    expect(await codeOf(vault.readBytes('../outside.md'))).toBe('path_outside_vault');
  });

  test('write modifies an existing note through the vault (one modify event)', async () => {
    const { app, vault } = setup({ 'a.md': 'old' });
    const seen: string[] = [];
    app.vault.on('modify', (f: TAbstractFile) => seen.push(f.path));
    await vault.write('a.md', 'new');
    expect(app.adapter.text('a.md')).toBe('new');
    expect(seen).toEqual(['a.md']);
  });

  test('write creates a new note and each missing parent folder', async () => {
    const { app, vault } = setup({ 'x/keep.md': '' });
    await vault.write('x/y/z/new.md', '# New');
    expect(app.adapter.text('x/y/z/new.md')).toBe('# New');
    expect(app.vault.getAbstractFileByPath('x/y')).not.toBeNull();
    expect(app.vault.getAbstractFileByPath('x/y/z')).not.toBeNull();
    expect((await vault.listMarkdown()).map((f) => f.path).sort()).toEqual(['x/keep.md', 'x/y/z/new.md']);
  });

  test('write replaces a note Obsidian has not noticed yet (on disk, not in its cache) instead of failing to create it', async () => {
    const { app, vault } = setup();
    app.adapter.put('from-bridge.md', 'v1');
    await vault.write('from-bridge.md', 'v2');
    expect(app.adapter.text('from-bridge.md')).toBe('v2');
  });

  test('write refuses to replace a folder', async () => {
    const { vault } = setup({ 'dir/a.md': '' });
    expect(await codeOf(vault.write('dir', 'text'))).toBe('conflict');
  });

  test('rename goes through FileManager.renameFile (link updates), creating the target folder', async () => {
    const { app, vault } = setup({ 'a.md': 'A' });
    const renames: string[] = [];
    app.vault.on('rename', (f: TAbstractFile, old: string) => renames.push(`${old}->${f.path}`));
    await vault.rename('a.md', 'archive/2026/a.md');
    expect(app.adapter.text('archive/2026/a.md')).toBe('A');
    expect(app.adapter.text('a.md')).toBeUndefined();
    expect(renames).toEqual(['a.md->archive/2026/a.md']);
  });

  test('rename refuses to overwrite and reports a missing source', async () => {
    const { vault } = setup({ 'a.md': 'A', 'b.md': 'B' });
    expect(await codeOf(vault.rename('a.md', 'b.md'))).toBe('conflict');
    expect(await codeOf(vault.rename('nope.md', 'c.md'))).toBe('not_found');
  });

  test('delete trashes through FileManager.trashFile (the user’s trash preference)', async () => {
    const { app, vault } = setup({ 'a.md': 'A' });
    await vault.delete('a.md');
    expect(app.fileManager.trashedViaFileManager).toEqual(['a.md']);
    expect(await vault.stat('a.md')).toBeNull();
    expect(await codeOf(vault.delete('a.md'))).toBe('not_found');
  });

  test('delete falls back to the system trash on Obsidian < 1.6.6 (no trashFile)', async () => {
    const { app, vault } = setup({ 'a.md': 'A' });
    app.fileManager.trashFile = undefined;
    await vault.delete('a.md');
    expect(app.vault.trashed).toEqual(['a.md']);
    expect(app.adapter.files.has('a.md')).toBe(false);
  });

  test('processFrontMatter mutates the mapping in place and keeps the body', async () => {
    const { app, vault } = setup({ 'a.md': '---\ntitle: A\n---\nBody text\n' });
    await vault.processFrontMatter('a.md', (fm) => {
      fm.confidence = 0.9;
      delete fm.title;
    });
    expect(app.adapter.text('a.md')).toBe('---\nconfidence: 0.9\n---\nBody text\n');
    expect(await codeOf(vault.processFrontMatter('gone.md', () => undefined))).toBe('not_found');
  });

  test('processText applies the edit to the text as it is when Vault.process runs; unchanged text is not written', async () => {
    const { app, vault } = setup({ 'a.md': 'one\n' });
    expect(await vault.processText('a.md', (t) => t + 'two\n')).toEqual({ before: 'one\n', after: 'one\ntwo\n' });
    expect(app.adapter.text('a.md')).toBe('one\ntwo\n');
    const mtime = app.adapter.files.get('a.md')?.mtime;
    expect(await vault.processText('a.md', (t) => t)).toEqual({ before: 'one\ntwo\n', after: 'one\ntwo\n' });
    expect(app.adapter.files.get('a.md')?.mtime).toBe(mtime);
    expect(await vault.processText('nope.md', (t) => t + 'x')).toBeNull();
    app.adapter.put('fresh.md', 'on disk only\n'); // written by the bridge, not in Obsidian's cache yet
    expect(await vault.processText('fresh.md', (t) => t.toUpperCase())).toEqual({ before: 'on disk only\n', after: 'ON DISK ONLY\n' });
    expect(app.adapter.text('fresh.md')).toBe('ON DISK ONLY\n');
  });

  test("the engine's own text edits (callouts) keep what a person typed between its read and its write", async () => {
    const { app, vault } = setup({ 'a.md': 'my note\n' });
    let typed = false;
    const addBlock = (t: string): string => {
      if (!typed) {
        typed = true;
        app.adapter.put('a.md', 'my note\nand a line typed meanwhile\n'); // the person, after the engine's first read
      }
      return t.includes('%% block %%') ? t : t + '%% block %%\n';
    };
    const r = await editNoteText({ vault, clock: { now: () => 0 }, resync: async () => null }, 'a.md', addBlock);
    expect(r.changed).toBe(true);
    expect(app.adapter.text('a.md')).toBe('my note\nand a line typed meanwhile\n%% block %%\n');
  });

  test('watch forwards note events, registers every listener with registerEvent, and unsubscribes', async () => {
    const { app, vault, registered } = setup({ 'a.md': '', 'pic.png': '' });
    const events: VaultEvent[] = [];
    const stop = vault.watch((e) => events.push(e));
    expect(registered).toHaveLength(4);
    expect(app.vault.listenerCount()).toBe(4);

    await vault.write('b.md', 'new'); // create (folder-free)
    await vault.write('a.md', 'changed'); // modify
    await vault.rename('a.md', 'c.md'); // rename
    await vault.write('deep/d.md', 'x'); // folder create is ignored, file create forwarded
    await vault.delete('b.md');
    expect(events).toEqual([
      { kind: 'create', path: 'b.md' },
      { kind: 'modify', path: 'a.md' },
      { kind: 'rename', path: 'c.md', oldPath: 'a.md' },
      { kind: 'create', path: 'deep/d.md' },
      { kind: 'delete', path: 'b.md' },
    ]);

    stop();
    expect(app.vault.listenerCount()).toBe(0);
    await vault.write('e.md', 'after');
    expect(events).toHaveLength(5);
  });

  test('a deleted folder is reported to the plugin (to rescan), not passed on as a note event', async () => {
    const app = FakeApp.with({ 'projects/a.md': '', 'projects/sub/b.md': '', 'c.md': '' });
    const folders: string[] = [];
    const vault = new ObsidianVault(app.host(), () => undefined, (p) => folders.push(p));
    const events: VaultEvent[] = [];
    vault.watch((e) => events.push(e));
    const folder = app.vault.getAbstractFileByPath('projects');
    if (!folder) throw new Error('fixture');
    await app.vault.trash(folder, true);
    expect(folders).toEqual(['projects']);
    expect(events).toEqual([]);
    expect((await vault.listMarkdown()).map((f) => f.path)).toEqual(['c.md']);
  });

  test('a rename across "note-ness" becomes a create or a delete; non-notes and folders are ignored', () => {
    const file = (path: string) => ({ path, name: path, extension: path.split('.').pop(), stat: { mtime: 1, ctime: 1, size: 0 } }) as unknown as TAbstractFile;
    const folder = { path: 'dir', name: 'dir', children: [] } as unknown as TAbstractFile;
    expect(toVaultEvent('rename', file('a.txt'), 'a.md')).toEqual({ kind: 'delete', path: 'a.md' });
    expect(toVaultEvent('rename', file('a.md'), 'a.txt')).toEqual({ kind: 'create', path: 'a.md' });
    expect(toVaultEvent('rename', file('.trash/a.md'), 'a.md')).toEqual({ kind: 'delete', path: 'a.md' });
    expect(toVaultEvent('rename', file('b.png'), 'a.png')).toBeNull();
    expect(toVaultEvent('modify', file('pic.png'))).toBeNull();
    expect(toVaultEvent('create', folder)).toBeNull();
    expect(toVaultEvent('rename', folder, 'old')).toBeNull();
  });

  test('isAvailable is false once the vault folder is gone', async () => {
    const { app, vault } = setup({ 'a.md': '' });
    expect(await vault.isAvailable()).toBe(true);
    app.adapter.available = false;
    expect(await vault.isAvailable()).toBe(false);
  });

  test('the same script of edits leaves it in the same state, with the same events, as the in-memory twin', async () => {
    const initial = { 'a.md': '---\ntags: [x]\n---\nA', 'notes/b.md': 'B' };
    const { vault } = setup(initial);
    const twin = new MemoryVault(initial);
    const script = async (v: ObsidianVault | MemoryVault): Promise<{ events: VaultEvent[]; files: string[]; a: string }> => {
      const events: VaultEvent[] = [];
      const stop = v.watch((e) => events.push(e));
      await v.write('notes/c.md', 'C');
      await v.write('notes/b.md', 'B2');
      await v.rename('notes/c.md', 'c.md');
      await v.processFrontMatter('a.md', (fm) => {
        fm.tags = ['x', 'y'];
      });
      await v.delete('notes/b.md');
      stop();
      const files = (await v.listMarkdown()).map((f) => f.path).sort();
      return { events, files, a: dec.decode(await v.readBytes('a.md')) };
    };
    expect(await script(vault)).toEqual(await script(twin));
  });
});
