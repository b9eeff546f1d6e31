import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../bridge/run-cli';
import { openHarness } from '../engine/harness';

/** Every note write and delete lands in the audit trail, and `lithos audit verify` checks it from the CLI. */

test('engine writes and deletes are audited with who did it; the chain verifies', async () => {
  const h = await openHarness({ 'a.md': 'Alpha.' });
  await h.engine.reconcile();
  const w = await h.engine.services.notes.writeNote({ path: 'project/Pool.md', mode: 'create', content: 'The pool was too small.', fields: { title: 'Pool' }, actor: 'agent-a' });
  await h.engine.services.notes.writeNote({ path: 'project/Pool.md', mode: 'update', content: 'The pool was far too small.', fields: {}, actor: 'human' });
  await h.engine.services.notes.deleteNote('project/Pool.md', { actor: 'agent-b' });
  const entries = (await h.engine.services.governance.audit.recent()).reverse();
  expect(entries.map((e) => [e.action, e.actor, e.target])).toEqual([
    ['note.write', { kind: 'agent', id: 'agent-a' }, w.id],
    ['note.write', { kind: 'human', id: null }, w.id],
    // The person changed an agent's note: from now on it is theirs (the trust boundary).
    ['note.protected', { kind: 'human', id: null }, w.id],
    ['note.delete', { kind: 'agent', id: 'agent-b' }, w.id],
  ]);
  expect(entries[0].data).toMatchObject({ path: 'project/Pool.md', created: true, previous_version: null });
  expect(entries[1].data).toMatchObject({ created: false, previous_version: w.version });
  expect(await h.engine.services.governance.audit.verify()).toMatchObject({ ok: true, entries: 4 });
  await h.engine.close();
});

describe('lithos audit verify', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'lithos-audit-'));
    mkdirSync(join(root, 'vault'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));  test('an intact trail exits 0; an edited line exits 1 and names the line', async () => {
    const vault = join(root, 'vault');
    const h = await openHarness();
    await h.engine.services.notes.writeNote({ path: 'x.md', mode: 'create', content: 'x', fields: {}, actor: 'agent-a' });
    await h.engine.services.notes.writeNote({ path: 'y.md', mode: 'create', content: 'y', fields: {}, actor: 'agent-a' });
    await h.engine.close();
    mkdirSync(join(vault, '.lithos'));
    for (const [name, bytes] of h.blobs.files) if (name.startsWith('audit')) writeFileSync(join(vault, '.lithos', name), bytes);

    const ok = await cli('audit', 'verify', vault, '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ ok: true, entries: 2, problems: [] });

    const file = join(vault, '.lithos/audit.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"agent-a"', '"agent-z"'));
    const bad = await cli('audit', 'verify', vault);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('hash_mismatch (audit.jsonl line 1)');
    expect(bad.out).toContain('BROKEN');
  });

  test('a missing vault is a clear error; a vault without a trail verifies as empty', async () => {
    await expect(cli('audit', 'verify', join(root, 'nope'))).rejects.toMatchObject({ code: 'vault_unavailable' });
    const empty = await cli('audit', 'verify', join(root, 'vault'), '--json');
    expect(JSON.parse(empty.out)).toEqual({ ok: true, entries: 0, head: null, problems: [] });
    await expect(cli('audit', 'check', join(root, 'vault'))).rejects.toThrow(/lithos audit: name a subcommand: verify \(got "check"\)/);
  });
});
