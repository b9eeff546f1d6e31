import { AGENT, HUMAN, openTools, type ToolHarness } from '../tools/fixture';
import { parseNote } from '../../shared/model/note';
import { frontmatterBlock, reconstruct } from '../../shared/ledger/graveyard';
import { contentHash } from '../../shared/model/hash';

/**
 * The graveyard's move through the engine (docs/ledger.md → Graveyard): a write that retires a ledger entry leaves a
 * stub and a graveyard entry holding the whole file, audited `graveyard.move`; retrieval and search skip the
 * graveyard; lithos_read of the stub's pointer reads the entry; a person editing a stub is never stopped.
 */

let h: ToolHarness;
beforeEach(async () => {
  h = await openTools({});
});
afterEach(async () => {
  await h.engine.close();
});

const text = (path: string): string => h.vault.text(path) ?? '';
const fm = (path: string) => parseNote(path, new TextEncoder().encode(text(path))).frontmatter;
const fromDisk = (note: string) => h.vault.text(`${note}.md`) ?? null;

const decision = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  note_type: 'decision',
  target: 'session-store',
  content: `${title}, because sessions must survive a restart.\n\n\`\`\`yaml\nstore: redis\n\`\`\`\n\nUnicode: 決定 🚀\n`,
  ...extra,
});

describe('superseding a decision', () => {
  test('leaves a stub and a graveyard entry from which the original is rebuilt byte for byte', async () => {
    const first = await h.call('lithos_write', decision('Use Redis'));
    const path = 'Use Redis.md';
    const original = text(path);
    const second = await h.call('lithos_write', decision('Use Postgres', { intent: { type: 'supersede', replaces: [first.ledger_id] } }));

    // The stub: the frontmatter as the intent left it, a heading, the state, the pointer and the successor.
    const stub = text(path);
    expect(fm(path)).toMatchObject({ state: 'superseded', status: 'superseded', superseded_by: second.ledger_id, ledger_id: first.ledger_id });
    expect(stub).toContain(`SUPERSEDED. Replaced by [[${second.ledger_id}]].`);
    expect(stub).toContain(`[[Lithos/Graveyard/Decisions#${first.ledger_id}]]`);
    expect(stub).not.toContain('survive a restart');
    expect(stub).toContain('[!lithos-status] Superseded by'); // the managed callout is kept up to date on the stub

    // The graveyard entry holds the file as it was when it was retired (frontmatter and body), verbatim: its
    // version is the one the last write before the move left (the intent's callout write).
    const buried = await reconstruct(stub, fromDisk);
    expect(buried).toContain('survive a restart');
    expect(frontmatterBlock(stub)).toBe(frontmatterBlock(buried));
    expect(buried.slice(frontmatterBlock(buried).length)).toContain(original.slice(frontmatterBlock(original).length).trim());
    // The callout keeper passing over the graveyard note leaves the buried callout alone.
    const grave = h.engine.services.notes.noteAtPath('Lithos/Graveyard/Decisions.md')!;
    await h.engine.services.conflicts.syncCallouts(grave.nodeId);
    expect(await reconstruct(stub, fromDisk)).toBe(buried);
    expect(buried).toContain('%% lithos:begin status %%');
    const [move] = await h.engine.services.governance.audit.recent({ action: 'graveyard.move' });
    const writes = (await h.engine.services.governance.audit.recent({ action: 'note.write' })).filter((e) => e.target === first.id && e.seq < move.seq && e.data.managed !== 'graveyard');
    const last = writes.sort((x, y) => y.seq - x.seq)[0];
    expect(contentHash(buried)).toBe(last.data.version);

    expect(move).toMatchObject({
      actor: { kind: 'rule', id: 'graveyard' },
      target: first.id,
      data: { path, kind: 'decision', ledger_id: first.ledger_id, state: 'superseded', graveyard: 'Lithos/Graveyard/Decisions.md', section: first.ledger_id, stubbed: true, cause: { kind: 'agent', id: 'agent-a' } },
    });
    // A rule write: the note stays the agent's (no note.protected), so the agent's next write is not a proposal.
    expect(await h.engine.services.governance.audit.recent({ action: 'note.protected' })).toEqual([]);
  });

  test('lithos_read of the pointer reads the entry; retrieval and search skip the graveyard', async () => {
    const first = await h.call('lithos_write', decision('Use Redis'));
    await h.call('lithos_write', decision('Use Postgres', { intent: { type: 'supersede', replaces: [first.ledger_id] } }));
    const entry = await h.call('lithos_read', { title: 'Lithos/Graveyard/Decisions', section: first.ledger_id });
    expect(entry.content).toContain('survive a restart');
    expect(entry.content).toMatch(/sha256: [0-9a-f]{64}/);
    // The stub's pointer, passed as it is written, reads the same section.
    for (const ref of [{ title: `[[Lithos/Graveyard/Decisions#${first.ledger_id}]]` }, { path: `Lithos/Graveyard/Decisions#${first.ledger_id}` }]) {
      expect((await h.call('lithos_read', ref)).content).toBe(entry.content);
    }

    // The buried text is found by nothing but its pointer: the stub is a hit, the graveyard note never.
    const hits = await h.call('lithos_search', { query: 'survive restart redis' });
    expect(hits.results.map((x: { path: string }) => x.path).sort()).toEqual(['Use Postgres.md', 'Use Redis.md']);
    const r = await h.call('lithos_retrieve', { query_text: 'sessions survive a restart redis' });
    expect(JSON.stringify(r)).toContain('Use Postgres.md');
    expect(JSON.stringify(r)).not.toContain('Lithos/Graveyard/Decisions.md');
  });

  test('a person edits a stub freely; nothing is moved again until the state changes', async () => {
    const first = await h.call('lithos_write', decision('Use Redis'));
    await h.call('lithos_write', decision('Use Postgres', { intent: { type: 'supersede', replaces: [first.ledger_id] } }));
    const graveyard = text('Lithos/Graveyard/Decisions.md');
    const read = await h.call('lithos_read', { path: 'Use Redis.md' }, HUMAN);
    await h.call('lithos_write', { path: 'Use Redis.md', content: 'A person writes here again.\n', expected_version: read.version }, HUMAN);
    expect(text('Use Redis.md')).toContain('A person writes here again.');
    expect(text('Lithos/Graveyard/Decisions.md')).toBe(graveyard);
  });
});

describe('every kind is buried when a write retires it', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['claim', { note_type: 'claim', evidence: ['Backtest 1'], content: 'Pool of 20 is enough.\r\nMeasured twice.\r\n' }, { state: 'refuted', evidence: ['Backtest 1', { ref: 'Backtest 2', stance: 'refutes' }] }],
    ['workflow', { note_type: 'workflow', context: 'deploys', trigger: 'a release', content: 'Steps:\n\n````md\n```sh\nmake\n```\n````\n' }, { state: 'merged', content: 'Merged into [[Release flow]].\n\n```sh\nmake release\n```\n' }],
    ['construct', { note_type: 'construct', code: ['src/pool.ts'], content: '# Pool\n\nThe pool, with ünïcødé.\nSecond line.\nThird line.\nFourth line.\n' }, { state: 'dead' }],
  ];
  for (const [kind, create, retire] of cases) {
    test(kind, async () => {
      const w = await h.call('lithos_write', { title: `A ${kind}`, ...create });
      const retired = await h.call('lithos_write', { id: w.id, expected_version: w.version, ...retire });
      const stub = text(`A ${kind}.md`);
      expect(stub).toContain(`${String(retire.state).toUpperCase()}.`);
      const buried = await reconstruct(stub, fromDisk);
      // The buried file is the note exactly as the retiring write left it: its version is that write's.
      expect(contentHash(buried)).toBe(retired.version);
      expect(buried).toContain(String(retire.content ?? create.content).split(/\r?\n/)[0]);
      expect(fm(`A ${kind}.md`).state).toBe(retire.state);
    });
  }
});

test('an agent cannot see a graveyard entry of a note it could not read', async () => {
  const a = await h.call('lithos_write', decision('Private choice', { access_scope: 'user_private' }), HUMAN);
  await h.call('lithos_write', decision('Private successor', { access_scope: 'user_private', intent: { type: 'supersede', replaces: [a.ledger_id] } }), HUMAN);
  const paths = h.vault.paths().filter((p) => p.startsWith('Lithos/Graveyard/'));
  expect(paths).toEqual(['Lithos/Graveyard/Decisions (user_private default).md']);
  await expect(h.call('lithos_read', { path: paths[0] }, AGENT)).rejects.toMatchObject({ code: 'not_found' });
});

test('a project note is buried in the graveyard note of its namespace; a note in a hidden folder inside that folder', async () => {
  const policy = h.engine.services.governance.policy;
  await policy.set({ ...policy.get(), hidden_folders: ['private'] });
  const a = await h.call('lithos_write', decision('Atlas choice', { namespace: 'project/atlas', access_scope: 'project' }), HUMAN);
  await h.call('lithos_write', decision('Atlas successor', { namespace: 'project/atlas', access_scope: 'project', intent: { type: 'supersede', replaces: [a.ledger_id] } }), HUMAN);
  const b = await h.call('lithos_write', decision('Hidden choice', { path: 'private/Hidden choice.md', target: 'hidden-store' }), HUMAN);
  await h.call('lithos_write', decision('Hidden successor', { path: 'private/Hidden successor.md', target: 'hidden-store', intent: { type: 'supersede', replaces: [b.ledger_id] } }), HUMAN);
  const graves = h.vault.paths().filter((p) => p.includes('Lithos/Graveyard/')).sort();
  expect(graves).toEqual(['Lithos/Graveyard/Decisions (project project-atlas).md', 'private/Lithos/Graveyard/Decisions.md']);
  expect(fm(graves[0])).toMatchObject({ namespace: 'project/atlas', access_scope: 'project' });
  expect(await reconstruct(text('private/Hidden choice.md'), fromDisk)).toContain('Hidden choice, because');
});

test('a refuted claim brought back with new evidence gets its text back; the graveyard keeps the entry and appends a dated revival', async () => {
  const c = await h.call('lithos_write', { title: 'Pool claim', note_type: 'claim', evidence: ['Backtest 1'], content: 'A pool of 20 is enough.\n\nMeasured on two runs.\n' });
  const refuted = await h.call('lithos_write', { id: c.id, expected_version: c.version, state: 'refuted', evidence: ['Backtest 1', { ref: 'Backtest 2', stance: 'refutes' }] });
  const body = (t: string) => t.slice(frontmatterBlock(t).length);
  const buriedBody = body(await reconstruct(text('Pool claim.md'), fromDisk));
  const graveyard = text('Lithos/Graveyard/Claims.md');
  const read = await h.call('lithos_read', { id: c.id });
  expect(read.version).not.toBe(refuted.version); // the stub
  await h.call('lithos_write', { id: c.id, expected_version: read.version, state: 'contested', evidence: ['Backtest 1', { ref: 'Backtest 2', stance: 'refutes' }, 'Backtest 3'] });
  expect(body(text('Pool claim.md'))).toBe(buriedBody);
  expect(fm('Pool claim.md').state).toBe('contested');
  // Append-only: the earlier sections are as they were; a correction says when and what came back.
  const after = text('Lithos/Graveyard/Claims.md');
  expect(after.startsWith(graveyard)).toBe(true);
  expect(after.slice(graveyard.length)).toMatch(new RegExp(`^\\n## ${c.ledger_id} correction 2\\n\\n- revived: \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\n- kind: claim\\n- state: contested\\n`));
  expect(after.slice(graveyard.length)).toContain(`- restored: "${c.ledger_id}"`);
  const [restore] = await h.engine.services.governance.audit.recent({ action: 'graveyard.move' });
  expect(restore.data).toMatchObject({ restored: true, ledger_id: c.ledger_id, state: 'contested', section: c.ledger_id, correction: `${c.ledger_id} correction 2` });
  // Refuted again: buried again under the next heading, the revival left in between.
  const again = await h.call('lithos_read', { id: c.id });
  await h.call('lithos_write', { id: c.id, expected_version: again.version, state: 'refuted', evidence: ['Backtest 1', { ref: 'Backtest 2', stance: 'refutes' }, { ref: 'Backtest 4', stance: 'refutes' }] });
  expect(text('Pool claim.md')).toContain(`[[Lithos/Graveyard/Claims#${c.ledger_id} correction 3]]`);
  expect(text('Lithos/Graveyard/Claims.md').startsWith(after)).toBe(true);
  expect(await reconstruct(text('Pool claim.md'), fromDisk)).toContain('Measured on two runs.');
});

test('a dead construct corrected to evolved: its stub follows, the graveyard is unchanged', async () => {
  const c = await h.call('lithos_write', { title: 'Pruner', note_type: 'construct', code: ['src/prune.ts'], content: '# Pruner\n\nPrunes swings.\nLong.\nLonger.\n' });
  await h.call('lithos_write', { id: c.id, expected_version: c.version, state: 'dead' });
  const graveyard = text('Lithos/Graveyard/Constructs.md');
  const read = await h.call('lithos_read', { id: c.id });
  await h.call('lithos_write', { id: c.id, expected_version: read.version, state: 'evolved' });
  expect(text('Pruner.md')).toContain('EVOLVED.');
  expect(text('Pruner.md')).not.toContain('DEAD.');
  expect(text('Lithos/Graveyard/Constructs.md')).toBe(graveyard);
  expect(await reconstruct(text('Pruner.md'), fromDisk)).toContain('Prunes swings.');
  // Back to active: the stub, its state line followed since, still gives the text back.
  const evolved = await h.call('lithos_read', { id: c.id }, HUMAN);
  await h.call('lithos_write', { id: c.id, expected_version: evolved.version, state: 'active' }, HUMAN);
  expect(text('Pruner.md')).toContain('Prunes swings.');
  expect(text('Pruner.md')).not.toContain('EVOLVED.');
});
