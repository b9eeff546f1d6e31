import { formatEvalTable, toEvalJson, type DatasetResult } from '../../bridge/eval/eval-report';

const results: DatasetResult[] = [
  { name: 'locomo-turns/conv-26', scores: { ndcg: 0.123456, recall: 0.5, mrr: 1 / 3 }, queries: 150, skipped: 2, docs: 419, seconds: 1.25 },
  { name: 'scifact-dev', scores: { ndcg: 0.654321, recall: 0.75, mrr: 0.6 }, queries: 300, skipped: 0, docs: 5183, seconds: 20 },
  { name: 'empty', scores: { ndcg: 0, recall: 0, mrr: 0 }, queries: 0, skipped: 3, docs: 4, seconds: 0.1 },
];

describe('toEvalJson', () => {
  it('has exactly the datasets, macro, collections and macro_by_collection keys, numbers rounded to 4 decimals', () => {
    const json = toEvalJson(results);
    expect(Object.keys(json)).toEqual(['datasets', 'macro', 'collections', 'macro_by_collection']);
    expect(json.datasets['locomo-turns/conv-26']).toEqual({ 'ndcg@10': 0.1235, 'recall@10': 0.5, 'mrr@10': 0.3333, queries: 150 });
    expect(Object.keys(json.datasets)).toEqual(['locomo-turns/conv-26', 'scifact-dev', 'empty']);
  });

  it('macro-averages datasets that had evaluated queries and totals their queries', () => {
    expect(toEvalJson(results).macro).toEqual({ 'ndcg@10': 0.3889, 'recall@10': 0.625, 'mrr@10': 0.4667, queries: 450 });
  });
});

describe('collections', () => {
  const two: DatasetResult[] = [
    { name: 'locomo-turns/conv-1', scores: { ndcg: 0.2, recall: 0.2, mrr: 0.2 }, queries: 10, skipped: 0, docs: 5, seconds: 1, temperatures: [0.2, 0.4] },
    { name: 'locomo-turns/conv-2', scores: { ndcg: 0.4, recall: 0.4, mrr: 0.4 }, queries: 30, skipped: 0, docs: 5, seconds: 1, temperatures: [0.5, 0.5] },
    { name: 'scifact-dev', scores: { ndcg: 0.9, recall: 0.9, mrr: 0.9 }, queries: 5, skipped: 0, docs: 5, seconds: 1, temperatures: [0, 1] },
  ];

  it('macro-averages the folders of one collection, then collections and standalone datasets alike', () => {
    const json = toEvalJson(two);
    expect(Object.keys(json.collections)).toEqual(['locomo-turns']);
    expect(json.collections['locomo-turns']['ndcg@10']).toBe(0.3);
    expect(json.collections['locomo-turns'].queries).toBe(40);
    // (0.3 + 0.9) / 2, not (0.2 + 0.4 + 0.9) / 3
    expect(json.macro_by_collection['ndcg@10']).toBe(0.6);
    expect(json.macro['ndcg@10']).toBe(0.5);
  });

  it('reports temperature mean and standard deviation per dataset and macro-averaged', () => {
    const json = toEvalJson(two);
    expect(json.datasets['scifact-dev']).toMatchObject({ temperature_mean: 0.5, temperature_std: 0.5 });
    expect(json.datasets['locomo-turns/conv-1']).toMatchObject({ temperature_mean: 0.3, temperature_std: 0.1 });
    expect(json.macro).toMatchObject({ temperature_mean: 0.4333, temperature_std: 0.2 });
    expect(json.collections['locomo-turns']).toMatchObject({ temperature_mean: 0.4, temperature_std: 0.05 });
    expect(json.macro_by_collection).toMatchObject({ temperature_mean: 0.45, temperature_std: 0.275 });
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
