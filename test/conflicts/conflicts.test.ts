import { note } from '../engine/harness';
import { AGENT, HUMAN, OTHER, openTools, type ToolHarness } from '../tools/fixture';
import { REFUTED_EDGE_FACTOR, REFUTED_PRIOR_DROP, REFUTED_SALIENCE_DROP } from '../../shared/conflicts/constants';
import { findBlocks } from '../../shared/conflicts/callout-blocks';
import { codeOf as errorCode } from '../twins/error-code';
import { FEEDBACK } from '../../shared/learning/constants';

const A_ID = '11111111-1111-4111-8111-111111111111';
const B_ID = '22222222-2222-4222-8222-222222222222';
const C_ID = '33333333-3333-4333-8333-333333333333';
const M_ID = '44444444-4444-4444-8444-444444444444';
const P_ID = '55555555-5555-4555-8555-555555555555';

const A_TEXT = note(
  { id: A_ID, title: 'Ingest pool sizing', entities: ['atlas-ingest'], tags: ['atlas'] },
  '# Ingest pool sizing\n\nThe ingest pool size is 20 per pod. Request coalescing is enabled.\n',
);
const B_TEXT = note(
  { id: B_ID, title: 'Ingest tuning notes', entities: ['atlas-ingest'] },
  '# Ingest tuning notes\n\nAfter the load test, the ingest pool size is 50 per pod.\n',
);
const FILES: Record<string, string> = {
  'project/atlas/Ingest pool sizing.md': A_TEXT,
  'project/atlas/Ingest tuning notes.md': B_TEXT,
  'project/atlas/Coalescing.md': note({ id: C_ID, title: 'Coalescing', entities: ['atlas-ingest'] }, 'Request coalescing is not enabled.\n'),
  'project/atlas/Pool merged.md': note({ id: M_ID, title: 'Pool merged' }, 'Both views, reconciled.\n'),
  'agent/agent-b/Private pool.md': note({ id: P_ID, title: 'Private pool', access_scope: 'agent_private', author: 'agent-b', entities: ['atlas-ingest'] }, 'The ingest pool size is 80.\n'),
};
const A = 'project/atlas/Ingest pool sizing.md';
const B = 'project/atlas/Ingest tuning notes.md';

async function withConflict(): Promise<{ h: ToolHarness; edge_id: string }> {
  const h = await openTools(FILES);
  const r = await h.call('lithos_conflict_open', { a: A_ID, b: B_ID, evidence: 'pool 20 vs 50' }, HUMAN);
  return { h, edge_id: r.conflict.edge_id };
}

describe('opening conflicts explicitly', () => {
  it('lithos_conflict_open and lithos_edge_create(type contradicts) give the same object: unreviewed, audited, with callouts', async () => {
    const h = await openTools(FILES);
    const viaOpen = await h.call('lithos_conflict_open', { a: A_ID, b: B_ID, evidence: 'pool 20 vs 50' }, AGENT);
    const viaEdge = await h.call('lithos_edge_create', { from: 'project/atlas/Coalescing.md', to: A, type: 'contradicts', evidence: 'coalescing on vs off' }, AGENT);
    for (const [c, summary] of [[viaOpen.conflict, 'pool 20 vs 50'], [viaEdge.conflict, 'coalescing on vs off']] as const) {
      expect(c).toMatchObject({ state: 'unreviewed', evidence: { summary }, provenance_type: 'agent', provenance_actor: 'agent-a' });
    }
    expect(viaEdge.edge).toMatchObject({ type: 'contradicts', conflict_state: 'unreviewed', evidence: { summary: 'coalescing on vs off' } });
    expect((await h.engine.services.governance.audit.recent({ action: 'conflict.create' })).map((e) => e.target)).toEqual([viaEdge.conflict.edge_id, viaOpen.conflict.edge_id]);
    // A has two conflict callouts (one per conflict), B and Coalescing one each.
    expect(findBlocks(h.vault.text(A)!).map((b) => b.key).sort()).toEqual([`conflict ${viaEdge.conflict.edge_id}`, `conflict ${viaOpen.conflict.edge_id}`].sort());
    expect(findBlocks(h.vault.text(B)!).map((b) => b.key)).toEqual([`conflict ${viaOpen.conflict.edge_id}`]);
    // the same pair again, either direction: the existing conflict, nothing new
    const again = await h.call('lithos_edge_create', { from: B_ID, to: A_ID, type: 'contradicts' }, AGENT);
    expect(again).toMatchObject({ created: false, conflict: { edge_id: viaOpen.conflict.edge_id } });
    await h.engine.close();
  });

  it('bad input: same note twice, a started state, a state change through lithos_edge_update, deleting it through lithos_edge_delete', async () => {
    const { h, edge_id } = await withConflict();
    expect(await errorCode(h.call('lithos_conflict_open', { a: A_ID, b: A }))).toBe('invalid_argument');
    expect(await errorCode(h.call('lithos_edge_create', { from: A_ID, to: 'project/atlas/Coalescing.md', type: 'contradicts', conflict_state: 'refuted' }))).toBe('invalid_argument');
    expect(await errorCode(h.call('lithos_edge_update', { edge_id, conflict_state: 'refuted' }))).toBe('invalid_argument');
    // Deleting it would leave callouts naming an edge id that nothing finds any more.
    expect(await errorCode(h.call('lithos_edge_delete', { edge_id }))).toBe('invalid_argument');
    expect(h.engine.services.conflicts.get(edge_id)).toBeTruthy();
    expect(await errorCode(h.call('lithos_conflict_resolve', { edge_id: 'nope', resolution: 'accepted_dual' }))).toBe('not_found');
    expect(await errorCode(h.call('lithos_conflict_resolve', { edge_id, resolution: 'refuted' }))).toBe('invalid_argument'); // no winner
    expect(await errorCode(h.call('lithos_conflict_resolve', { edge_id, resolution: 'refuted', winner_id: M_ID }))).toBe('invalid_argument'); // not an end
    expect(await errorCode(h.call('lithos_conflict_resolve', { edge_id, resolution: 'accepted_dual', winner_id: A_ID }))).toBe('invalid_argument');
    expect(await errorCode(h.call('lithos_conflict_resolve', { edge_id, resolution: 'accepted_dual', resolver: 'someone-else' }, AGENT))).toBe('invalid_argument');
    expect(h.engine.services.conflicts.get(edge_id)!.state).toBe('unreviewed');
    await h.engine.close();
  });
});

describe('rule detection', () => {
  it('a note written after open is compared with notes sharing an entity; the finding records both sentences, provenance rule', async () => {
    const h = await openTools(FILES);
    expect(h.engine.services.conflicts.list()).toEqual([]); // the initial reconcile detects nothing
    await h.call('lithos_write', { path: 'project/atlas/Pool update.md', title: 'Pool update', entities: ['atlas-ingest'], content: 'Measured again: the ingest pool size is 35 per pod.\n' });
    await h.engine.services.conflicts.drain();
    const found = h.engine.services.conflicts.list();
    const update = h.engine.services.notes.note('project/atlas/Pool update.md')!.nodeId;
    expect(found.map((c) => [c.a, c.b].includes(update))).toEqual(found.map(() => true));
    const withA = found.find((c) => c.b === A_ID)!;
    expect(withA).toMatchObject({
      state: 'unreviewed',
      provenance_type: 'rule',
      provenance_actor: 'rule:number',
      evidence: { rule: 'number', findings: [{ rule: 'number', subject: 'ingest pool size', a_sentence: 'Measured again: the ingest pool size is 35 per pod', b_sentence: 'The ingest pool size is 20 per pod' }] },
    });
    expect((await h.engine.services.governance.audit.recent({ action: 'conflict.create', target: withA.edge_id }))[0].actor).toEqual({ kind: 'rule', id: 'rule:number' });
    await h.engine.close();
  });

  it('negation and status words are found; an unrelated change finds nothing', async () => {
    const h = await openTools({ ...FILES, 'project/atlas/Legacy API.md': note({ title: 'Legacy API', entities: ['legacy-api'] }, 'The v1 endpoint is active.\n') });
    await h.call('lithos_write', { path: 'project/atlas/API status.md', title: 'API status', entities: ['legacy-api'], content: 'The v1 endpoint is deprecated.\n' });
    await h.call('lithos_write', { path: 'project/atlas/Unrelated.md', title: 'Unrelated', entities: ['atlas-ingest'], content: 'Deploys happen on Tuesdays. The dashboard is green.\n' });
    await h.engine.services.conflicts.drain();
    const rules = h.engine.services.conflicts.list().map((c) => c.evidence.rule);
    expect(rules).toEqual(['status']);
    // negation through a human edit picked up by the watcher
    h.engine.startWatching();
    h.vault.put('project/atlas/Coalescing.md', note({ id: C_ID, title: 'Coalescing', entities: ['atlas-ingest'] }, 'Request coalescing is not enabled in production.\n'));
    await h.engine.settle();
    await h.engine.services.conflicts.drain();
    expect(h.engine.services.conflicts.list().map((c) => c.evidence.rule).sort()).toEqual(['negation', 'status']);
    await h.engine.close();
  });

  it('a pair a person resolved is never re-opened by the rules', async () => {
    const { h, edge_id } = await withConflict();
    await h.call('lithos_conflict_resolve', { edge_id, resolution: 'accepted_dual' }, HUMAN);
    await h.engine.services.conflicts.detect(B_ID);
    await h.engine.services.conflicts.detect(A_ID);
    expect(h.engine.services.conflicts.list().filter((c) => [c.a, c.b].includes(A_ID) && [c.a, c.b].includes(B_ID))).toHaveLength(1);
    expect(h.engine.services.conflicts.get(edge_id)!.state).toBe('accepted_dual');
    await h.engine.close();
  });

  it('lithos conflicts scan: the whole vault, each pair once', async () => {
    const h = await openTools(FILES);
    const r = await h.engine.services.conflicts.scan();
    const pairs = r.opened.map((c) => [c.a, c.b].sort().join('|')).sort();
    expect(pairs).toEqual([[A_ID, B_ID].sort().join('|'), [A_ID, C_ID].sort().join('|'), [A_ID, P_ID].sort().join('|'), [B_ID, P_ID].sort().join('|')].sort());
    expect((await h.engine.services.conflicts.scan()).opened).toEqual([]);
    await h.engine.close();
  });
});

describe('resolution semantics', () => {
  it('superseded: the winner lists the loser in supersedes, the loser is archived and carries a status callout', async () => {
    const { h, edge_id } = await withConflict();
    const r = await h.call('lithos_conflict_resolve', { edge_id, resolution: 'superseded', winner_id: B }, HUMAN);
    expect(r.conflict).toMatchObject({ state: 'superseded', evidence: { summary: 'pool 20 vs 50', resolution: { resolution: 'superseded', resolver: 'human', winner_id: B_ID, loser_id: A_ID } } });
    expect(h.engine.services.notes.note(B)!.cached.meta.supersedes).toEqual([A_ID]);
    expect(h.engine.services.notes.note(A)!.cached.meta.status).toBe('archived');
    expect(findBlocks(h.vault.text(A)!).map((b) => b.key)).toEqual(['status']);
    expect(h.vault.text(A)).toContain('> [!lithos-status] Superseded by [[project/atlas/Ingest tuning notes|Ingest tuning notes]]');
    expect(findBlocks(h.vault.text(B)!)).toEqual([]);
    expect(h.vault.text(B)!.endsWith('After the load test, the ingest pool size is 50 per pod.\n')).toBe(true);
    const audit = (await h.engine.services.governance.audit.recent({ action: 'conflict.resolve' }))[0];
    expect(audit).toMatchObject({ actor: { kind: 'human' }, target: edge_id, data: { resolution: 'superseded', winner_id: B_ID, loser_id: A_ID } });
    expect((audit.data.changes as { what: string }[]).map((c) => c.what)).toEqual(['frontmatter.supersedes', 'frontmatter.status']);
    // the same resolution again: nothing changes; another one: refused
    expect(await h.call('lithos_conflict_resolve', { edge_id, resolution: 'superseded', winner_id: B_ID }, HUMAN)).toMatchObject({ unchanged: true, changes: [] });
    expect(await errorCode(h.call('lithos_conflict_resolve', { edge_id, resolution: 'refuted', winner_id: B_ID }, HUMAN))).toBe('conflict');
    await h.engine.close();
  });

  it('refuted: the loser loses salience, per-class prior and the weight of edges into it; the Markdown is untouched', async () => {
    const { h, edge_id } = await withConflict();
    await h.call('lithos_edge_create', { from: M_ID, to: B_ID, type: 'supports', weight: 0.8 }, HUMAN);
    const before = h.engine.services.learning.memory.stats.get(B_ID);
    const bText = h.vault.text(B)!;
    await h.call('lithos_conflict_resolve', { edge_id, resolution: 'refuted', winner_id: A_ID }, AGENT);
    const after = h.engine.services.learning.memory.stats.get(B_ID);
    expect(after.salience).toBeCloseTo(before.salience - REFUTED_SALIENCE_DROP, 10);
    expect(after.per_queryclass_priors.design).toBeCloseTo(-REFUTED_PRIOR_DROP, 10);
    expect(h.engine.services.learning.memory.edges.find({ from: M_ID, to: B_ID, type: 'supports' })[0].weight).toBeCloseTo(0.8 * REFUTED_EDGE_FACTOR, 10);
    expect(h.engine.services.learning.memory.stats.get(A_ID)).toEqual(h.engine.services.learning.memory.stats.get(A_ID)); // the winner keeps its stats
    expect(h.engine.services.learning.memory.stats.get(A_ID).salience).toBe(before.salience);
    expect(findBlocks(h.vault.text(B)!)).toEqual([]);
    expect(h.vault.text(B)).toBe(B_TEXT); // callout gone, every byte back
    expect(bText).not.toBe(B_TEXT);
    expect(h.engine.services.conflicts.get(edge_id)!.evidence.resolution).toMatchObject({ resolver: 'agent-a', winner_id: A_ID, loser_id: B_ID });
    await h.engine.close();
  });

  it('a winner that is neither note of the conflict is refused, naming both by title', async () => {
    const { h, edge_id } = await withConflict();
    await expect(h.call('lithos_conflict_resolve', { edge_id, resolution: 'superseded', winner_id: M_ID }, HUMAN)).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining(`winner_id ${M_ID} is neither note of this conflict; the winner is the note that stands, "Ingest pool sizing"`),
    });
    await h.engine.close();
  });

  it('a note refuted twice keeps its per-class priors at the −class_prior_cap floor, like every per-class adjustment', async () => {
    const h = await openTools(FILES);
    for (const other of [A_ID, C_ID]) {
      const c = (await h.call('lithos_conflict_open', { a: other, b: B_ID }, HUMAN)).conflict;
      await h.call('lithos_conflict_resolve', { edge_id: c.edge_id, resolution: 'refuted', winner_id: other }, HUMAN);
    }
    const priors = Object.values(h.engine.services.learning.memory.stats.get(B_ID).per_queryclass_priors);
    expect(priors.length).toBeGreaterThan(0);
    expect(priors.every((p) => p === -FEEDBACK.class_prior_cap)).toBe(true);
    await h.engine.close();
  });

  it('accepted_dual keeps both as they are and marks the conflict reviewed', async () => {
    const { h, edge_id } = await withConflict();
    const stats = [h.engine.services.learning.memory.stats.get(A_ID), h.engine.services.learning.memory.stats.get(B_ID)];
    const r = await h.call('lithos_conflict_resolve', { edge_id, resolution: 'accepted_dual' }, HUMAN);
    expect(r).toMatchObject({ conflict: { state: 'accepted_dual' }, changes: [] });
    expect([h.engine.services.learning.memory.stats.get(A_ID), h.engine.services.learning.memory.stats.get(B_ID)]).toEqual(stats);
    expect([h.vault.text(A), h.vault.text(B)]).toEqual([A_TEXT, B_TEXT]);
    // accepted_dual can still be settled later
    await h.call('lithos_conflict_resolve', { edge_id, resolution: 'superseded', winner_id: A_ID }, HUMAN);
    expect(h.engine.services.conflicts.get(edge_id)!.state).toBe('superseded');
    await h.engine.close();
  });

  it('merged: the merge note is derived_from both ends', async () => {
    const { h, edge_id } = await withConflict();
    await h.call('lithos_conflict_resolve', { edge_id, resolution: 'merged', winner_id: 'project/atlas/Pool merged.md' }, HUMAN);
    expect(h.engine.services.learning.memory.edges.find({ from: M_ID, type: 'derived_from' }).map((e) => e.to_id).sort()).toEqual([A_ID, B_ID].sort());
    expect(h.engine.services.conflicts.get(edge_id)).toMatchObject({ state: 'merged', evidence: { resolution: { winner_id: M_ID, loser_id: null } } });
    expect([h.vault.text(A), h.vault.text(B)]).toEqual([A_TEXT, B_TEXT]);
    await h.engine.close();
  });
});

describe('callouts through the engine', () => {
  it('written once, updated when the other note is renamed, removed on resolution; frontmatter bytes never touched', async () => {
    const { h, edge_id } = await withConflict();
    const text = h.vault.text(A)!;
    expect(text.startsWith(A_TEXT.slice(0, A_TEXT.indexOf('---\n', 4) + 4) + `%% lithos:begin conflict ${edge_id} %%\n> [!lithos-conflict] Contradicts [[project/atlas/Ingest tuning notes|Ingest tuning notes]]\n`)).toBe(true);
    expect(text).toContain(`lithos conflicts resolve <vault> ${edge_id} superseded|refuted|accepted_dual|merged --winner <note id>`);
    expect(await h.engine.services.conflicts.syncCallouts(A_ID)).toBe(false); // idempotent
    h.engine.startWatching();
    await h.vault.rename(B, 'project/atlas/Ingest tuning.md');
    await h.engine.settle();
    await h.engine.services.conflicts.syncCallouts(A_ID);
    expect(h.vault.text(A)).toContain('Contradicts [[project/atlas/Ingest tuning|Ingest tuning notes]]');
    await h.call('lithos_conflict_resolve', { edge_id, resolution: 'accepted_dual' }, HUMAN);
    expect(h.vault.text(A)).toBe(A_TEXT);
    const writes = (await h.engine.services.governance.audit.recent({ action: 'note.write', limit: 100 })).filter((e) => e.data.managed === 'callouts');
    expect(writes.every((e) => e.actor.kind === 'rule' && e.actor.id === 'callouts')).toBe(true);
    await h.engine.close();
  });

  it('a quarantined note carries the status callout; switching callouts off removes every managed block', async () => {
    const { h } = await withConflict();
    const M = 'project/atlas/Pool merged.md';
    await h.engine.services.notes.updateFrontmatter(M, (fm) => {
      fm.status = 'quarantined'; // as the learning layer does after three misleading marks
    });
    await h.engine.services.conflicts.drain();
    expect(h.vault.text(M)).toContain('> [!lithos-status] Quarantined');
    const before = { A: h.vault.text(A), B: h.vault.text(B) };
    expect(findBlocks(before.A!)).toHaveLength(1);
    expect(await h.engine.services.conflicts.setCallouts(false)).toBe(3);
    expect([h.vault.text(A), h.vault.text(B)]).toEqual([A_TEXT, B_TEXT]);
    expect(findBlocks(h.vault.text(M)!)).toEqual([]);
    expect(await h.engine.services.conflicts.setCallouts(true)).toBe(3);
    expect([h.vault.text(A), h.vault.text(B)]).toEqual([before.A, before.B]);
    await h.engine.close();
  });

  it('a callout never names a note with narrower access, nor the agent that opened the conflict with it', async () => {
    const h = await openTools(FILES);
    await h.call('lithos_conflict_open', { a: A_ID, b: P_ID }, OTHER); // agent-b, who may see its private note
    expect(h.vault.text(A)).toContain('Contradicts a note with narrower access (see `lithos conflicts`)');
    expect(h.vault.text(A)).toContain('opened by an agent');
    expect(h.vault.text(A)).not.toContain('Private pool');
    expect(h.vault.text(A)).not.toContain('agent-b');
    await h.engine.close();
  });
});

describe('the gate', () => {
  it('a conflict with an end the caller cannot see is not listed, not resolvable, not opened against', async () => {
    const h = await openTools(FILES);
    const hidden = await h.call('lithos_conflict_open', { a: A_ID, b: P_ID }, HUMAN);
    const shown = await h.call('lithos_conflict_open', { a: A_ID, b: B_ID }, HUMAN);
    const list = async (caller: typeof AGENT) => (await h.call('lithos_conflict_list', {}, caller)).conflicts.map((c: { edge_id: string }) => c.edge_id);
    expect(await list(AGENT)).toEqual([shown.conflict.edge_id]);
    const both = [hidden.conflict.edge_id, shown.conflict.edge_id].sort();
    expect((await list(OTHER)).sort()).toEqual(both);
    expect((await list(HUMAN)).sort()).toEqual(both);
    expect((await h.call('lithos_conflict_list', { node: A_ID, state: 'unreviewed' }, AGENT)).total).toBe(1);
    expect(await errorCode(h.call('lithos_conflict_resolve', { edge_id: hidden.conflict.edge_id, resolution: 'accepted_dual' }, AGENT))).toBe('not_found');
    expect(await errorCode(h.call('lithos_conflict_open', { a: A_ID, b: P_ID }, AGENT))).toBe('not_found');
    await h.engine.close();
  });
});

describe('when an end goes away', () => {
  it('deleting one note of an open conflict takes the callout out of the other; restoring it brings the callout back', async () => {
    const { h } = await withConflict();
    h.engine.startWatching(); // the person's restore below arrives as a vault event, as in Obsidian
    expect(findBlocks(h.vault.text(A)!)).toHaveLength(1);
    const bText = h.vault.text(B)!;
    await h.call('lithos_delete', { id: B_ID }, HUMAN);
    await h.engine.settle();
    await h.engine.services.conflicts.drain();
    expect(h.vault.text(A)).toBe(A_TEXT); // callouts only: no rule detection ran on A, which did not change
    h.vault.put(B, bText); // the person restores it from the trash
    await h.engine.settle();
    await h.engine.services.conflicts.drain();
    expect(findBlocks(h.vault.text(A)!)).toHaveLength(1);
    await h.engine.close();
  });
});

describe('who may resolve how', () => {
  const THEIRS = 'agent/agent-b/Pool finding.md';
  const T_ID = '66666666-6666-4666-8666-666666666666';
  const files = { ...FILES, [THEIRS]: note({ id: T_ID, title: 'Pool finding', access_scope: 'shared', author: 'agent-b', entities: ['atlas-ingest'] }, 'The ingest pool size is 35.\n') };

  it("an agent may not supersede a note it may not write (another agent's namespace): forbidden, both notes unchanged; refuting stays open to it", async () => {
    const h = await openTools(files);
    const c = (await h.call('lithos_conflict_open', { a: A_ID, b: T_ID }, HUMAN)).conflict;
    const before = h.snapshot();
    const err = await errorCode(h.call('lithos_conflict_resolve', { edge_id: c.edge_id, resolution: 'superseded', winner_id: A_ID }, AGENT));
    expect(err).toBe('forbidden');
    expect(h.snapshot()).toEqual(before);
    expect((await h.call('lithos_conflict_resolve', { edge_id: c.edge_id, resolution: 'refuted', winner_id: A_ID }, AGENT)).conflict.state).toBe('refuted');
    await h.engine.close();
  });

  it('an agent may not supersede a quarantined note (archiving it would lift the quarantine)', async () => {
    const { h, edge_id } = await withConflict();
    await h.engine.services.notes.updateFrontmatter(B, (fm) => void (fm.status = 'quarantined'));
    await expect(h.call('lithos_conflict_resolve', { edge_id, resolution: 'superseded', winner_id: A_ID }, AGENT)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('quarantined') });
    expect(h.engine.services.notes.note(B_ID)!.cached.meta.status).toBe('quarantined');
    await h.engine.close();
  });

  it('in a namespace where a person confirms agent changes, an agent may not supersede; the person may', async () => {
    const { h, edge_id } = await withConflict();
    await h.engine.services.governance.policy.set({ ...h.engine.services.governance.policy.get(), propose_namespaces: ['project/atlas'] });
    await expect(h.call('lithos_conflict_resolve', { edge_id, resolution: 'superseded', winner_id: A_ID }, AGENT)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('confirmed by a person') });
    expect(h.vault.text(B)).not.toMatch(/status: archived/);
    expect((await h.call('lithos_conflict_resolve', { edge_id, resolution: 'superseded', winner_id: A_ID }, HUMAN)).conflict.state).toBe('superseded');
    expect(h.vault.text(B)).toMatch(/status: archived/);
    await h.engine.close();
  });
});
