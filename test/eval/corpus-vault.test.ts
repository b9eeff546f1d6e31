import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readCorpus } from '../../bridge/eval/beir';
import { CORPUS_MTIME_S, corpusIdOf, deterministicNoteId, noteFileName, renderCorpusNote, writeCorpusVault } from '../../bridge/eval/corpus-vault';
import { isUuid } from '../../shared/model/ids';
import { normalizeVaultPath } from '../../shared/model/paths';

const MINI = join(__dirname, '..', 'fixtures', 'beir-mini');

describe('noteFileName', () => {
  it('derives a safe slug from the corpus id, never path syntax', () => {
    const taken = new Set<string>();
    expect(noteFileName('D1:7', taken)).toBe('d1-7.md');
    expect(noteFileName('../../etc/passwd', taken)).toBe('etc-passwd.md');
    expect(noteFileName('???', taken)).toBe('doc.md');
    expect(noteFileName('x'.repeat(500), taken)).toBe(`${'x'.repeat(80)}.md`);
  });

  it('disambiguates ids that slug (or case-fold) to the same name', () => {
    const taken = new Set<string>();
    expect(['A:1', 'a-1', 'a_1'].map((id) => noteFileName(id, taken))).toEqual(['a-1.md', 'a-1-2.md', 'a-1-3.md']);
  });
});

describe('deterministicNoteId', () => {
  it('is a UUID that depends only on dataset and corpus id', () => {
    const id = deterministicNoteId('scifact', '4983');
    expect(isUuid(id)).toBe(true);
    expect(deterministicNoteId('scifact', '4983')).toBe(id);
    expect(deterministicNoteId('scifact', '4984')).not.toBe(id);
    expect(deterministicNoteId('other', '4983')).not.toBe(id);
  });
});

describe('renderCorpusNote', () => {
  it('puts metadata, id and title in the frontmatter and the text in the body', () => {
    const text = renderCorpusNote({ _id: 'x', title: 'A: title', text: 'Body text.', metadata: { created_at: '2024-01-01T00:00:00Z', tags: ['t'], id: 'ignored' } }, 'ID');
    const m = /^---\n([\s\S]*?)---\n([\s\S]*)$/.exec(text)!;
    expect(parse(m[1])).toEqual({ created_at: '2024-01-01T00:00:00Z', tags: ['t'], id: 'ID', title: 'A: title' });
    expect(m[2]).toBe('Body text.\n');
  });

  it('leaves the title out when the corpus has none', () => {
    const text = renderCorpusNote({ _id: 'x', title: ' ', text: 't', metadata: { title: 'meta title' } }, 'ID');
    expect(parse(/^---\n([\s\S]*?)---\n/.exec(text)![1])).toEqual({ id: 'ID' });
  });
});

describe('writeCorpusVault', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'lithos-corpus-test-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes one note per document and maps paths and ids back to corpus ids', async () => {
    const map = await writeCorpusVault(readCorpus(MINI), root, 'beir-mini');
    expect(map.docs).toBe(6);
    const files = (await readdir(join(root, 'corpus'))).sort();
    expect(files).toEqual(['bake-1.md', 'bake-2.md', 'bike-1.md', 'bike-2.md', 'd1-7.md', 'notes-2024-07-garden.md']);
    for (const p of map.byPath.keys()) expect(normalizeVaultPath(p)).toBe(p);
    expect(map.byPath.get('corpus/d1-7.md')).toBe('D1:7');
    const garden = await readFile(join(root, 'corpus', 'notes-2024-07-garden.md'), 'utf8');
    expect(garden).toContain('Harden off tomato seedlings');
    const id = deterministicNoteId('beir-mini', 'notes/2024:07 garden');
    expect(garden).toContain(`id: ${id}`);
    expect(corpusIdOf(map, { id, path: 'elsewhere.md' })).toBe('notes/2024:07 garden');
    expect(corpusIdOf(map, { id: 'unknown', path: 'corpus/bike-2.md' })).toBe('bike-2');
    expect(corpusIdOf(map, { id: 'unknown', path: 'nowhere.md' })).toBeUndefined();
  });

  it('gives every file the same fixed mtime, so recency (the fallback for notes without dates) ranks the same in every run', async () => {
    await writeCorpusVault(readCorpus(MINI), root, 'beir-mini');
    for (const f of await readdir(join(root, 'corpus'))) {
      expect((await stat(join(root, 'corpus', f))).mtimeMs).toBe(CORPUS_MTIME_S * 1000);
    }
  });
});
