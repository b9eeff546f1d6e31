import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../bridge/cli';
import { cli } from './run-cli';
import { acquireLock } from '../../bridge/lock';
import { startCatalogHost } from './mcp/catalog-host';

/** `lithos retrieve` and `lithos eval --mode pts` as a user drives them: real folders, JSON parsed back. */
let root: string;
let vault: string;

function write(rel: string, text: string): void {
  const p = join(root, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
}

/** `run` as the binary calls it: exit code and what went to stderr. */
async function runCaptured(argv: string[]): Promise<{ code: number; err: string }> {
  const errs: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((s) => (errs.push(String(s)), true));
  try {
    return { code: await run(argv), err: errs.join('') };
  } finally {
    spy.mockRestore();
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lithos-retrieve-'));
  vault = join(root, 'vault');
  write('vault/project/atlas/pool.md', '---\ntitle: Pool sizing\ntags: [atlas, pool]\n---\nThe connection pool was too small for the load. See [[Index]].\n');
  write('vault/project/atlas/Index.md', '---\ntitle: Index\n---\nThe missing index caused the latency regression.\n');
  write('vault/project/atlas/Timeouts.md', '---\ntitle: Timeouts\n---\nConnection timeouts when the pool is exhausted.\n');
  write('vault/shared/Garden.md', 'Tomatoes need sun and water.\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('lithos retrieve while Obsidian has the vault', () => {
  test("runs through the plugin's bridge as an agent: same output, the receipt written by the plugin's engine", async () => {
    const host = await startCatalogHost(vault);
    const lock = await acquireLock(join(vault, '.lithos'), { owner: 'plugin' });
    try {
      const r = await cli('retrieve', vault, 'connection pool', '--json');
      expect(r.code).toBe(0);
      expect(r.json().nodes.map((n: { path: string }) => n.path)).toContain('project/atlas/pool.md');
      expect(host.calls).toEqual([{ tool: 'lithos_retrieve', caller: { kind: 'agent', agent_id: 'lithos-cli' } }]);
      const receipts = await host.engine.services.retrieval.receipts.query({ receipt_id: r.json().receipt_id, limit: 1 });
      expect(receipts.receipts).toHaveLength(1);
      // --without is an evaluation switch, not a tool argument: refused with the lock's explanation.
      await expect(cli('retrieve', vault, 'pool', '--without', 'vector')).rejects.toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('open in Obsidian') });
    } finally {
      await lock.release();
      await host.stop();
    }
  });

  test('--try writes nothing, so it runs read-only beside Obsidian, without its bridge', async () => {
    const lock = await acquireLock(join(vault, '.lithos'), { owner: 'plugin' });
    try {
      const r = await cli('retrieve', vault, 'connection pool', '--json', '--try');
      expect(r.code).toBe(0);
      expect(r.json()).toMatchObject({ try: true, receipt_id: null });
      expect(r.json().nodes.map((n: { path: string }) => n.path)).toContain('project/atlas/pool.md');
    } finally {
      await lock.release();
    }
  });

  test('with the bridge off (no host answering) the lock refusal stands, naming Obsidian', async () => {
    const lock = await acquireLock(join(vault, '.lithos'), { owner: 'plugin' });
    try {
      await expect(cli('retrieve', vault, 'pool')).rejects.toMatchObject({ code: 'vault_locked', message: expect.stringContaining('is open in Obsidian') });
    } finally {
      await lock.release();
    }
  });
});

describe('lithos retrieve', () => {
  test('--json prints the documented keys', async () => {
    const r = await cli('retrieve', vault, 'connection', 'pool', '--json', '--agent', 'claude');
    expect(r.code).toBe(0);
    const j = r.json();
    expect(j).toEqual(expect.objectContaining({ nodes: expect.any(Array), temperature: expect.any(Number), terrace_reached: expect.any(Number), receipt_id: expect.any(String) }));
    expect(j.nodes.length).toBeGreaterThan(0);
    for (const n of j.nodes) {
      expect(n).toEqual(
        expect.objectContaining({ id: expect.any(String), path: expect.any(String), title: expect.any(String), score: expect.any(Number), reasons: expect.any(Array), scouts: expect.any(Array) }),
      );
    }
    expect(j.nodes[0]).toMatchObject({ path: 'project/atlas/pool.md', title: 'Pool sizing' });
    expect(j.temperature).toBeGreaterThanOrEqual(0);
    expect(j.temperature).toBeLessThanOrEqual(1);
    // the receipt it names was written, with the agent
    const receipts = (await cli('receipts', vault, '--json', '--agent', 'claude')).json().receipts;
    expect(receipts.map((x: { receipt_id: string }) => x.receipt_id)).toEqual([j.receipt_id]);
  });

  test('--k, --class and --intent reach the query', async () => {
    const j = (await cli('retrieve', vault, 'connection pool', '--json', '--k', '2', '--class', 'debug', '--intent', 'fact_check')).json();
    expect(j.nodes.length).toBeLessThanOrEqual(2);
    expect(j).toMatchObject({ query_class: 'debug', intent: 'fact_check' });
  });

  test('--without lexical switches the scout off and still answers', async () => {
    const r = await cli('retrieve', vault, 'connection pool', '--json', '--without', 'lexical');
    expect(r.code).toBe(0);
    const j = r.json();
    expect(j.nodes.length).toBeGreaterThan(0);
    for (const n of j.nodes) expect(n.scouts).not.toContain('lexical');
    expect(j.scouts.lexical).toMatchObject({ hits: 0, skipped: expect.stringContaining('--without') });
  });

  test('--try teaches nothing: the same ranking, no receipt, no stats, and the result says it was a try', async () => {
    const tried = await cli('retrieve', vault, 'connection pool', '--json', '--try');
    expect(tried.code).toBe(0);
    const j = tried.json();
    expect(j).toMatchObject({ try: true, receipt_id: null });
    expect((await cli('receipts', vault, '--json')).json().receipts).toEqual([]);
    const real = (await cli('retrieve', vault, 'connection pool', '--json')).json();
    expect(real.try).toBeUndefined();
    expect(real.nodes.map((n: { id: string; score: number }) => [n.id, n.score])).toEqual(j.nodes.map((n: { id: string; score: number }) => [n.id, n.score]));
    const table = await cli('retrieve', vault, 'connection pool', '--try');
    expect(table.out).toContain('try: no receipt written, nothing learned');
    expect(table.out).not.toMatch(/receipt [0-9a-f-]+/);
    expect((await cli('receipts', vault, '--json')).json().receipts.map((r: { receipt_id: string }) => r.receipt_id)).toEqual([real.receipt_id]);
  });

  test('the table form names the notes, the temperature and the receipt', async () => {
    const r = await cli('retrieve', vault, 'connection pool');
    expect(r.code).toBe(0);
    expect(r.out).toContain('project/atlas/pool.md');
    expect(r.out).toMatch(/temperature \d\.\d\d · terrace \d/);
    expect(r.out).toMatch(/receipt [0-9a-f-]+/);
  });

  test.each([
    ['an unknown intent', ['--intent', 'bogus'], /--intent must be one of continuity, /],
    ['an unknown scout', ['--without', 'telepathy'], /--without must be one of lexical, vector, /],
    ['--k 0', ['--k', '0'], /--k must be a whole number from 1 to 50/],
    ['--k 51', ['--k', '51'], /--k must be a whole number from 1 to 50/],
  ])('%s is bad usage: exit code 2 and a one-line message naming the command', async (_what, flags, message) => {
    const { code, err } = await runCaptured(['retrieve', vault, 'connection pool', ...flags]);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(err).toMatch(/^lithos retrieve: /);
  });

  test('--class outside the known classes is bad usage and never reaches a receipt', async () => {
    expect((await cli('retrieve', vault, 'connection pool', '--class', 'debug')).code).toBe(0);
    const { code, err } = await runCaptured(['retrieve', vault, 'connection pool', '--class', 'nonsense']);
    expect(code).toBe(2);
    expect(err).toBe('lithos retrieve: --class must be one of debug, design, planning, write, decision, synthesis, lookup (got "nonsense"). See lithos retrieve --help.\n');
    const receipts = (await cli('receipts', vault, '--json')).json().receipts as { query_class: string }[];
    expect(receipts.map((r) => r.query_class)).toEqual(['debug']);
  });

  test('a missing query is bad usage', async () => {
    expect((await runCaptured(['retrieve', vault])).code).toBe(2);
  });
});

describe('lithos eval --mode pts', () => {
  function dataset(name: string, docs: [string, string, string][], queries: [string, string, string][]): string {
    write(`${name}/corpus.jsonl`, docs.map(([_id, title, text]) => JSON.stringify({ _id, title, text })).join('\n') + '\n');
    write(`${name}/queries.jsonl`, queries.map(([_id, text]) => JSON.stringify({ _id, text })).join('\n') + '\n');
    write(`${name}/qrels/test.tsv`, ['query-id\tcorpus-id\tscore', ...queries.map(([q, , doc]) => `${q}\t${doc}\t1`)].join('\n') + '\n');
    return join(root, name);
  }

  test('prints temperature_mean and temperature_std per dataset and in macro', async () => {
    const baking = dataset(
      'baking',
      [
        ['b1', 'Sourdough starter', 'Feed the sourdough starter twice a day with flour and water.'],
        ['b2', 'Rye bread', 'Rye flour absorbs more water than wheat flour.'],
        ['b3', 'Oven temperature', 'Bake bread at a high oven temperature with steam.'],
        ['b4', 'Croissants', 'Laminated dough with butter, folded many times.'],
      ],
      [
        ['q1', 'how to feed a sourdough starter', 'b1'],
        ['q2', 'rye flour water', 'b2'],
        ['q3', 'butter dough folding', 'b4'],
      ],
    );
    const bikes = dataset(
      'bikes',
      [
        ['k1', 'Chain lube', 'Apply one drop of lube per roller on the chain.'],
        ['k2', 'Tyre pressure', 'Road tyres run at higher pressure than gravel tyres.'],
        ['k3', 'Brake pads', 'Replace brake pads when the groove is gone.'],
      ],
      [
        ['p1', 'chain lube', 'k1'],
        ['p2', 'tyre pressure for road bikes', 'k2'],
      ],
    );
    const r = await cli('eval', baking, bikes, '--mode', 'pts', '--json');
    expect(r.code).toBe(0);
    const j = r.json();
    expect(Object.keys(j.datasets).sort()).toEqual(['baking', 'bikes']);
    for (const row of [j.datasets.baking, j.datasets.bikes, j.macro]) {
      expect(row).toEqual(
        expect.objectContaining({ 'ndcg@10': expect.any(Number), 'recall@10': expect.any(Number), 'mrr@10': expect.any(Number), temperature_mean: expect.any(Number), temperature_std: expect.any(Number) }),
      );
      expect(row.temperature_mean).toBeGreaterThanOrEqual(0);
      expect(row.temperature_mean).toBeLessThanOrEqual(1);
      expect(row.temperature_std).toBeGreaterThanOrEqual(0);
      expect(row.temperature_std).toBeLessThanOrEqual(0.5);
    }
    expect(j.datasets.baking.queries).toBe(3);
    expect(j.datasets.bikes.queries).toBe(2);
    // the macro is the mean of the datasets' figures
    expect(j.macro.temperature_mean).toBeCloseTo((j.datasets.baking.temperature_mean + j.datasets.bikes.temperature_mean) / 2, 3);
    expect(j.macro.temperature_std).toBeCloseTo((j.datasets.baking.temperature_std + j.datasets.bikes.temperature_std) / 2, 3);
    // obvious lexical matches come first under PTS too
    expect(j.datasets.bikes['mrr@10']).toBe(1);

    // other modes have no temperature
    const lexical = (await cli('eval', bikes, '--mode', 'lexical', '--json')).json();
    expect(lexical.datasets.bikes).not.toHaveProperty('temperature_mean');

    // an ablation runs and reports the same keys
    const ablated = await cli('eval', bikes, '--mode', 'pts', '--without', 'lexical', '--without', 'vector', '--json');
    expect(ablated.code).toBe(0);
    expect(ablated.json().datasets.bikes).toHaveProperty('temperature_std');
  });
});
