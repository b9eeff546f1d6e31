import {
  TIMELINE_DETAIL_WEEKS,
  TIMELINE_MAX_LINES,
  TIMELINE_NOTE_PATH,
  TIMELINE_TAG,
  TIMELINE_WEEK_LINES,
  isoWeek,
  renderTimeline,
  weekStart,
  type TimelineEvent,
} from '../../shared/ledger/timeline';
import { parseLearningOverrides } from '../../shared/learning/tunables';
import { BRIEFING_DEBOUNCE_MS } from '../../shared/session/briefing-note';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { createDispatcher } from '../../shared/tools/dispatcher';
import type { ToolCaller } from '../../shared/tools/types';
import { openHarness } from '../engine/harness';
import { AGENT, HUMAN, openTools, type ToolHarness } from '../tools/fixture';

/**
 * The timeline (docs/ledger.md → Timeline): what happened to the ledger by ISO week, newest first — the last
 * TIMELINE_DETAIL_WEEKS weeks event by event, older weeks one line of counts each — read from the audit trail
 * through the reader's session, so it never names a note the reader may not read; kept for the person as a
 * note regenerated after changes, like the briefing.
 */

const DAY = 86_400_000;
const WEEK = 7 * DAY;

describe('ISO weeks', () => {
  test('a week is named by the year of its Thursday and starts on Monday (UTC)', () => {
    expect(isoWeek(Date.UTC(2026, 0, 1))).toEqual({ period: '2026-W01', start: Date.UTC(2025, 11, 29) });
    expect(isoWeek(Date.UTC(2026, 10, 27, 23, 59))).toEqual({ period: '2026-W48', start: Date.UTC(2026, 10, 23) });
    expect(isoWeek(Date.UTC(2027, 0, 1)).period).toBe('2026-W53');
    expect(weekStart('2026-W48')).toBe(Date.UTC(2026, 10, 23));
    expect(weekStart('2026-W53')).toBe(Date.UTC(2026, 11, 28));
    for (const bad of ['2025-W53', '2026-W00', '2026-48', 'W48']) expect(weekStart(bad)).toBeNull();
  });
});

describe('rendering', () => {
  const now = Date.UTC(2026, 10, 27, 12);
  const ev = (weeksAgo: number, kind: TimelineEvent['kind'], i = 0): TimelineEvent => ({
    at: now - weeksAgo * WEEK - i * 1000,
    kind,
    note: { ref: `D${String(i).padStart(3, '0')}-k3xq`, title: `Decision ${i}` },
    ledgerKind: 'decision',
    state: kind === 'retired' ? 'superseded' : 'active',
    ...(kind === 'buried' ? { graveyard: `Lithos/Graveyard/Decisions#D${String(i).padStart(3, '0')}-k3xq` } : {}),
  });

  test('recent weeks are listed event by event, newest first; older weeks are one line of counts', () => {
    const events = [ev(0, 'recorded', 1), ev(0, 'retired', 2), ev(2, 'buried', 3), ev(6, 'recorded', 4), ev(6, 'refuted', 5), ev(6, 'recorded', 6), ev(9, 'conflict_opened', 7)];
    events[6] = { ...events[6], ledgerKind: undefined, other: { ref: 'E001-k3xq', title: 'Other' } };
    const text = renderTimeline({ now, events });
    const headings = text.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual(['## 2026-W48 (2026-11-23 – 2026-11-29)', '## 2026-W47 (2026-11-16 – 2026-11-22)', '## 2026-W46 (2026-11-09 – 2026-11-15)', '## 2026-W45 (2026-11-02 – 2026-11-08)', '## Earlier, compacted']);
    expect(text).toMatch(/## 2026-W48[^\n]*\n- 2026-11-27 D001-k3xq "Decision 1" \(decision\) recorded as active\n- 2026-11-27 D002-k3xq "Decision 2" \(decision\) superseded\n/);
    expect(text).toMatch(/## 2026-W47[^\n]*\n_Nothing recorded\._/);
    expect(text).toContain('D003-k3xq "Decision 3" (decision) buried: [[Lithos/Graveyard/Decisions#D003-k3xq]]');
    expect(text).toContain('- 2026-W42 (2026-10-12 – 2026-10-18): 2 recorded, 1 refuted\n- 2026-W39 (2026-09-21 – 2026-09-27): 1 conflicts opened\n');
    expect(text).not.toContain('Decision 4');
    expect(text).toContain('from 7 events you can see');
  });

  test(`bounded: thousands of events over two years stay within ${TIMELINE_MAX_LINES} lines`, () => {
    const events: TimelineEvent[] = [];
    for (let w = 0; w < 104; w++) for (let i = 0; i < 40; i++) events.push(ev(w, i % 2 ? 'recorded' : 'retired', i));
    const text = renderTimeline({ now, events });
    const lines = text.split('\n').length - 1;
    expect(lines).toBe(TIMELINE_MAX_LINES); // every week full: exactly the cap
    expect(text).toContain(`- … and ${40 - (TIMELINE_WEEK_LINES - 1)} more (`);
    expect(text.split('\n').filter((l) => /^- \d{4}-W\d{2} \(/.test(l))).toHaveLength(52 - TIMELINE_DETAIL_WEEKS);
  });
});

describe('through lithos_timeline, with the clock moving over weeks', () => {
  let h: ToolHarness;
  beforeEach(async () => {
    h = await openTools({});
  });
  afterEach(async () => {
    await h.engine.close();
  });

  const decision = (title: string, extra: Record<string, unknown> = {}) => ({ title, note_type: 'decision', target: 'session-store', content: `${title}.\n`, ...extra });

  test('recent weeks detailed with IDs and graveyard links, older weeks compacted, paged by week', async () => {
    const first = await h.call('lithos_write', decision('Use Redis'));
    const claim = await h.call('lithos_write', { title: 'Pool of 20 suffices', note_type: 'claim', evidence: ['Backtest 1'], content: 'Enough.\n' });
    h.clock.advance(6 * WEEK);
    const second = await h.call('lithos_write', decision('Use Postgres', { intent: { type: 'supersede', replaces: [first.ledger_id] } }));
    h.clock.advance(WEEK);
    await h.call('lithos_write', { id: claim.id, expected_version: (await h.call('lithos_read', { id: claim.id })).version, state: 'refuted', evidence: ['Backtest 1', { ref: 'Backtest 2', stance: 'refutes' }] });

    const r = await h.call('lithos_timeline', {});
    const text: string = r.timeline;
    expect(r.lines).toBeLessThanOrEqual(TIMELINE_MAX_LINES);
    const newest = isoWeek(h.clock.now()).period;
    expect(text.indexOf(`## ${newest}`)).toBeLessThan(text.indexOf(`## ${isoWeek(h.clock.now() - WEEK).period}`));
    // A retirement and its graveyard move are one line, linking the buried text.
    expect(text).toContain(`${claim.ledger_id} "Pool of 20 suffices" (claim) refuted, buried: [[Lithos/Graveyard/Claims#${claim.ledger_id}]]\n`);
    expect(text).toContain(`${first.ledger_id} "Use Redis" (decision) superseded → ${second.ledger_id}, buried: [[Lithos/Graveyard/Decisions#${first.ledger_id}]]\n`);
    expect(text).not.toMatch(/\) buried:/);
    // Six weeks back: past the detailed weeks, one line of counts.
    expect(text).toContain(`- ${isoWeek(Date.UTC(2026, 0, 1)).period} (2025-12-29 – 2026-01-04): 2 recorded\n`);
    expect(text).not.toContain('"Use Redis" (decision) recorded');
    // The cursor is the oldest week shown: the next page holds the weeks before it.
    expect(r.next_cursor).toBe(isoWeek(h.clock.now() - (TIMELINE_DETAIL_WEEKS - 1) * WEEK).period);

    // The compacted week in full, by paging.
    const older = await h.call('lithos_timeline', { before: r.next_cursor });
    expect(older.timeline).toContain(`${first.ledger_id} "Use Redis" (decision) recorded`);
    expect(older.timeline).toContain(`${claim.ledger_id} "Pool of 20 suffices" (claim) recorded`);
    expect(older.next_cursor).toBeNull();
    await expect(h.call('lithos_timeline', { before: 'last week' })).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  test("an agent's timeline names no note it may not read; the person's names them", async () => {
    const a = await h.call('lithos_write', decision('Private qxhiddenzz choice', { access_scope: 'user_private', target: 'qxtargetzz' }), HUMAN);
    await h.call('lithos_write', decision('Private qxhiddenzz successor', { access_scope: 'user_private', target: 'qxtargetzz', intent: { type: 'supersede', replaces: [a.ledger_id] } }), HUMAN);
    const visible = await h.call('lithos_write', decision('Visible choice', { target: 'visible-store' }));
    await h.engine.services.conflicts.open({ a: visible.id, b: a.id, actor: { kind: 'human', id: null } });
    h.clock.advance(6 * WEEK); // the hidden events are in a compacted week too: not even counted
    await h.call('lithos_write', decision('Hidden-era qxhiddenzz note', { access_scope: 'user_private', target: 'qxlaterzz' }), HUMAN);

    const agent: string = (await h.call('lithos_timeline', {}, AGENT)).timeline;
    expect(agent).not.toContain('qxhidden');
    expect(agent).not.toContain(a.ledger_id);
    expect(agent).not.toContain(a.id);
    expect(agent).not.toContain('conflict');
    expect(agent).toContain('from 1 event you can see');
    const older: string = (await h.call('lithos_timeline', { before: isoWeek(h.clock.now() - 3 * WEEK).period }, AGENT)).timeline;
    expect(older).not.toContain('qxhidden');
    expect(older).toContain('"Visible choice" (decision) recorded');

    const person: string = (await h.call('lithos_timeline', {}, HUMAN)).timeline;
    expect(person).toContain('"Hidden-era qxhiddenzz note"');
    expect(person).toMatch(/1 conflicts opened/);
  });
});

describe('the person\'s timeline note', () => {
  const caller: ToolCaller = HUMAN;
  test('is written by rule timeline after a change, user_private, and regenerated after the next change', async () => {
    const h = await openHarness({}, { deps: { briefingNote: true } });
    await h.engine.reconcile();
    const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
    const call = (name: string, args: unknown) => tools.call(name, args, caller) as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results
    h.clock.advance(BRIEFING_DEBOUNCE_MS);
    await h.engine.settle();
    expect(h.vault.text(TIMELINE_NOTE_PATH)).toBeUndefined(); // nothing happened yet: no note

    const first = await call('lithos_write', { title: 'Use Redis', note_type: 'decision', target: 'session-store', content: 'Redis.\n' });
    h.clock.advance(BRIEFING_DEBOUNCE_MS);
    await h.engine.settle();
    const text = h.vault.text(TIMELINE_NOTE_PATH) ?? '';
    expect(text).toContain(`${first.ledger_id} "Use Redis" (decision) recorded`);
    expect(text).toMatch(/^access_scope: user_private$/m);
    expect(text).toContain(TIMELINE_TAG);
    const writes = async () => (await h.engine.services.governance.audit.recent({ action: 'note.write', limit: 500 })).filter((e) => e.actor.kind === 'rule' && e.actor.id === 'timeline').length;
    expect(await writes()).toBe(1);
    await expect(call('lithos_read', { path: TIMELINE_NOTE_PATH }).then(() => tools.call('lithos_read', { path: TIMELINE_NOTE_PATH }, AGENT))).rejects.toMatchObject({ code: 'not_found' });

    await call('lithos_write', { title: 'Use Postgres', note_type: 'decision', target: 'session-store', content: 'Postgres.\n', intent: { type: 'supersede', replaces: [first.ledger_id] } });
    h.clock.advance(BRIEFING_DEBOUNCE_MS);
    await h.engine.settle();
    expect(await writes()).toBe(2);
    expect(h.vault.text(TIMELINE_NOTE_PATH)).toContain(`[[Lithos/Graveyard/Decisions#${first.ledger_id}]]`);
    await h.engine.close();
  });
});

test('learning.json names the timeline note\'s path, or null for none; a path outside the notes is refused', async () => {
  expect(parseLearningOverrides({ timeline: { path: 'Me/History.md' } })).toEqual({ timeline: { path: 'Me/History.md' } });
  expect(parseLearningOverrides({ timeline: { path: null } })).toEqual({ timeline: { path: null } });
  expect(parseLearningOverrides({ timeline: { path: TIMELINE_NOTE_PATH } })).toEqual({});
  for (const bad of ['.lithos/T.md', 'Me/T.txt', '../T.md']) expect(() => parseLearningOverrides({ timeline: { path: bad } })).toThrow(/timeline\.path/);
  const h = await openHarness({}, { deps: { briefingNote: true } });
  await h.engine.reconcile();
  await h.engine.services.learning.tunables.set({ timeline: { path: 'Me/History.md' } });
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  await tools.call('lithos_write', { title: 'Use Redis', note_type: 'decision', target: 'session-store', content: 'Redis.\n' }, HUMAN);
  h.clock.advance(BRIEFING_DEBOUNCE_MS);
  await h.engine.settle();
  expect(h.vault.text('Me/History.md')).toContain('"Use Redis" (decision) recorded');
  expect(h.vault.text(TIMELINE_NOTE_PATH)).toBeUndefined();
  const audit = await h.engine.services.governance.audit.recent({ action: 'learning.set', limit: 5 });
  expect(audit[0].data.changed).toEqual({ 'timeline.path': [TIMELINE_NOTE_PATH, 'Me/History.md'] });
  await h.engine.close();
});
