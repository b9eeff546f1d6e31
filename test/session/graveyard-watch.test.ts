import { HUMAN, openTools, type ToolHarness } from '../tools/fixture';
import { frontmatterBlock, reconstruct } from '../../shared/ledger/graveyard';
import { GRAVEYARD_QUIET_MS } from '../../shared/session/graveyard-watch';
import { contentHash } from '../../shared/model/hash';

/**
 * A state a person changes by hand in Obsidian (docs/ledger.md → Graveyard): once the note has been quiet for
 * GRAVEYARD_QUIET_MS, an entry retired by hand is buried and a stub set back to a living state gets its text back,
 * through the same audited move as a write through Lithos. Until then the engine leaves the note alone.
 */

const PATH = 'Pool claim.md';
let h: ToolHarness;
beforeEach(async () => {
  h = await openTools({});
  h.engine.startWatching();
});
afterEach(async () => {
  await h.engine.close();
});

const text = (path: string): string => h.vault.text(path) ?? '';
const fromDisk = (note: string) => h.vault.text(`${note}.md`) ?? null;
const audited = (action: string) => h.engine.services.governance.audit.recent({ action });
const graves = () => h.vault.paths().filter((p) => p.startsWith('Lithos/Graveyard/'));

/** The person saves the note in Obsidian; sync picks the save up after its debounce (the refresh waits for it). */
async function saveByHand(edit: (t: string) => string): Promise<void> {
  h.vault.put(PATH, edit(text(PATH)));
  h.clock.advance(300);
  await h.engine.services.notes.refresh(PATH);
}
const setState = (state: string) => (t: string) => t.replace(/^state: .*$/m, `state: ${state}`);

/** Lets the quiet period run out and waits for the move it starts. */
async function quiet(): Promise<void> {
  h.clock.advance(GRAVEYARD_QUIET_MS);
  await h.engine.settle();
}

async function claim(): Promise<void> {
  await h.call('lithos_write', { title: 'Pool claim', note_type: 'claim', evidence: ['Backtest 1'], content: 'A pool of 20 is enough.\n\nMeasured on two runs.\n' }, HUMAN);
}

describe('an entry retired by hand', () => {
  test('is left alone while the person edits, then buried: the graveyard holds the file exactly as they left it', async () => {
    await claim();
    await saveByHand(setState('refuted'));
    h.clock.advance(GRAVEYARD_QUIET_MS - 1_000);
    // Still typing: each save starts the wait again, and the note keeps its text meanwhile.
    await saveByHand((t) => `${t}\nRefuted by Backtest 2.\n`);
    h.clock.advance(GRAVEYARD_QUIET_MS - 1_000);
    expect(text(PATH)).toContain('Measured on two runs.');
    expect(graves()).toEqual([]);
    const asLeft = text(PATH);

    await quiet();
    const stub = text(PATH);
    expect(stub).toContain('REFUTED.');
    expect(stub).not.toContain('Measured on two runs.');
    expect(frontmatterBlock(stub)).toBe(frontmatterBlock(asLeft));
    expect(await reconstruct(stub, fromDisk)).toBe(asLeft);

    const [state] = await audited('ledger.state');
    expect(state).toMatchObject({ actor: { kind: 'system', id: 'outside-the-tools' }, data: { path: PATH, kind: 'claim', from: 'unverified', to: 'refuted' } });
    const [move] = await audited('graveyard.move');
    expect(move).toMatchObject({ actor: { kind: 'rule', id: 'graveyard' }, data: { path: PATH, state: 'refuted', stubbed: true, cause: { kind: 'system', id: 'outside-the-tools' } } });
    expect(move.seq).toBeGreaterThan(state.seq);
    // The engine's move is upkeep: the note stays the person's.
    expect(await audited('note.protected')).toEqual([]);
  });

  test('a state set and set back before the note goes quiet moves nothing and audits no state change', async () => {
    await claim();
    const original = text(PATH);
    await saveByHand(setState('refuted'));
    await saveByHand(setState('unverified'));
    await quiet();
    expect(text(PATH)).toBe(original);
    expect(graves()).toEqual([]);
    expect(await audited('ledger.state')).toEqual([]);
  });

  test('a state typed letter by letter is judged as the person leaves it', async () => {
    await claim();
    for (const partial of ['r', 'ref', 'refut', 'refuted']) await saveByHand(setState(partial));
    await quiet();
    expect(text(PATH)).toContain('REFUTED.');
    expect((await audited('ledger.state')).map((e) => [e.data.from, e.data.to])).toEqual([['unverified', 'refuted']]);
  });

  test('an edit that keeps the state starts nothing', async () => {
    await claim();
    await saveByHand((t) => `${t}\nOne more measurement.\n`);
    await quiet();
    expect(text(PATH)).toContain('One more measurement.');
    expect(await audited('graveyard.move')).toEqual([]);
  });

  test('the engine closing with a wait under way makes the move first: nothing is left half-done', async () => {
    await claim();
    await saveByHand(setState('refuted'));
    await h.engine.close();
    expect(text(PATH)).toContain('REFUTED.');
    expect(await reconstruct(text(PATH), fromDisk)).toContain('Measured on two runs.');
  });
});

describe('a stub set back to a living state by hand', () => {
  /** A claim refuted through Lithos: its note is a stub, its text in the graveyard. */
  async function buried(): Promise<{ ledgerId: string; original: string; graveyard: string }> {
    await claim();
    const read = await h.call('lithos_read', { path: PATH }, HUMAN);
    await h.call('lithos_write', { path: PATH, expected_version: read.version, state: 'refuted', evidence: ['Backtest 1', { ref: 'Backtest 2', stance: 'refutes' }] }, HUMAN);
    const stub = text(PATH);
    expect(stub).toContain('REFUTED.');
    return { ledgerId: read.ledger_id as string, original: await reconstruct(stub, fromDisk), graveyard: text('Lithos/Graveyard/Claims.md') };
  }

  test('gets its last buried text back once quiet; the graveyard only grows, by a dated revival', async () => {
    const { ledgerId, original, graveyard } = await buried();
    await saveByHand(setState('contested'));
    expect(text(PATH)).toContain('REFUTED.'); // not while the person may still be typing
    await quiet();
    const now = text(PATH);
    expect(now.slice(frontmatterBlock(now).length)).toBe(original.slice(frontmatterBlock(original).length));
    expect(now).toMatch(/^state: contested$/m);
    const after = text('Lithos/Graveyard/Claims.md');
    expect(after.startsWith(graveyard)).toBe(true);
    expect(after.slice(graveyard.length)).toContain(`## ${ledgerId} correction 2\n\n- revived: `);
    expect((await audited('ledger.state'))[0]).toMatchObject({ actor: { kind: 'system', id: 'outside-the-tools' }, data: { from: 'refuted', to: 'contested' } });
    expect((await audited('graveyard.move'))[0]).toMatchObject({ data: { restored: true, state: 'contested', section: ledgerId, correction: `${ledgerId} correction 2`, cause: { kind: 'system', id: 'outside-the-tools' } } });
  });

  test('a superseded decision set back to active by hand gets its text back (the status callout follows its state)', async () => {
    const decision = (title: string, extra: Record<string, unknown> = {}) => ({ title, note_type: 'decision', target: 'session-store', content: `${title}, because sessions must survive a restart.\n`, ...extra });
    const first = await h.call('lithos_write', decision('Use Redis'), HUMAN);
    await h.call('lithos_write', decision('Use Postgres', { intent: { type: 'supersede', replaces: [first.ledger_id] } }), HUMAN);
    const redis = 'Use Redis.md';
    expect(h.vault.text(redis)).toContain('SUPERSEDED.');
    const own = (t: string) => t.split(/^---$/m).pop()!.replace(/%% lithos:begin[\s\S]*?%% lithos:end %%\n*/g, '');
    const buriedBody = own(await reconstruct(text(redis), fromDisk));
    h.vault.put(redis, setState('active')(text(redis)));
    h.clock.advance(300);
    await h.engine.services.notes.refresh(redis);
    await quiet();
    expect(text(redis)).toContain('Use Redis, because sessions must survive a restart.');
    expect(text(redis)).not.toContain('SUPERSEDED.');
    expect(own(text(redis))).toBe(buriedBody);
    expect(text('Lithos/Graveyard/Decisions.md')).toContain(`## ${first.ledger_id} correction 2\n\n- revived: `);
  });

  test('whose stub the person wrote in keeps what they wrote; nothing is restored over it', async () => {
    const { graveyard } = await buried();
    await saveByHand((t) => setState('contested')(t).replace(/REFUTED\..*$/m, 'Reopened: Backtest 3 disagrees with Backtest 2.'));
    const written = text(PATH);
    await quiet();
    expect(text(PATH)).toBe(written);
    expect(text('Lithos/Graveyard/Claims.md')).toBe(graveyard);
  });
});

describe('a note with a byte-order mark and CRLF line ends', () => {
  const bytes = (path: string) => h.vault.readBytes(path);
  const whole = async (path: string) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(await bytes(path));
  const ORIGINAL = '\uFEFF---\r\nledger_id: E001-abcd\r\nnote_type: claim\r\nstate: refuted\r\nevidence:\r\n  - Backtest 1\r\n---\r\n# Pool claim\r\n\r\nA pool of 20 is enough.\r\n';

  test('retired by hand: the graveyard gives back every byte, the mark and the line ends; the stub keeps both', async () => {
    h.vault.put(PATH, ORIGINAL.replace('state: refuted', 'state: unverified'));
    h.clock.advance(300);
    await h.engine.services.notes.refresh(PATH);
    const put = new TextEncoder().encode(ORIGINAL);
    h.vault.put(PATH, put);
    h.clock.advance(300);
    await h.engine.services.notes.refresh(PATH);
    await quiet();

    const stub = await whole(PATH);
    expect(stub).toContain('REFUTED.');
    expect([...(await bytes(PATH)).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(stub.slice(1).split('\n').every((l, i, all) => i === all.length - 1 || l.endsWith('\r'))).toBe(true);
    const back = await reconstruct(stub, (note) => h.vault.text(`${note}.md`) ?? null);
    expect(new TextEncoder().encode(back)).toEqual(put);
  });

  test('retired through Lithos: the write and the move keep the mark, and the buried text is the file as written', async () => {
    h.vault.put(PATH, ORIGINAL.replace('state: refuted', 'state: unverified'));
    h.clock.advance(300);
    await h.engine.services.notes.refresh(PATH);
    const read = await h.call('lithos_read', { path: PATH }, HUMAN);
    const w = await h.call('lithos_write', { path: PATH, expected_version: read.version, state: 'refuted' }, HUMAN);
    const stub = await whole(PATH);
    expect(stub.startsWith('\uFEFF---\r\n')).toBe(true);
    const back = await reconstruct(stub, (note) => h.vault.text(`${note}.md`) ?? null);
    expect(back.startsWith('\uFEFF---\r\n')).toBe(true);
    expect(back).toContain('A pool of 20 is enough.\r\n');
    expect(contentHash(back.slice(1))).toBe(w.version);
  });
});
