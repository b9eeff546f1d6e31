import { note, openHarness } from '../engine/harness';
import { AGENT, HUMAN, openTools } from '../tools/fixture';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';

/** Merging two targets (docs/ledger.md → Targets and intents): an alias in memory.sqlite, optionally the decisions' target rewritten; the person's; audited. */

const FILES: Record<string, string> = {
  'd/Use JWT.md': note({ title: 'Use JWT', note_type: 'decision', target: 'Auth Service' }, 'Use JWT.\n'),
  'd/Rotate keys.md': note({ title: 'Rotate keys', note_type: 'decision', target: 'authsvc' }, 'Rotate keys monthly.\n'),
  'd/Use Postgres.md': note({ title: 'Use Postgres', note_type: 'decision', target: 'database' }, 'Use Postgres.\n'),
};

test('merge: the alias is kept in memory.sqlite across a reopen, the targets read as one, and writes are gated on the merged target', async () => {
  const h = await openTools(FILES);
  const person = await h.engine.as(HUMAN);
  expect((await person.targets.list()).map((t) => t.target)).toEqual(['auth-service', 'authsvc', 'database']);
  await expect((await h.engine.as(AGENT)).targets.merge('authsvc', 'auth-service', { rewrite: false }, 'test')).rejects.toMatchObject({ code: 'forbidden' });
  await expect(person.targets.merge('nothing', 'auth-service', { rewrite: false }, 'test')).rejects.toMatchObject({ code: 'not_found' });
  await expect(person.targets.merge('Auth Services', 'auth-service', { rewrite: false }, 'test')).rejects.toMatchObject({ code: 'invalid_argument' });

  const r = await person.targets.merge('authsvc', 'Auth Service', { rewrite: false }, 'test');
  expect(r).toMatchObject({ from: 'authsvc', into: 'auth-service', rewritten: [] });
  expect(r.active).toHaveLength(2); // two active decisions now share the target: the person settles them with an intent
  expect((await person.targets.list())[0]).toEqual({ target: 'auth-service', spellings: ['Auth Service', 'authsvc'], aliases: ['authsvc'], decisions: 2, active: 2 });
  const [entry] = await h.engine.services.governance.audit.recent({ action: 'target.merge' });
  expect(entry).toMatchObject({ actor: { kind: 'human', id: null }, target: 'auth-service', data: { from: 'authsvc', into: 'auth-service' } });

  const e = await h.call('lithos_write', { title: 'Use sessions', note_type: 'decision', target: 'AuthSvc', content: 'Sessions.\n' }).catch((x: unknown) => x);
  expect(e).toMatchObject({ code: 'conflict', data: { target: 'auth-service' } });
  expect((e as { data: { active: unknown[] } }).data.active).toHaveLength(2);

  await h.engine.close();
  const again = await openHarness({}, { vault: h.vault, blobs: h.blobs, clock: h.clock });
  await again.engine.reconcile();
  expect(again.engine.services.learning.memory.targets.aliases()).toMatchObject([{ alias: 'authsvc', target: 'auth-service', actor: 'human' }]);
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: again.engine }));
  expect(await tools.call('lithos_targets', { suggest: 'authsvc' }, AGENT)).toMatchObject({ key: 'auth-service' });
  await again.engine.close();
});

test('merge with rewrite: each decision naming the merged target gets the other spelling in its frontmatter', async () => {
  const h = await openTools(FILES);
  const person = await h.engine.as(HUMAN);
  const r = await person.targets.merge('authsvc', 'auth-service', { rewrite: true }, 'test');
  expect(r.rewritten).toEqual([h.engine.services.notes.note('d/Rotate keys.md')!.cached.meta.ledger!.ledger_id]); // named by its ledger ID
  expect(h.vault.text('d/Rotate keys.md')).toContain('target: Auth Service');
  await h.engine.close();
});
