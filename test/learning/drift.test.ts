import { note } from '../engine/harness';
import { AGENT, HUMAN, OTHER, openTools, type ToolHarness } from '../tools/fixture';
import { DAY_MS } from '../../shared/learning/constants';
import { driftAlerts, type DriftAlert, type DriftEntry, type DriftNote } from '../../shared/learning/drift';

/**
 * Drift triage (docs/ledger.md, "Drift triage"): stale ledger entries past Engram's thresholds, ranked by
 * urgency, with their age on the engine's clock, the threshold crossed and what to do; thresholds from
 * learning.json; only about notes the caller may see.
 */
const T0 = Date.UTC(2026, 0, 1); // the FakeClock's start
const iso = (days: number): string => new Date(T0 + days * DAY_MS).toISOString();

const FILES: Record<string, string> = {
  'lab/Backtest.md': note({ title: 'Backtest' }, 'The backtest of the pool sizes.\n'),
  'lab/Pool claim.md': note({ title: 'Pool claim', note_type: 'claim', state: 'contested', evidence: ['[[Backtest]]'], updated_at: iso(20), access_scope: 'shared' }, 'Pool 40 is enough.\n'),
  'lab/Cache claim.md': note({ title: 'Cache claim', note_type: 'claim', state: 'unverified', evidence: ['[[Backtest]]'], updated_at: iso(0), access_scope: 'shared' }, 'The cache halves latency.\n'),
  'lab/Fresh claim.md': note({ title: 'Fresh claim', note_type: 'claim', state: 'unverified', evidence: ['[[Backtest]]'], updated_at: iso(35), access_scope: 'shared' }, 'Fresh.\n'),
  'lab/Use pool 40.md': note({ title: 'Use pool 40', note_type: 'decision', target: 'pool', rationale: 'Backtest.', updated_at: iso(0), access_scope: 'shared' }, 'Cites E999, which never existed; see [[Backtest]].\n'),
  'lab/Lone workflow.md': note({ title: 'Lone workflow', note_type: 'workflow', context: 'deploys', trigger: 'a release', updated_at: iso(0), access_scope: 'shared' }, 'Steps.\n'),
  'agent/agent-b/Private claim.md': note({ title: 'Private claim', note_type: 'claim', state: 'contested', evidence: ['[[Backtest]]'], author: 'agent-b', access_scope: 'agent_private', updated_at: iso(0) }, 'B only.\n'),
};

let h: ToolHarness;
beforeEach(async () => {
  h = await openTools(FILES);
});
afterEach(async () => {
  await h.engine.close();
});

const drift = async (caller = HUMAN, args: Record<string, unknown> = {}): Promise<DriftAlert[]> => (await h.call('lithos_drift', args, caller)).alerts;
const brief = (alerts: DriftAlert[]): string[] => alerts.map((a) => `${a.kind} ${a.note.title} ${a.age_days}d > ${a.threshold.key}=${a.threshold.days}`);

describe('the thresholds, on the engine clock', () => {
  test('a 20-day-old contested claim and a 40-day-old unverified claim are listed with their thresholds, contested first', async () => {
    h.clock.advance(30 * DAY_MS); // contested 10 days, unverified 30 days: none crossed yet
    expect(brief(await drift(AGENT, { kinds: ['contested_claim', 'unverified_claim'] }))).toEqual([]);
    h.clock.advance(10 * DAY_MS);
    const alerts = await drift(AGENT, { kinds: ['contested_claim', 'unverified_claim'] });
    expect(brief(alerts)).toEqual(['contested_claim Pool claim 20d > drift.contested_days=14', 'unverified_claim Cache claim 40d > drift.unverified_days=30']);
    expect(alerts[0]).toMatchObject({ note: { path: 'lab/Pool claim.md', title: 'Pool claim', ledger_id: expect.stringMatching(/^E\d{3}-/) }, since: iso(20), todo: expect.stringContaining('believed or refuted') });
    expect(alerts[0].urgency).toBeGreaterThan(alerts[1].urgency);
  });

  test("learning.json's drift group moves a threshold; a bad value is refused and changes nothing", async () => {
    h.clock.advance(40 * DAY_MS);
    await h.engine.services.learning.tunables.set({ drift: { contested_days: 21 } });
    expect(brief(await drift(HUMAN, { kinds: ['contested_claim'] }))).toEqual(['contested_claim Private claim 40d > drift.contested_days=21']);
    await expect(h.engine.services.learning.tunables.set({ drift: { contested_days: -1 } })).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(h.engine.services.learning.tunables.get().drift.contested_days).toBe(21);
  });
});

describe('every kind of alert', () => {
  test('an orphaned entry, an unreviewed conflict, a reference to no entry and a dormant canonical decision', async () => {
    const decision = h.engine.services.notes.noteAtPath('lab/Use pool 40.md')!;
    await h.engine.services.learning.memory.phases.set({ node_id: decision.nodeId, phase: 'canonical', phase_since: T0, vitality: 'active', vitality_since: T0, first_used_at: T0, evaluated_at: T0 });
    const pool = h.engine.services.notes.noteAtPath('lab/Pool claim.md')!;
    const cache = h.engine.services.notes.noteAtPath('lab/Cache claim.md')!;
    await h.engine.services.conflicts.open({ a: pool.nodeId, b: cache.nodeId, actor: { kind: 'human', id: null } });
    h.clock.advance(45 * DAY_MS);
    const alerts = await drift(HUMAN);
    const of = (kind: string): DriftAlert | undefined => alerts.find((a) => a.kind === kind);
    expect(of('unresolved_ref')).toMatchObject({ note: { title: 'Use pool 40' }, ref: 'E999', threshold: { key: 'none', days: 0 } });
    expect(of('unreviewed_conflict')).toMatchObject({ note: { title: 'Pool claim' }, other: { title: 'Cache claim' }, age_days: 45, threshold: { key: 'drift.conflict_days', days: 14 } });
    expect(of('dormant_canonical')).toMatchObject({ note: { title: 'Use pool 40' }, age_days: 45, threshold: { key: 'vitality.dormant_days', days: 30 } });
    expect(alerts.filter((a) => a.kind === 'orphaned_entry').map((a) => a.note.path)).toEqual(['lab/Lone workflow.md']);
    // Ranked: urgency never rises down the list.
    for (let i = 1; i < alerts.length; i++) expect(alerts[i].urgency).toBeLessThanOrEqual(alerts[i - 1].urgency);
  });
});

describe('scope: only what the caller may see', () => {
  test("agent-b's private contested claim is listed to agent-b and the person, never to agent-a; nor a conflict with it", async () => {
    const secret = h.engine.services.notes.noteAtPath('agent/agent-b/Private claim.md')!;
    const pool = h.engine.services.notes.noteAtPath('lab/Pool claim.md')!;
    await h.engine.services.conflicts.open({ a: pool.nodeId, b: secret.nodeId, actor: { kind: 'human', id: null } });
    h.clock.advance(40 * DAY_MS);
    const titles = async (caller: typeof HUMAN): Promise<string[]> => (await drift(caller, { limit: 100 })).flatMap((a) => [a.note.title, a.other?.title ?? '']).filter((t) => t !== '');
    expect(await titles(AGENT)).not.toContain('Private claim');
    expect(await titles(OTHER)).toContain('Private claim');
    expect(await titles(HUMAN)).toContain('Private claim');
    expect((await drift(AGENT)).some((a) => a.kind === 'unreviewed_conflict')).toBe(false);
  });

  test('paged: limit and cursor walk the whole list once', async () => {
    h.clock.advance(60 * DAY_MS);
    const all = await drift(HUMAN, { limit: 100 });
    expect(all.length).toBeGreaterThan(2);
    const first = await h.call('lithos_drift', { limit: 2 }, HUMAN);
    const rest = await h.call('lithos_drift', { limit: 100, cursor: first.next_cursor }, HUMAN);
    expect([...first.alerts, ...rest.alerts]).toEqual(all);
    expect(first.total).toBe(all.length);
  });
});

describe('the ranking (learning/drift.ts, pure)', () => {
  const t = { orphan_days: 30, contested_days: 14, unverified_days: 30, conflict_days: 14 };
  const n = (title: string): DriftNote => ({ id: title, path: `${title}.md`, title, ledger_id: null });
  const claim = (title: string, state: string, days: number, over: Partial<DriftEntry> = {}): DriftEntry => ({ note: n(title), kind: 'claim', state, retired: false, written_at: T0 - days * DAY_MS, last_active: T0, links: 1, phase: 'pattern', vitality: 'active', ...over });

  test('over the threshold, not at it; a retired entry never drifts', () => {
    const entries = [claim('at', 'contested', 14), claim('over', 'contested', 14.001), claim('gone', 'contested', 99, { retired: true })];
    expect(driftAlerts({ entries, conflicts: [], refs: [] }, t, T0).map((a) => a.note.title)).toEqual(['over']);
  });

  test('urgency is weight x overdue, capped at 4x: a year-old unverified claim does not outrank a fresh contest past 2x', () => {
    const alerts = driftAlerts({ entries: [claim('old unverified', 'unverified', 365), claim('contest', 'contested', 28)], conflicts: [], refs: [] }, t, T0);
    expect(alerts.map((a) => [a.note.title, a.urgency])).toEqual([
      ['contest', 6],
      ['old unverified', 4],
    ]);
  });
});
