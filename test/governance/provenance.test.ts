import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller } from '../../shared/tools/types';
import { failure } from '../twins/error-code';
import { note, openHarness, type Harness } from '../engine/harness';

/** Provenance on notes (author immutable, contributors append-only) and the audit entries of edge changes. */

const ALICE: ToolCaller = { kind: 'agent', agent_id: 'alice' };
const BOB: ToolCaller = { kind: 'agent', agent_id: 'bob' };
const HUMAN: ToolCaller = { kind: 'human', agent_id: null };

let h: Harness;
let call: (name: string, args: unknown, caller: ToolCaller) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
beforeEach(async () => {
  h = await openHarness({
    'notes/Odd.md': note({ title: 'Odd', author: 'carol', contributors: ['carol', { team: 'infra' }, 7] }, 'Odd contributors.\n'),
    'notes/Scalar.md': note({ title: 'Scalar', author: 'dan', contributors: 'dan' }, 'A scalar contributor.\n'),
  });
  await h.engine.reconcile();
  // Odd and Scalar are the person's notes (authors no agent): agents change them at once here, not by proposal.
  await h.engine.services.governance.policy.set({ person_notes: 'allow' });
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine }));
  call = (name, args, caller) => tools.call(name, args, caller);
});
afterEach(async () => {
  await h.engine.close();
});

const fm = async (path: string) => (await call('lithos_read', { path }, HUMAN)).frontmatter;
/** An agent's update: it names the version it read (the trust boundary). */
const update = async (path: string, content: string, caller: ToolCaller) => call('lithos_write', { path, content, expected_version: (await call('lithos_read', { path }, caller)).version }, caller);

describe('author is immutable, contributors append-only', () => {
  test('later writers join contributors once each, in order; the author stays the creator', async () => {
    const { path } = await call('lithos_write', { title: 'Shared fact', namespace: 'notes', content: 'v1\n' }, ALICE);
    await update(path, 'v2\n', BOB);
    await update(path, 'v3\n', ALICE);
    await call('lithos_write', { path, content: 'v4\n' }, HUMAN);
    expect(await fm(path)).toMatchObject({ author: 'alice', contributors: ['alice', 'bob', 'human'] });
  });

  test('entries a person wrote that are not plain names are kept, never filtered out', async () => {
    await update('notes/Odd.md', 'Edited.\n', BOB);
    expect(await fm('notes/Odd.md')).toMatchObject({ author: 'carol', contributors: ['carol', { team: 'infra' }, 7, 'bob'] });
  });

  test('a single contributor written as text becomes a list that still holds it', async () => {
    await update('notes/Scalar.md', 'Edited.\n', ALICE);
    expect(await fm('notes/Scalar.md')).toMatchObject({ author: 'dan', contributors: ['dan', 'alice'] });
  });

  test('the write path refuses author and contributors as fields, whoever asks', async () => {
    for (const field of ['author', 'contributors', 'id', 'created_at']) {
      const err = await failure(h.engine.services.notes.writeNote({ path: 'notes/Odd.md', mode: 'update', fields: { [field]: 'mallory' }, actor: 'mallory' }));
      expect(err).toMatchObject({ code: 'invalid_argument', data: { field } });
    }
    expect(await fm('notes/Odd.md')).toMatchObject({ author: 'carol', contributors: ['carol', { team: 'infra' }, 7] });
  });

  test('the tool schema has no author field to begin with', async () => {
    expect((await failure(call('lithos_write', { path: 'notes/Odd.md', author: 'bob' }, BOB))).code).toBe('invalid_argument');
  });
});

describe('edge changes are audited with the caller as actor', () => {
  test('create, update and delete append edge.upsert, edge.upsert, edge.delete', async () => {
    const odd = h.engine.services.notes.note('notes/Odd.md')!.nodeId;
    const scalar = h.engine.services.notes.note('notes/Scalar.md')!.nodeId;
    const made = await call('lithos_edge_create', { from: odd, to: scalar, type: 'supports', weight: 0.4 }, ALICE);
    const id = made.edge.edge_id;
    await call('lithos_edge_update', { edge_id: id, weight: 0.9 }, HUMAN);
    expect(await call('lithos_edge_delete', { edge_id: id }, BOB)).toEqual({ deleted: { edge_id: id, from_id: odd, to_id: scalar, type: 'supports' } });
    expect(h.engine.services.learning.memory.edges.find({ from: odd })).toEqual([]);

    const entries = (await h.engine.services.governance.audit.recent({ target: id })).reverse();
    expect(entries.map((e) => [e.action, e.actor])).toEqual([
      ['edge.upsert', { kind: 'agent', id: 'alice' }],
      ['edge.upsert', { kind: 'human', id: null }],
      ['edge.delete', { kind: 'agent', id: 'bob' }],
    ]);
    expect(entries[0].data).toMatchObject({ from: odd, to: scalar, type: 'supports', weight: 0.4, created: true });
    expect(entries[1].data).toMatchObject({ weight: 0.9, created: false, before: { weight: 0.4 } });
    expect((await h.engine.services.governance.audit.verify()).ok).toBe(true);
  });

  test('an edge the caller cannot see cannot be deleted (not found), and nothing is audited', async () => {
    await h.engine.services.governance.policy.set({});
    const priv = await call('lithos_write', { title: 'Mine', namespace: 'agent/alice', access_scope: 'agent_private', content: 'x\n' }, ALICE);
    const made = await call('lithos_edge_create', { from: priv.id, to: 'notes/Odd.md', type: 'related_to' }, ALICE);
    const before = (await h.engine.services.governance.audit.recent({ limit: 1000 })).length;
    expect((await failure(call('lithos_edge_delete', { edge_id: made.edge.edge_id }, BOB))).code).toBe('not_found');
    expect((await h.engine.services.governance.audit.recent({ limit: 1000 })).length).toBe(before);
  });
});
