import { editNoteText } from '../../shared/vault/text-edit';
import { contentHash } from '../../shared/model/hash';
import { MemoryVault } from '../twins/memory-vault';

/**
 * The engine's own text edits (managed callouts, the graveyard's moves) and a byte-order mark: the mark is the file's,
 * so the edit gets the text without it (and is told it is there), and the file keeps it.
 */

const enc = new TextEncoder();
const raw = async (vault: MemoryVault, path: string) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(await vault.readBytes(path));

describe('a note with a byte-order mark', () => {
  test('the edit sees the text without the mark and is told of it; the file keeps the mark', async () => {
    const vault = new MemoryVault({ 'a.md': enc.encode('\uFEFF---\r\ntitle: A\r\n---\r\nBody\r\n') });
    const seen: [string, boolean][] = [];
    const r = await editNoteText({ vault, clock: { now: () => 0 }, resync: async () => null }, 'a.md', (t, bom) => {
      seen.push([t, bom]);
      return `${t}%% block %%\r\n`;
    });
    expect(seen[0]).toEqual(['---\r\ntitle: A\r\n---\r\nBody\r\n', true]);
    expect(await raw(vault, 'a.md')).toBe('\uFEFF---\r\ntitle: A\r\n---\r\nBody\r\n%% block %%\r\n');
    // The version is the note's, as parseNote computes it (mark removed).
    expect(r).toMatchObject({ changed: true, previous_version: contentHash('---\r\ntitle: A\r\n---\r\nBody\r\n') });
  });

  test('where the host edits in one step (Obsidian), the mark in what it hands over is kept too', async () => {
    const vault = new MemoryVault({ 'a.md': enc.encode('\uFEFFBody\n') });
    const host = Object.assign(vault, {
      async processText(path: string, fn: (text: string) => string) {
        const before = await raw(vault, path);
        const after = fn(before);
        vault.put(path, after);
        return { before, after };
      },
    });
    await editNoteText({ vault: host, clock: { now: () => 0 }, resync: async () => null }, 'a.md', (t, bom) => (bom ? `${t}more\n` : t));
    expect(await raw(vault, 'a.md')).toBe('\uFEFFBody\nmore\n');
  });

  test('a note without one is edited as before, told it has none', async () => {
    const vault = new MemoryVault({ 'a.md': 'Body\n' });
    await editNoteText({ vault, clock: { now: () => 0 }, resync: async () => null }, 'a.md', (t, bom) => `${t}${String(bom)}\n`);
    expect(await raw(vault, 'a.md')).toBe('Body\nfalse\n');
  });
});
