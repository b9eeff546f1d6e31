import { parseNote } from '../../shared/model/note';
import { isUuid } from '../../shared/model/ids';
import { basenameNoExt, folderOf, normalizeVaultPath } from '../../shared/model/paths';
import { SyntheticVault } from '../../bridge/bench/synth-vault';

const enc = new TextEncoder();

describe('SyntheticVault', () => {
  const vault = new SyntheticVault(400, 11);
  const notes = [...vault.notes()];

  it('is deterministic for a seed and differs between seeds', () => {
    const again = new SyntheticVault(400, 11);
    expect([...again.notes()]).toEqual(notes);
    expect(again.queries(50)).toEqual(vault.queries(50));
    const other = new SyntheticVault(400, 12);
    expect(other.note(0).content).not.toBe(notes[0].content);
  });

  it('gives random access to the same notes it streams', () => {
    expect(vault.note(123)).toEqual(notes[123]);
    expect(vault.path(7)).toBe(notes[7].path);
  });

  it('puts notes in folders with valid, vault-wide unique basenames', () => {
    const basenames = new Set(notes.map((n) => basenameNoExt(n.path).toLowerCase()));
    expect(basenames.size).toBe(notes.length);
    for (const n of notes) {
      expect(normalizeVaultPath(n.path)).toBe(n.path);
      expect(n.path.endsWith('.md')).toBe(true);
      expect(folderOf(n.path)).not.toBe('');
    }
    expect(new Set(notes.map((n) => folderOf(n.path))).size).toBeGreaterThan(8);
  });

  it('has log-normal-ish lengths: 50+ words, mostly 150–600', () => {
    const words = notes.map((n) => n.words).sort((a, b) => a - b);
    expect(words[0]).toBeGreaterThanOrEqual(50);
    expect(words[words.length - 1]).toBeLessThan(5200);
    const median = words[words.length >> 1];
    expect(median).toBeGreaterThan(250);
    expect(median).toBeLessThan(450);
    expect(words.filter((w) => w >= 150 && w <= 600).length / words.length).toBeGreaterThan(0.65);
  });

  it('produces notes that parse without problems, with the model fields set', () => {
    for (const n of notes) {
      const parsed = parseNote(n.path, enc.encode(n.content));
      expect(parsed.problems).toEqual([]);
      expect(isUuid(parsed.meta.id)).toBe(true);
      expect(parsed.meta.title).toBe(n.title);
      expect(parsed.meta.namespace).toBe(folderOf(n.path));
      expect(parsed.meta.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
  });

  it('links to other notes by basename and uses a skewed tag vocabulary', () => {
    const titles = new Set(notes.map((n) => n.title));
    const inbound = new Map<string, number>();
    const tagCounts = new Map<string, number>();
    let links = 0;
    for (const n of notes) {
      const parsed = parseNote(n.path, enc.encode(n.content));
      for (const l of parsed.links) {
        expect(titles.has(l.target)).toBe(true);
        inbound.set(l.target, (inbound.get(l.target) ?? 0) + 1);
        links++;
      }
      for (const t of parsed.meta.tags) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
    }
    expect(links / notes.length).toBeGreaterThan(2);
    // Hubs: the most linked note gets far more than the average.
    expect(Math.max(...inbound.values())).toBeGreaterThan(5 * (links / notes.length));
    const tagFreq = [...tagCounts.values()].sort((a, b) => b - a);
    expect(tagFreq[0]).toBeGreaterThan(10 * tagFreq[Math.floor(tagFreq.length / 2)]);
  });

  it('edits a note in place: same path and id, different body', () => {
    const edited = vault.note(5, 1);
    expect(edited.path).toBe(notes[5].path);
    const a = parseNote(edited.path, enc.encode(edited.content));
    const b = parseNote(notes[5].path, enc.encode(notes[5].content));
    expect(a.meta.id).toBe(b.meta.id);
    expect(a.body).not.toBe(b.body);
  });

  it('makes seeded queries, most of which share words with some note', () => {
    const queries = vault.queries(300);
    expect(queries).toHaveLength(300);
    const tokens = new Set(notes.flatMap((n) => n.content.toLowerCase().split(/[^a-z]+/)));
    const matched = queries.filter((q) => q.split(' ').every((w) => tokens.has(w)));
    for (const q of queries) expect(q).toMatch(/^[a-z]+( [a-z]+)*$/);
    expect(matched.length / queries.length).toBeGreaterThan(0.6);
  });
});
