import { HUMAN, openTools, type ToolHarness } from '../tools/fixture';
import { frontmatterBlock, reconstruct } from '../../shared/ledger/graveyard';
import { GRAVEYARD_QUIET_MS } from '../../shared/session/graveyard-watch';

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
