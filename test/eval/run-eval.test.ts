import { join } from 'node:path';
import { evaluateDataset, runEval } from '../../bridge/eval/run-eval';

const MINI = join(__dirname, '..', 'fixtures', 'beir-mini');

describe('evaluateDataset', () => {
  it('indexes the corpus as a vault and scores the judged queries', async () => {
    const r = await evaluateDataset({ name: 'beir-mini', dir: MINI }, 'lexical');
    expect(r.docs).toBe(6);
    expect(r.indexErrors).toBe(0);
    // q-telescope has only a grade-0 judgement: skipped, not scored.
    expect(r.queries).toBe(2);
    expect(r.skipped).toBe(1);
    // Both judged queries have an obvious lexical match that must come first.
    expect(r.scores.mrr).toBe(1);
    expect(r.scores.recall).toBeGreaterThanOrEqual(0.75);
    expect(r.scores.ndcg).toBeGreaterThan(0.5);
  });
});

describe('runEval', () => {
  it('prints exactly the datasets/macro JSON shape', async () => {
    const lines: string[] = [];
    const code = await runEval({ datasets: [MINI], mode: 'hybrid', json: true, out: (s) => lines.push(s) });
    expect(code).toBe(0);
    const json = JSON.parse(lines.join('\n')) as { datasets: Record<string, Record<string, number>>; macro: Record<string, number> };
    expect(Object.keys(json)).toEqual(['datasets', 'macro', 'collections', 'macro_by_collection']);
    expect(Object.keys(json.datasets)).toEqual(['beir-mini']);
    const row = json.datasets['beir-mini'];
    expect(Object.keys(row)).toEqual(['ndcg@10', 'recall@10', 'mrr@10', 'queries']);
    expect(row.queries).toBe(2);
    expect(json.macro).toEqual(row);
    for (const v of Object.values(row)) expect(Math.round(v * 1e4) / 1e4).toBe(v);
  });

  it('prints an aligned table in human mode', async () => {
    const lines: string[] = [];
    expect(await runEval({ datasets: [MINI], mode: 'vector', json: false, out: (s) => lines.push(s) })).toBe(0);
    const text = lines.join('\n');
    expect(text).toContain('mode: vector');
    expect(text).toMatch(/beir-mini\s+\d\.\d{4}\s+\d\.\d{4}\s+\d\.\d{4}\s+2\s+1\s+6/);
  });

  it('reports a missing dataset folder with exit code 2', async () => {
    const lines: string[] = [];
    expect(await runEval({ datasets: [join(MINI, 'nope')], mode: 'lexical', json: true, out: (s) => lines.push(s) })).toBe(2);
    expect(JSON.parse(lines[0])).toMatchObject({ error: { code: 'not_found' } });
  });

  it('in human mode, fails as every lithos command does: nothing on stdout, one line on stderr', async () => {
    const lines: string[] = [];
    const stderr: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    try {
      expect(await runEval({ datasets: [join(MINI, 'nope')], mode: 'lexical', json: false, out: (s) => lines.push(s) })).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(lines).toEqual([]);
    expect(stderr.join('')).toMatch(/^lithos: .*nope.* \[not_found\]\n$/);
  });
});
