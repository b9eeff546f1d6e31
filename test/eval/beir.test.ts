import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCorpus, readQrels, readQueries, resolveDatasets } from '../../bridge/eval/beir';
import { LithosError } from '../../shared/errors';

const MINI = join(__dirname, '..', 'fixtures', 'beir-mini');

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('BEIR loader', () => {
  it('streams the corpus with ids, titles, texts and metadata', async () => {
    const docs = await collect(readCorpus(MINI));
    expect(docs.map((d) => d._id)).toEqual(['bake-1', 'bake-2', 'bike-1', 'bike-2', 'notes/2024:07 garden', 'D1:7']);
    expect(docs[0].title).toBe('Feeding a sourdough starter');
    expect(docs[0].metadata).toEqual({ created_at: '2024-03-02T09:00:00Z', tags: ['baking', 'sourdough'] });
    expect(docs[4].title).toBe('');
    expect(docs[5].metadata.session).toBe(2);
  });

  it('streams the queries', async () => {
    const queries = await collect(readQueries(MINI));
    expect(queries.map((q) => [q._id, q.text])).toEqual([
      ['q-starter', 'how often should I feed a sourdough starter'],
      ['q-chain', 'chain lube for road bikes'],
      ['q-telescope', 'telescope mirror collimation'],
    ]);
  });

  it('reads graded qrels and skips the header line', async () => {
    const qrels = await readQrels(MINI);
    expect([...qrels.keys()]).toEqual(['q-starter', 'q-chain', 'q-telescope']);
    expect(Object.fromEntries(qrels.get('q-starter')!)).toEqual({ 'bake-1': 2, 'bake-2': 1 });
    expect(Object.fromEntries(qrels.get('q-chain')!)).toEqual({ 'bike-1': 2, 'bike-2': 0 });
  });

  describe('with files on disk', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'lithos-beir-test-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('accepts qrels without a header, numeric ids and blank lines', async () => {
      await mkdir(join(dir, 'qrels'));
      await writeFile(join(dir, 'qrels', 'test.tsv'), '1\t7\t1\n\n1\t8\t0\n');
      await writeFile(join(dir, 'corpus.jsonl'), '{"_id": 7, "text": "seven"}\n\n');
      expect(Object.fromEntries((await readQrels(dir)).get('1')!)).toEqual({ '7': 1, '8': 0 });
      expect(await collect(readCorpus(dir))).toEqual([{ _id: '7', title: '', text: 'seven', metadata: {} }]);
    });

    it('names the file and line of a malformed record', async () => {
      await writeFile(join(dir, 'corpus.jsonl'), '{"_id": "a", "text": "ok"}\n{not json\n');
      await expect(collect(readCorpus(dir))).rejects.toMatchObject({ code: 'invalid_argument', data: { line: 2 } });
      await writeFile(join(dir, 'queries.jsonl'), '{"text": "no id"}\n');
      await expect(collect(readQueries(dir))).rejects.toBeInstanceOf(LithosError);
    });

    it('expands a collection folder into sub-datasets named <folder>/<sub>, sorted', async () => {
      const coll = join(dir, 'convs');
      await cp(MINI, join(coll, 'conv-9'), { recursive: true });
      await cp(MINI, join(coll, 'conv-10'), { recursive: true });
      await mkdir(join(coll, 'not-a-dataset'));
      const refs = await resolveDatasets([coll, MINI]);
      expect(refs.map((r) => r.name)).toEqual(['convs/conv-10', 'convs/conv-9', 'beir-mini']);
      expect(refs[0].dir).toBe(join(coll, 'conv-10'));
    });

    it('refuses missing folders and folders without datasets', async () => {
      await expect(resolveDatasets([join(dir, 'nope')])).rejects.toMatchObject({ code: 'not_found' });
      await expect(resolveDatasets([dir])).rejects.toMatchObject({ code: 'invalid_argument' });
    });

    it('keeps two datasets with the same folder name apart', async () => {
      await cp(MINI, join(dir, 'a', 'beir-mini'), { recursive: true });
      const refs = await resolveDatasets([MINI, join(dir, 'a', 'beir-mini')]);
      expect(refs.map((r) => r.name)).toEqual(['beir-mini', 'beir-mini#2']);
    });
  });
});
