import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeVault } from '../../bridge/node-vault';
import { LithosError } from '../../shared/errors';
import type { VaultEvent } from '../../shared/ports';
import { codeOf } from '../twins/error-code';
import { HANG_MS } from '../eventually';

const dec = new TextDecoder();
let tmp: string;
let root: string;
let outside: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lithos-vault-'));
  root = path.join(tmp, 'vault');
  outside = path.join(tmp, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.md'), 'not yours');
});

afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function put(rel: string, text: string): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}


describe('NodeVault listing', () => {
  it('lists Markdown notes only, skipping dot-folders, node_modules and ignored paths', async () => {
    put('a.md', 'A');
    put('Folder/b.MD', 'BB');
    put('Folder/picture.png', 'x');
    put('notes.txt', 'x');
    put('.obsidian/workspace.md', 'x');
    put('.lithos/x.md', 'x');
    put('.trash/old.md', 'x');
    put('.git/x.md', 'x');
    put('sub/.hidden/y.md', 'x');
    put('node_modules/pkg/readme.md', 'x');
    put('private/diary.md', 'x');
    const vault = new NodeVault(root, { ignore: (p) => p === 'private' });
    const listed = await vault.listMarkdown();
    expect(listed.map((s) => s.path)).toEqual(['Folder/b.MD', 'a.md']); // sorted by code unit, deterministic
    const b = listed[0];
    expect(b.size).toBe(2);
    expect(b.mtime).toBe(Math.trunc(fs.statSync(path.join(root, 'Folder/b.MD')).mtimeMs));
  });

  it('does not follow symlinks while walking, so nothing outside appears and nothing is listed twice', async () => {
    put('real.md', 'R');
    fs.symlinkSync(outside, path.join(root, 'linked-out'));
    fs.symlinkSync(path.join(root, 'real.md'), path.join(root, 'alias.md'));
    const vault = new NodeVault(root);
    expect((await vault.listMarkdown()).map((s) => s.path)).toEqual(['real.md']);
  });
});

describe('NodeVault paths', () => {
  it('round-trips unicode, emoji and spaces in names, reporting NFC', async () => {
    const vault = new NodeVault(root);
    const name = 'Café ☕ notes/Ünïcode 🚀 idea.md';
    await vault.write(name, '# Hé\n');
    expect((await vault.listMarkdown()).map((s) => s.path)).toEqual([name]);
    expect(dec.decode(await vault.readBytes(name))).toBe('# Hé\n');
    expect((await vault.stat(name))?.size).toBe(Buffer.byteLength('# Hé\n'));
  });

  it('finds a file stored under an NFD name (a vault synced from macOS) by its NFC path', async () => {
    const nfd = 'Re\u0301sume\u0301.md';
    put(nfd, 'cv');
    const vault = new NodeVault(root);
    const listed = await vault.listMarkdown();
    expect(listed.map((s) => s.path)).toEqual(['R\u00e9sum\u00e9.md']);
    expect(dec.decode(await vault.readBytes('R\u00e9sum\u00e9.md'))).toBe('cv');
    // Writing into an NFD folder by its NFC name uses that folder instead of creating a look-alike twin.
    fs.mkdirSync(path.join(root, 'Cafe\u0301'));
    await vault.write('Caf\u00e9/new.md', 'n');
    expect(fs.readdirSync(root).sort()).toEqual(['Cafe\u0301', nfd].sort());
    expect(fs.readdirSync(path.join(root, 'Cafe\u0301'))).toEqual(['new.md']);
  });

  it('refuses ../ and absolute paths', async () => {
    const vault = new NodeVault(root);
    expect(await codeOf(vault.readBytes('../outside/secret.md'))).toBe('path_outside_vault');
    expect(await codeOf(vault.readBytes('a/../../outside/secret.md'))).toBe('path_outside_vault');
    expect(await codeOf(vault.readBytes(path.join(outside, 'secret.md')))).toBe('path_outside_vault');
    expect(await codeOf(vault.write('../escape.md', 'x'))).toBe('path_outside_vault');
    expect(fs.existsSync(path.join(tmp, 'escape.md'))).toBe(false);
  });

  it('refuses a symlink that leads outside the vault, for reads and writes', async () => {
    fs.symlinkSync(outside, path.join(root, 'linked-out'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'secret-link.md'));
    const vault = new NodeVault(root);
    expect(await codeOf(vault.readBytes('linked-out/secret.md'))).toBe('path_outside_vault');
    expect(await codeOf(vault.readBytes('secret-link.md'))).toBe('path_outside_vault');
    expect(await codeOf(vault.write('linked-out/new.md', 'x'))).toBe('path_outside_vault');
    expect(await codeOf(vault.write('linked-out/deeper/new.md', 'x'))).toBe('path_outside_vault');
    expect(await codeOf(vault.processFrontMatter('secret-link.md', (fm) => void (fm.x = 1)))).toBe('path_outside_vault');
    expect(fs.readdirSync(outside)).toEqual(['secret.md']);
    expect(fs.readFileSync(path.join(outside, 'secret.md'), 'utf8')).toBe('not yours');
  });

  it('refuses a dangling symlink rather than guessing where it points', async () => {
    fs.symlinkSync(path.join(outside, 'nothing-yet.md'), path.join(root, 'dangling.md'));
    const vault = new NodeVault(root);
    expect(await codeOf(vault.write('dangling.md', 'x'))).toBe('path_outside_vault');
    expect(fs.existsSync(path.join(outside, 'nothing-yet.md'))).toBe(false);
  });

  it('tells whether the disk ignores case by looking at the vault folder itself', () => {
    // This machine's temp folder is case-sensitive (Linux); macOS and Windows disks usually are not.
    if (process.platform === 'linux') expect(new NodeVault(root).caseInsensitive).toBe(false);
    expect(new NodeVault(root, { caseInsensitive: true }).caseInsensitive).toBe(true);
  });

  it('allows a symlink that stays inside the vault', async () => {
    put('real.md', 'inside');
    fs.symlinkSync(path.join(root, 'real.md'), path.join(root, 'alias.md'));
    const vault = new NodeVault(root);
    expect(dec.decode(await vault.readBytes('alias.md'))).toBe('inside');
  });

  // The listing never walks a symlink, so a note is known by its real path only: writing or stat'ing it
  // through a link made a second, permanent index entry for the same file (doctor: duplicate_id).
  it('a path through an in-vault symlink is not a note: stat says none, a write is refused naming the real path', async () => {
    put('notes/Real.md', 'inside');
    fs.symlinkSync(path.join(root, 'notes'), path.join(root, 'loop'));
    fs.symlinkSync(path.join(root, 'notes/Real.md'), path.join(root, 'alias.md'));
    const vault = new NodeVault(root);
    expect(await vault.stat('loop/Real.md')).toBeNull();
    expect(await vault.stat('notes/Real.md')).toMatchObject({ path: 'notes/Real.md' });
    const err = await vault.write('loop/New.md', 'x').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_argument', data: { path: 'loop/New.md' } });
    expect((err as Error).message).not.toContain('notes/'); // the real place may be hidden from the caller
    expect(fs.existsSync(path.join(root, 'notes/New.md'))).toBe(false);
    expect(await vault.write('alias.md', 'changed').catch((e: unknown) => e)).toMatchObject({ code: 'invalid_argument' });
    expect(fs.lstatSync(path.join(root, 'alias.md')).isSymbolicLink()).toBe(true); // not replaced by a copy
    expect(fs.readFileSync(path.join(root, 'notes/Real.md'), 'utf8')).toBe('inside');
  });
});

describe('NodeVault file operations', () => {
  it('writes atomically: creates folders, replaces content, leaves no temp files and keeps permissions', async () => {
    const vault = new NodeVault(root);
    await vault.write('deep/er/note.md', 'one');
    fs.chmodSync(path.join(root, 'deep/er/note.md'), 0o640);
    await vault.write('deep/er/note.md', 'two');
    await vault.write('deep/er/note.md', 'three');
    expect(fs.readdirSync(path.join(root, 'deep/er'))).toEqual(['note.md']);
    expect(fs.readFileSync(path.join(root, 'deep/er/note.md'), 'utf8')).toBe('three');
    if (process.platform !== 'win32') expect(fs.statSync(path.join(root, 'deep/er/note.md')).mode & 0o777).toBe(0o640);
  });

  it('updates a note whose name is near the file system limit (its temp file name must fit too)', async () => {
    const name = `${'é'.repeat(120)}.md`; // 243 bytes
    put(name, 'one');
    const vault = new NodeVault(root);
    await vault.write(name, 'two');
    expect(fs.readFileSync(path.join(root, name), 'utf8')).toBe('two');
    expect(fs.readdirSync(root).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('creates a new note with the umask applied, like any program: not world-writable', async () => {
    if (process.platform === 'win32') return;
    const vault = new NodeVault(root);
    const old = process.umask(0o027);
    try {
      await vault.write('fresh.md', 'new');
    } finally {
      process.umask(old);
    }
    expect(fs.statSync(path.join(root, 'fresh.md')).mode & 0o777).toBe(0o640);
  });

  it('stats, reads, renames and deletes, with not_found and conflict where due', async () => {
    put('a.md', 'A');
    put('b.md', 'B');
    const vault = new NodeVault(root);
    expect(await vault.stat('missing.md')).toBeNull();
    expect(await vault.stat('a.md')).toMatchObject({ path: 'a.md', size: 1 });
    expect(await codeOf(vault.readBytes('missing.md'))).toBe('not_found');
    expect(await codeOf(vault.rename('a.md', 'b.md'))).toBe('conflict');
    expect(fs.readFileSync(path.join(root, 'b.md'), 'utf8')).toBe('B');
    await vault.rename('a.md', 'moved/here/a2.md');
    expect(fs.readFileSync(path.join(root, 'moved/here/a2.md'), 'utf8')).toBe('A');
    expect(await vault.stat('a.md')).toBeNull();
    expect(await codeOf(vault.rename('a.md', 'c.md'))).toBe('not_found');
    await vault.delete('b.md');
    expect(fs.existsSync(path.join(root, 'b.md'))).toBe(false);
    expect(await codeOf(vault.delete('b.md'))).toBe('not_found');
  });

  it('processFrontMatter rewrites only the frontmatter block and keeps the body byte-identical', async () => {
    const body = '\r\n# Title  \r\n\r\nText with trailing spaces   \r\n---\r\nnot: frontmatter\r\n\u00a0end';
    put('n.md', `---\r\n# a comment\r\ntitle: "Kept"\r\ntags: [x, y]\r\n---${body}`);
    const vault = new NodeVault(root);
    await vault.processFrontMatter('n.md', (fm) => {
      fm.confidence = 0.9;
      (fm.tags as string[]).push('z');
    });
    const out = fs.readFileSync(path.join(root, 'n.md'), 'utf8');
    expect(out.endsWith(body)).toBe(true);
    expect(out.slice(0, out.length - body.length)).toBe('---\r\n# a comment\r\ntitle: "Kept"\r\ntags: [x, y, z]\r\nconfidence: 0.9\r\n---');
  });

  it('processFrontMatter refuses malformed YAML and leaves the file untouched', async () => {
    const text = '---\ntitle: [unclosed\n  : : bad\n---\nBody\n';
    put('bad.md', text);
    const vault = new NodeVault(root);
    const called = jest.fn();
    const err = await vault.processFrontMatter('bad.md', called).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LithosError);
    expect((err as LithosError).code).toBe('invalid_argument');
    expect((err as LithosError).message).toContain('bad.md');
    expect(called).not.toHaveBeenCalled();
    expect(fs.readFileSync(path.join(root, 'bad.md'), 'utf8')).toBe(text);
  });

  it('processFrontMatter does not rewrite the file when nothing changed', async () => {
    put('same.md', '---\na: 1\n---\nbody');
    const vault = new NodeVault(root);
    const before = fs.statSync(path.join(root, 'same.md'));
    await vault.processFrontMatter('same.md', (fm) => void (fm.a = 1));
    const after = fs.statSync(path.join(root, 'same.md'));
    expect(after.ino).toBe(before.ino); // an atomic write would have replaced the inode
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });
});

describe('NodeVault availability', () => {
  it('reports the vault folder disappearing as vault_unavailable', async () => {
    put('a.md', 'A');
    const vault = new NodeVault(root);
    expect(await vault.isAvailable()).toBe(true);
    fs.rmSync(root, { recursive: true });
    expect(await vault.isAvailable()).toBe(false);
    expect(await codeOf(vault.listMarkdown())).toBe('vault_unavailable');
    expect(await codeOf(vault.readBytes('a.md'))).toBe('vault_unavailable');
    expect(await codeOf(vault.write('a.md', 'x'))).toBe('vault_unavailable');
    expect(fs.existsSync(root)).toBe(false); // writing must not recreate the vault
  });

  it('is unavailable when the vault path is a file', async () => {
    const file = path.join(tmp, 'file');
    fs.writeFileSync(file, '');
    expect(await new NodeVault(file).isAvailable()).toBe(false);
  });
});

/** Collects events and waits until one matches (bounded only against a hang). */
function recorder() {
  const events: VaultEvent[] = [];
  const waiters: Array<() => void> = [];
  const listener = (e: VaultEvent): void => {
    events.push(e);
    for (const w of waiters.splice(0)) w();
  };
  const waitFor = async (pred: (e: VaultEvent) => boolean, what: string): Promise<VaultEvent> => {
    const deadline = Date.now() + HANG_MS;
    for (;;) {
      const hit = events.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no ${what} event; got ${JSON.stringify(events)}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 50);
      });
    }
  };
  return { events, listener, waitFor };
}

describe.each(['native', 'poll'] as const)('NodeVault.watch (%s)', (mode) => {
  it('delivers create, modify and delete for notes, and nothing for dot-folders', async () => {
    put('existing.md', 'old');
    const vault = new NodeVault(root, { watchMode: mode, pollMs: 50 });
    const rec = recorder();
    const unwatch = vault.watch(rec.listener);
    try {
      expect(unwatch.mode).toBe(mode);
      await unwatch.ready;
      put('.obsidian/hidden.md', 'x');
      put('.lithos/store.md', 'x');
      await vault.write('new note.md', 'hello');
      await rec.waitFor((e) => e.kind === 'create' && e.path === 'new note.md', 'create');
      fs.writeFileSync(path.join(root, 'existing.md'), 'changed, and longer');
      await rec.waitFor((e) => e.kind === 'modify' && e.path === 'existing.md', 'modify');
      fs.unlinkSync(path.join(root, 'new note.md'));
      await rec.waitFor((e) => e.kind === 'delete' && e.path === 'new note.md', 'delete');
      expect(rec.events.some((e) => e.path.startsWith('.'))).toBe(false);
    } finally {
      unwatch();
    }
  });

  it('reports a folder moved in the vault as deletes and creates of the notes inside', async () => {
    put('proj/a.md', 'A');
    put('proj/sub/b.md', 'B');
    const vault = new NodeVault(root, { watchMode: mode, pollMs: 50 });
    const rec = recorder();
    const unwatch = vault.watch(rec.listener);
    try {
      await unwatch.ready;
      fs.renameSync(path.join(root, 'proj'), path.join(root, 'archive'));
      for (const p of ['proj/a.md', 'proj/sub/b.md']) await rec.waitFor((e) => e.kind === 'delete' && e.path === p, `delete ${p}`);
      for (const p of ['archive/a.md', 'archive/sub/b.md']) await rec.waitFor((e) => e.kind === 'create' && e.path === p, `create ${p}`);
    } finally {
      unwatch();
    }
  });
  // Editors and lithos_write save by writing a temporary file and renaming it over the note. On Linux,
  // Node's recursive fs.watch keeps watching the replaced file, so what came after went unseen.
  it('keeps seeing a note after it was replaced by rename: edits, a rename and a delete', async () => {
    put('kept.md', 'first');
    const vault = new NodeVault(root, { watchMode: mode, pollMs: 50 });
    const rec = recorder();
    const unwatch = vault.watch(rec.listener);
    try {
      await unwatch.ready;
      await vault.write('kept.md', 'second, saved by rename');
      await rec.waitFor((e) => e.kind === 'modify' && e.path === 'kept.md', 'modify by rename');
      rec.events.length = 0;
      fs.appendFileSync(path.join(root, 'kept.md'), '\nthird, typed in place');
      await rec.waitFor((e) => e.kind === 'modify' && e.path === 'kept.md', 'modify in place after the rename');
      fs.renameSync(path.join(root, 'kept.md'), path.join(root, 'moved.md'));
      await rec.waitFor((e) => e.kind === 'delete' && e.path === 'kept.md', 'delete of the old name');
      await rec.waitFor((e) => e.kind === 'create' && e.path === 'moved.md', 'create of the new name');
      await vault.write('moved.md', 'fourth, saved by rename');
      fs.unlinkSync(path.join(root, 'moved.md'));
      await rec.waitFor((e) => e.kind === 'delete' && e.path === 'moved.md', 'delete');
    } finally {
      unwatch();
    }
  });

  it('reports no deletes while the vault folder is away, and resumes when it is back', async () => {
    put('a.md', 'A');
    const away = path.join(tmp, 'unmounted');
    const vault = new NodeVault(root, { watchMode: mode, pollMs: 50 });
    const rec = recorder();
    const unwatch = vault.watch(rec.listener);
    try {
      await unwatch.ready;
      fs.renameSync(root, away); // like an unmount: the notes still exist, just not here
      const deadline = Date.now() + HANG_MS;
      while (unwatch.mode !== 'poll' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(unwatch.mode).toBe('poll'); // native watching gave way to polling for the vault's return
      fs.renameSync(away, root);
      put('c.md', 'C');
      await rec.waitFor((e) => e.kind === 'create' && e.path === 'c.md', 'create after return');
      expect(rec.events.filter((e) => e.kind === 'delete')).toEqual([]);
    } finally {
      unwatch();
    }
  });
});
