import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryVault } from '../twins/memory-vault';
import type { MemoryBlobStore } from '../twins/memory-blobs';
import { openHarness } from '../engine/harness';
import { learnedState, twoSessions, type Exit } from './damage-session';

/**
 * Issue 17 part 3: every file in `.lithos/` after a realistic session, damaged one at a time in four ways,
 * after a clean exit and after a kill. Each cell must either keep all learned state (edges with weights,
 * node stats, conflicts, agents and tasks, receipts, the audit trail, proposals) or say loudly what was
 * lost: a warning naming the file, and a `store.damaged` audit entry with counts. What each cell keeps is the
 * table in docs/data-model.md (Damage to `.lithos/`), read here: the docs and the behaviour cannot drift apart.
 */
type Damage = 'truncate' | 'zero' | 'delete' | 'garbage';
const DAMAGES: Record<Damage, (b: MemoryBlobStore, name: string) => void> = {
  truncate: (b, n) => b.truncate(n, 0.5),
  zero: (b, n) => b.files.set(n, new Uint8Array(b.files.get(n)!.byteLength)),
  delete: (b, n) => void b.files.delete(n),
  garbage: (b, n) => b.files.set(n, Uint8Array.from({ length: b.files.get(n)!.byteLength }, (_, i) => (i * 7919 + 13) % 251)),
};

type Verdict = 'intact' | 'reported' | 'silent';

const copyVault = (v: MemoryVault): MemoryVault => new MemoryVault(Object.fromEntries(v.paths().map((p) => [p, v.text(p)!])));
/** The docs' row for a file: one row for every proposal and every cache shard. */
const label = (name: string): string =>
  name.replace(/^proposals\/[^/]+\.json$/, 'proposals/<id>.json').replace(/^cache\.(bin|[0-9a-f]\.bin)$/, 'cache.bin, cache.<n>.bin');

/** docs/data-model.md's matrix: row label → [after a clean exit, after a kill] as verdicts ('absent' for —). */
function documented(): Map<string, Record<Exit, Verdict | 'absent'>> {
  const text = readFileSync(join(__dirname, '../../docs/data-model.md'), 'utf8');
  const start = text.indexOf('| file | after a clean exit | after a kill |');
  const rows = text.slice(start).split('\n').slice(2);
  const out = new Map<string, Record<Exit, Verdict | 'absent'>>();
  const verdict = (cell: string): Verdict | 'absent' => (cell === 'kept' ? 'intact' : cell === 'reported' ? 'reported' : cell === '—' ? 'absent' : 'silent');
  for (const row of rows) {
    if (!row.startsWith('|')) break;
    const [file, clean, kill] = row.split('|').slice(1).map((c) => c.trim());
    out.set(file.replace(/`/g, ''), { clean: verdict(clean), kill: verdict(kill) });
  }
  return out;
}

async function verdictOf(setup: Awaited<ReturnType<typeof twoSessions>>, file: string, damage: Damage, expected: unknown): Promise<{ verdict: Verdict; warnings: string[] }> {
  const blobs = setup.blobs.clone();
  DAMAGES[damage](blobs, file);
  const h = await openHarness({}, { vault: copyVault(setup.h.vault), blobs, clock: setup.h.clock });
  try {
    const got = await learnedState(h.engine);
    if (JSON.stringify(got) === JSON.stringify(expected)) return { verdict: 'intact', warnings: h.engine.warnings };
    const named = h.engine.warnings.some((w) => w.includes(file));
    const audited = (await h.engine.services.governance.audit.recent({ action: 'store.damaged', limit: 100 })).some((e) => e.data.file === file);
    return { verdict: named && audited ? 'reported' : 'silent', warnings: h.engine.warnings };
  } finally {
    await h.engine.close();
  }
}

const DOCS = documented();

describe.each(['clean', 'kill'] as const)('after a %s exit', (exit) => {
  let setup: Awaited<ReturnType<typeof twoSessions>>;
  let expected: unknown;
  let files: string[];
  beforeAll(async () => {
    setup = await twoSessions(exit);
    const h = await openHarness({}, { vault: copyVault(setup.h.vault), blobs: setup.blobs.clone(), clock: setup.h.clock });
    expected = await learnedState(h.engine);
    await h.engine.close();
    files = await setup.blobs.list();
  });

  it('the docs have a row for every file there is, and a file for every row they say is there', () => {
    const present = new Set(files.map(label));
    expect([...present].filter((f) => !DOCS.has(f))).toEqual([]);
    expect([...DOCS].filter(([f, v]) => v[exit] !== 'absent' && !present.has(f)).map(([f]) => f)).toEqual([]);
  });

  it('every file × every damage: what the docs say it keeps, and never a silent loss', async () => {
    const got: string[] = [];
    const want: string[] = [];
    for (const file of files) {
      for (const damage of Object.keys(DAMAGES) as Damage[]) {
        const { verdict } = await verdictOf(setup, file, damage, expected);
        got.push(`${file} ${damage}: ${verdict}`);
        want.push(`${file} ${damage}: ${DOCS.get(label(file))?.[exit] ?? 'undocumented'}`);
      }
    }
    expect(got.filter((c) => c.endsWith('silent'))).toEqual([]);
    expect(got).toEqual(want);
  });
});
