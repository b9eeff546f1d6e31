import { note } from '../engine/harness';
import { AGENT, HUMAN, openTools, type ToolHarness } from '../tools/fixture';
import { parseNote } from '../../shared/model/note';

/**
 * lithos_write and the ledger (docs/ledger.md → Targets and intents): a decision on a target that has an active
 * decision the writer sees is a `conflict` naming it; an intent (or `supersedes`) replaces notes in one change
 * with the new note, audited; a decision the writer may not see is never named, and becomes a conflict for the person.
 */

const PRIVATE_ID = '7d3e4f5a-6b7c-4d8e-9f01-23456789abcd';
const POOL_OLD = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const BROKEN = 'project/atlas/Broken.md';

const FILES: Record<string, string> = {
  'project/atlas/Pool size.md': note({ id: POOL_OLD, title: 'Pool size', entities: ['atlas-ingest'] }, 'The ingest pool size is 20 per pod.\n'),
  [BROKEN]: '---\ntitle: [unclosed\n---\nA note whose frontmatter is not valid YAML.\n',
  'people/Private session store.md': note(
    { id: PRIVATE_ID, title: 'Private session store', note_type: 'decision', target: 'Session Store', access_scope: 'user_private', author: 'human' },
    'Keep sessions in Redis (qxprivatezz).\n',
  ),
};

let h: ToolHarness;
beforeEach(async () => {
  h = await openTools(FILES);
});
afterEach(async () => {
  await h.engine.close();
});

const fm = (path: string) => parseNote(path, new TextEncoder().encode(h.vault.text(path))).frontmatter;

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string; data: Record<string, any> }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- error data is JSON
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string; data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- error data is JSON
  }
  throw new Error('expected the call to fail');
}

const decision = (title: string, target: string, extra: Record<string, unknown> = {}) => ({
  title,
  namespace: 'project/atlas',
  note_type: 'decision',
  target,
  content: `${title}.\n`,
  ...extra,
});

describe('a second active decision on a target', () => {
  test('fails with conflict naming the first (id, title, path) and how to proceed; nothing is written', async () => {
    const first = await h.call('lithos_write', decision('Use JWT', 'Auth Service'));
    const before = h.snapshot();
    const e = await failure(h.call('lithos_write', decision('Use opaque tokens', 'auth_services')));
    expect(e.code).toBe('conflict');
    expect(e.message).toContain(first.ledger_id); // the engine gave the decision its ID (D…)
    expect(e.message).toContain('"Use JWT" (project/atlas/Use JWT.md)');
    expect(e.message).toContain('intent: {type: "supersede"');
    expect(e.data).toEqual({ target: 'auth-service', active: [{ ref: first.ledger_id, id: first.id, ledger_id: first.ledger_id, title: 'Use JWT', path: 'project/atlas/Use JWT.md' }] });
    expect(h.snapshot()).toEqual(before);
  });

  test('a ledger ID in the frontmatter names the decision', async () => {
    await h.call('lithos_write', decision('Use JWT', 'Auth Service'));
    await h.engine.services.notes.updateFrontmatter('project/atlas/Use JWT.md', (f) => {
      f.ledger_id = 'D001';
    });
    const e = await failure(h.call('lithos_write', decision('Use opaque tokens', 'auth-service')));
    expect(e.message).toContain('D001 "Use JWT"');
    const r = await h.call('lithos_write', decision('Use opaque tokens', 'auth-service', { intent: { type: 'supersede', replaces: ['D001'] } }));
    expect(fm('project/atlas/Use JWT.md')).toMatchObject({ state: 'superseded', superseded_by: r.ledger_id });
    expect(fm('project/atlas/Use opaque tokens.md').intent).toEqual({ type: 'supersede', replaces: ['D001'] });
  });

  test('editing the active decision itself, or a decision on another target, is not a conflict', async () => {
    const first = await h.call('lithos_write', decision('Use JWT', 'Auth Service'));
    await h.call('lithos_write', { id: first.id, content: 'Use JWT, signed with RS256.\n', expected_version: first.version });
    await h.call('lithos_write', decision('Use Postgres', 'database'));
    expect(h.engine.services.notes.notes().filter((n) => n.cached.meta.note_type === 'decision')).toHaveLength(3);
  });
});

describe('intents', () => {
  test('supersede: the old decision becomes superseded (state, status, superseded_by, callout) with the new note, audited', async () => {
    const first = await h.call('lithos_write', decision('Use JWT', 'Auth Service'));
    const second = await h.call('lithos_write', decision('Use opaque tokens', 'auth-service', { intent: { type: 'supersede', replaces: [first.id] } }));
    const old = fm('project/atlas/Use JWT.md');
    expect(old).toMatchObject({ state: 'superseded', status: 'superseded', superseded_by: second.ledger_id, target: 'Auth Service' });
    expect(h.vault.text('project/atlas/Use JWT.md')).toContain('> [!lithos-status] Superseded by [[project/atlas/Use opaque tokens|Use opaque tokens]]');
    expect(fm('project/atlas/Use opaque tokens.md')).toMatchObject({ supersedes: [first.id], intent: { type: 'supersede', replaces: [first.ledger_id] } });
    const [entry] = await h.engine.services.governance.audit.recent({ action: 'ledger.intent' });
    expect(entry).toMatchObject({
      actor: { kind: 'agent', id: 'agent-a' },
      target: second.id,
      data: { intent: 'supersede', target: 'auth-service', replaced: [{ id: first.id, path: 'project/atlas/Use JWT.md', intent: 'supersede', state: 'superseded', status: 'superseded' }] },
    });
    // No contradiction is opened between a note and the one it replaces.
    await h.engine.services.conflicts.drain();
    expect(h.engine.services.conflicts.between(first.id, second.id)).toBeNull();
    // The target's history shows both, in order, with their states and the intent.
    const history = await h.call('lithos_targets', { history: 'AuthService' });
    expect(history.decisions.map((d: { title: string; state: string; intent: unknown }) => [d.title, d.state, d.intent])).toEqual([
      ['Use JWT', 'superseded', null],
      ['Use opaque tokens', 'active', { type: 'supersede', replaces: [first.ledger_id] }],
    ]);
  });

  test('deprecate and abort set their own states; the note is archived', async () => {
    const a = await h.call('lithos_write', decision('Use JWT', 'auth-service'));
    await h.call('lithos_write', decision('Drop tokens', 'auth-service', { intent: { type: 'deprecate', replaces: [a.id] } }));
    expect(fm('project/atlas/Use JWT.md')).toMatchObject({ state: 'deprecated', status: 'archived' });
    expect(h.vault.text('project/atlas/Use JWT.md')).toContain('[!lithos-status] Deprecated by');
  });

  test('an intent must name active decisions the writer sees; a replaced one cannot be replaced again', async () => {
    const a = await h.call('lithos_write', decision('Use JWT', 'auth-service'));
    expect((await failure(h.call('lithos_write', decision('X', 'auth-service', { intent: { type: 'abort', replaces: ['D999'] } })))).code).toBe('not_found');
    expect((await failure(h.call('lithos_write', decision('X', 'auth-service', { intent: { type: 'abort', replaces: [PRIVATE_ID] } })))).code).toBe('not_found');
    expect((await failure(h.call('lithos_write', { title: 'Obs', content: 'x', intent: { type: 'abort', replaces: [a.id] } }))).code).toBe('invalid_argument');
    await h.call('lithos_write', decision('Use opaque tokens', 'auth-service', { intent: { type: 'supersede', replaces: [a.id] } }));
    const again = await failure(h.call('lithos_write', decision('Third', 'auth-service', { intent: { type: 'supersede', replaces: [a.id] } })));
    expect(again.code).toBe('conflict');
    expect(again.message).toContain('already superseded');
  });
});

describe('supersedes on any write', () => {
  test('must name notes the writer sees: else not_found, nothing written', async () => {
    const before = h.snapshot();
    for (const ref of ['No such note', PRIVATE_ID, 'people/Private session store.md']) {
      const e = await failure(h.call('lithos_write', { title: 'Newer', content: 'x', supersedes: [ref] }));
      expect(e.code).toBe('not_found');
      expect(JSON.stringify(e)).not.toContain('qxprivatezz');
    }
    expect(h.snapshot()).toEqual(before);
  });

  test('a superseded note gets status superseded and a callout; no conflict is opened between the two', async () => {
    const r = await h.call('lithos_write', { path: 'project/atlas/Pool size v2.md', title: 'Pool size v2', entities: ['atlas-ingest'], content: 'The ingest pool size is 35 per pod.\n', supersedes: ['Pool size'] });
    expect(fm('project/atlas/Pool size.md')).toMatchObject({ status: 'superseded', superseded_by: r.id });
    expect(fm('project/atlas/Pool size.md')).not.toHaveProperty('state');
    expect(h.vault.text('project/atlas/Pool size.md')).toContain('> [!lithos-status] Superseded by [[project/atlas/Pool size v2|Pool size v2]]');
    expect(fm('project/atlas/Pool size v2.md').supersedes).toEqual([POOL_OLD]);
    await h.engine.services.conflicts.drain();
    expect(h.engine.services.conflicts.list()).toEqual([]);
    // Listing treats it like archived: still listed when asked for by status, out of the active set.
    const listed = await h.call('lithos_list', { status: 'superseded' });
    expect(listed.notes.map((n: { path: string }) => n.path)).toEqual(['project/atlas/Pool size.md']);
  });

  test('if any part fails, nothing changes: a created note is removed, an updated one put back byte for byte', async () => {
    const before = h.snapshot();
    const e = await failure(h.call('lithos_write', { title: 'Replaces broken', content: 'x', supersedes: [BROKEN] }));
    expect(e.code).toBe('invalid_argument');
    expect(h.snapshot()).toEqual(before);
    const existing = await h.call('lithos_write', { title: 'Existing', content: 'Kept as it is.\n' });
    const kept = h.snapshot();
    await failure(h.call('lithos_write', { id: existing.id, content: 'Changed.\n', supersedes: ['Pool size', BROKEN], expected_version: existing.version }));
    expect(h.snapshot()).toEqual(kept);
  });
});

test('where a person confirms agent changes, a write that would replace notes is refused, not kept as a proposal that would lose it', async () => {
  await h.engine.services.governance.policy.set({ propose_namespaces: ['project/atlas'] });
  const before = h.snapshot();
  const e = await failure(h.call('lithos_write', { path: 'project/atlas/Pool size v2.md', title: 'Pool size v2', content: 'x\n', supersedes: ['Pool size'] }));
  expect(e).toMatchObject({ code: 'forbidden' });
  expect(e.message).toContain('a proposal cannot replace other notes');
  expect(h.snapshot()).toEqual(before);
  // The person's own write is never a proposal.
  await h.call('lithos_write', { path: 'project/atlas/Pool size v2.md', title: 'Pool size v2', content: 'x\n', supersedes: ['Pool size'] }, HUMAN);
  expect(fm('project/atlas/Pool size.md')).toMatchObject({ status: 'superseded' });
});

describe('scope: a decision the writer may not see is never named', () => {
  test('the only active decision on the target is private: the write succeeds, and a conflict is opened for the person only', async () => {
    const r = await h.call('lithos_write', decision('Sessions in Postgres', 'session stores'));
    expect(JSON.stringify(r)).not.toContain(PRIVATE_ID);
    const conflicts = h.engine.services.conflicts.list();
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({ a: r.id, b: PRIVATE_ID, state: 'unreviewed', provenance_actor: 'rule:target', evidence: { rule: 'target' } });
    expect((await h.call('lithos_conflict_list', {})).conflicts).toEqual([]);
    // The agent's note carries no callout about it; the person's does, naming the agent's note.
    expect(h.vault.text('project/atlas/Sessions in Postgres.md')).not.toContain('lithos-conflict');
    expect(h.vault.text('people/Private session store.md')).toContain('[!lithos-conflict] Contradicts [[project/atlas/Sessions in Postgres|Sessions in Postgres]]');
    // Targets: the agent sees only its own decision's target; the person sees both decisions on it.
    const mine = await h.call('lithos_targets', {});
    expect(mine.targets).toEqual([{ target: 'session-store', spellings: ['session stores'], aliases: [], decisions: 1, active: 1 }]);
    expect(JSON.stringify(await h.call('lithos_targets', { history: 'session-store' }))).not.toContain('qxprivate');
    const person = await h.call('lithos_targets', {}, HUMAN);
    expect(person.targets[0]).toMatchObject({ target: 'session-store', decisions: 2, active: 2 });
  });

  test('a target known only from private decisions is neither listed nor suggested to an agent', async () => {
    expect(await h.call('lithos_targets', {}, AGENT)).toEqual({ targets: [], total: 0, next_cursor: null });
    expect((await h.call('lithos_targets', { suggest: 'sessionstore' })).suggestions).toEqual([]);
    expect((await failure(h.call('lithos_targets', { history: 'Session Store' }))).code).toBe('not_found');
    expect((await h.call('lithos_targets', { suggest: 'sessionstore' }, HUMAN)).suggestions[0]).toMatchObject({ target: 'session-store', active: 1 });
  });

  test("a person's duplicate written in Obsidian is never blocked: it becomes an open conflict", async () => {
    const r = await h.call('lithos_write', decision('Use JWT', 'auth-service'));
    h.engine.startWatching();
    h.vault.put('project/atlas/Mine.md', note({ title: 'Mine', note_type: 'decision', target: 'Auth Service', author: 'human' }, 'Use sessions.\n'));
    await h.engine.settle();
    await h.engine.services.conflicts.drain();
    const mine = h.engine.services.notes.note('project/atlas/Mine.md')!;
    expect(h.engine.services.conflicts.between(mine.nodeId, r.id)).toMatchObject({ state: 'unreviewed', evidence: { rule: 'target' } });
  });
});

test("the person settles two decisions on one target through the conflicts flow: the loser leaves the target", async () => {
  const r = await h.call('lithos_write', decision('Use JWT', 'auth-service'));
  h.engine.startWatching();
  h.vault.put('project/atlas/Mine.md', note({ title: 'Mine', note_type: 'decision', target: 'Auth Service', author: 'human', created_at: '2999-01-01T00:00:00Z' }, 'Use sessions.\n'));
  await h.engine.settle();
  await h.engine.services.conflicts.drain();
  const mine = h.engine.services.notes.note('project/atlas/Mine.md')!;
  const c = h.engine.services.conflicts.between(mine.nodeId, r.id)!;
  await h.call('lithos_conflict_resolve', { edge_id: c.edge_id, resolution: 'superseded', winner_id: mine.nodeId }, HUMAN);
  expect(fm('project/atlas/Use JWT.md')).toMatchObject({ status: 'archived', state: 'superseded', superseded_by: mine.nodeId });
  const history = await h.call('lithos_targets', { history: 'auth-service' }, HUMAN);
  expect(history.decisions.map((d: { title: string; state: string }) => [d.title, d.state])).toEqual([
    ['Use JWT', 'superseded'],
    ['Mine', 'active'],
  ]);
  // The target is free for the winner's successor only through an intent again.
  expect((await failure(h.call('lithos_write', decision('Third', 'auth-service')))).data.active[0].id).toBe(mine.nodeId);
});
