import { BRIEFING_MAX_LINES, renderBriefing, type BriefingEntry } from '../../shared/ledger/briefing';

/** The briefing page as rendered from what it is handed (ledger/briefing.ts): sections, wording, the line cap. */

const entry = (over: Partial<BriefingEntry> & Pick<BriefingEntry, 'ref' | 'kind' | 'state'>): BriefingEntry => ({
  title: `Title of ${over.ref}`,
  target: null,
  phase: 'pattern',
  vitality: 'active',
  supersededBy: null,
  noteActive: true,
  at: 0,
  ...over,
});

const lines = (text: string): string[] => text.replace(/\n$/, '').split('\n');

test('each section says what it holds: decisions in force by target, what not to repeat, open claims, conflicts', () => {
  const text = renderBriefing({
    at: '2026-11-27T10:00:00.000Z',
    entries: [
      entry({ ref: 'D001-aaaa', kind: 'decision', state: 'active', target: 'auth-service', phase: 'canonical', title: 'Sessions in Redis' }),
      entry({ ref: 'D002-aaaa', kind: 'decision', state: 'superseded', target: 'auth-service', supersededBy: 'D001-aaaa' }),
      entry({ ref: 'C003-aaaa', kind: 'construct', state: 'dead', title: 'Old cache' }),
      entry({ ref: 'E004-aaaa', kind: 'claim', state: 'refuted', title: 'Pool of 10 is enough' }),
      entry({ ref: 'E005-aaaa', kind: 'claim', state: 'contested' }),
      entry({ ref: 'E006-aaaa', kind: 'claim', state: 'unverified' }),
      entry({ ref: 'E007-aaaa', kind: 'claim', state: 'believed' }),
    ],
    conflicts: [{ a: { ref: 'E005-aaaa', title: 'A' }, b: { ref: 'E007-aaaa', title: 'B' }, state: 'unreviewed', at: 0 }],
  });
  expect(text).toContain('- `auth-service`: D001-aaaa "Sessions in Redis" — canonical');
  expect(text).toContain('- C003-aaaa "Old cache" is dead (construct)');
  expect(text).toContain('- E004-aaaa "Pool of 10 is enough" is refuted (claim)');
  expect(text).toContain('- D002-aaaa "Title of D002-aaaa" is superseded (decision on `auth-service`) → D001-aaaa');
  // Contested before unverified; a believed claim is neither.
  expect(text.indexOf('E005-aaaa" is contested')).toBeLessThan(text.indexOf('E006-aaaa" is unverified'));
  expect(text).not.toMatch(/E007-aaaa" is/);
  expect(text).toContain('- E005-aaaa "A" ⟷ E007-aaaa "B" (unreviewed)');
  expect(text).toContain('from 7 ledger entries of 3 kinds');
  // Without drift alerts there is no drift section; with them (even none) there is.
  expect(text).not.toContain('## Drift alerts');
  const withDrift = renderBriefing({ at: 'now', entries: [], conflicts: [], drift: [{ ref: 'E006-aaaa', title: 'Old', reason: 'unverified 40 days (threshold 30)', urgency: 2 }] });
  expect(withDrift).toContain('## Drift alerts\n- E006-aaaa "Old": unverified 40 days (threshold 30)');
});

test('an empty ledger still reads as a briefing, each section saying none', () => {
  const text = renderBriefing({ at: 'now', entries: [], conflicts: [] });
  expect(text.match(/_None\._/g)).toHaveLength(4);
  expect(lines(text).length).toBeLessThanOrEqual(BRIEFING_MAX_LINES);
});

test('with thousands of entries the page stays within the cap, each list cut with how many more', () => {
  const entries: BriefingEntry[] = [];
  for (let i = 0; i < 1000; i++) {
    entries.push(entry({ ref: `D${i}-aaaa`, kind: 'decision', state: 'active', target: `t${i}` }));
    entries.push(entry({ ref: `C${i}-aaaa`, kind: 'construct', state: 'dead' }));
    entries.push(entry({ ref: `E${i}-aaaa`, kind: 'claim', state: 'contested' }));
  }
  const conflicts = Array.from({ length: 500 }, (_, i) => ({ a: { ref: `E${i}-aaaa`, title: 'a' }, b: { ref: `E${i + 1}-aaaa`, title: 'b' }, state: 'unreviewed', at: i }));
  const drift = Array.from({ length: 300 }, (_, i) => ({ ref: `E${i}-aaaa`, title: 'x', reason: 'old', urgency: i }));
  const text = renderBriefing({ at: 'now', entries, conflicts, drift });
  const out = lines(text);
  expect(out.length).toBeLessThanOrEqual(BRIEFING_MAX_LINES);
  expect(out.length).toBeGreaterThanOrEqual(BRIEFING_MAX_LINES - 1);
  // Every list says how many it left out, and shown + left out is the whole list.
  const cuts = out.filter((l) => l.startsWith('- … and ')).map((l) => Number(/and (\d+) more/.exec(l)![1]));
  expect(cuts).toHaveLength(5);
  const sectionItems = (heading: string): number => {
    const start = out.indexOf(heading);
    let n = 0;
    for (let i = start + 1; i < out.length && out[i] !== ''; i++) if (!out[i].startsWith('- … and ')) n++;
    return n;
  };
  expect(sectionItems('## Decisions in force, by target') + cuts[0]).toBe(1000);
  expect(sectionItems('## Open conflicts') + cuts[3]).toBe(500);
  // The most urgent drift alert comes first.
  expect(text).toContain('## Drift alerts\n- E299-aaaa');
  // A smaller cap holds as well.
  expect(lines(renderBriefing({ at: 'now', entries, conflicts, drift }, 50)).length).toBeLessThanOrEqual(50);
});

test('a short list gives its room to a long one', () => {
  const entries = Array.from({ length: 200 }, (_, i) => entry({ ref: `D${i}-aaaa`, kind: 'decision', state: 'active', target: `t${i}` }));
  const out = lines(renderBriefing({ at: 'now', entries, conflicts: [] }));
  // 3 header lines, 4 × (blank + heading), 3 × "_None._": the rest is decisions.
  expect(out.filter((l) => l.startsWith('- `t')).length).toBe(BRIEFING_MAX_LINES - 3 - 8 - 3 - 1);
});

test('a title with line breaks or great length stays one short line', () => {
  const text = renderBriefing({ at: 'now', entries: [entry({ ref: 'E1-aaaa', kind: 'claim', state: 'refuted', title: `line one\nline two ${'x'.repeat(200)}` })], conflicts: [] });
  const line = lines(text).find((l) => l.startsWith('- E1-aaaa'))!;
  expect(line).toContain('"line one line two');
  expect(line.length).toBeLessThan(140);
});
