import { formatEvalTable, toEvalJson, type DatasetResult } from '../../bridge/eval/eval-report';

const results: DatasetResult[] = [
  { name: 'locomo-turns/conv-26', scores: { ndcg: 0.123456, recall: 0.5, mrr: 1 / 3 }, queries: 150, skipped: 2, docs: 419, seconds: 1.25 },
  { name: 'scifact-dev', scores: { ndcg: 0.654321, recall: 0.75, mrr: 0.6 }, queries: 300, skipped: 0, docs: 5183, seconds: 20 },
  { name: 'empty', scores: { ndcg: 0, recall: 0, mrr: 0 }, queries: 0, skipped: 3, docs: 4, seconds: 0.1 },
];

describe('toEvalJson', () => {
  it('has exactly the datasets and macro keys, numbers rounded to 4 decimals', () => {
    const json = toEvalJson(results);
    expect(Object.keys(json)).toEqual(['datasets', 'macro']);
    expect(json.datasets['locomo-turns/conv-26']).toEqual({ 'ndcg@10': 0.1235, 'recall@10': 0.5, 'mrr@10': 0.3333, queries: 150 });
    expect(Object.keys(json.datasets)).toEqual(['locomo-turns/conv-26', 'scifact-dev', 'empty']);
  });

  it('macro-averages datasets that had evaluated queries and totals their queries', () => {
    expect(toEvalJson(results).macro).toEqual({ 'ndcg@10': 0.3889, 'recall@10': 0.625, 'mrr@10': 0.4667, queries: 450 });
  });
});

describe('formatEvalTable', () => {
  it('prints aligned columns with a macro row', () => {
    const lines = formatEvalTable(results, 'hybrid').split('\n');
    expect(lines[0]).toBe('mode: hybrid');
    const table = lines.slice(1);
    expect(new Set(table.map((l) => l.length)).size).toBe(1);
    expect(table[0]).toMatch(/^dataset\s+ndcg@10\s+recall@10\s+mrr@10\s+queries\s+skipped\s+docs\s+seconds$/);
    expect(table.find((l) => l.startsWith('scifact-dev'))).toMatch(/0\.6543\s+0\.7500\s+0\.6000\s+300\s+0\s+5183\s+20\.0$/);
    expect(table[table.length - 1]).toMatch(/^macro\s+0\.3889\s+0\.6250\s+0\.4667\s+450\s+5\s+5606/);
  });
});
