import { LithosError } from '../../shared/errors';
import { extractHeadings } from '../../shared/model/headings';
import {
  MAX_PHRASE_CHARS,
  MAX_PHRASES_PER_SLOT,
  deterministicFrameExtractor,
  extractFrame,
  parseFrame,
  slotOfHeading,
  type FrameMeta,
  type NoteFrame,
} from '../../shared/model/frames';

/** The frame of a Markdown body, with headings found by the parser's own extractor. */
function frameOf(body: string, meta?: FrameMeta): NoteFrame | null {
  return extractFrame(body, extractHeadings(body), meta);
}

function md(lines: string[]): string {
  return lines.join('\n');
}

describe('slotOfHeading: which headings open which slot', () => {
  test.each([
    ['Problem', 'problem'],
    ['The problem', 'problem'],
    ['Issue', 'problem'],
    ['Context', 'problem'],
    ['Symptoms', 'problem'],
    ['What happened', 'problem'],
    ['Constraints', 'constraints'],
    ['Requirements', 'constraints'],
    ['Assumptions', 'constraints'],
    ['Actions', 'actions'],
    ['Steps', 'actions'],
    ['What we did', 'actions'],
    ['Our approach', 'actions'],
    ['2. The fix', 'actions'],
    ['Decision', 'actions'],
    ['Outcome', 'outcome'],
    ['Result', 'outcome'],
    ['Results of the load test', 'outcome'],
    ['Impact', 'outcome'],
    ['Consequences', 'outcome'],
    ['Lessons', 'lessons'],
    ['Lessons learned (so far)', 'lessons'],
    ['Key takeaways', 'lessons'],
    ['Learned', 'lessons'],
    ['Next time', 'lessons'],
    ['Why', 'lessons'],
    ["What didn't go well", 'lessons'],
    ['**OUTCOME**', 'outcome'],
  ])('%s → %s', (heading, slot) => {
    expect(slotOfHeading(heading)).toBe(slot);
  });

  test.each(['Timeline', 'Worker OOM kills', 'Notes', 'Summary', 'Problematic dependencies', 'Fixtures', ''])('%j → none', (heading) => {
    expect(slotOfHeading(heading)).toBeNull();
  });
});

describe('extractFrame', () => {
  test('sections under mapped headings: list items are phrases, paragraphs are cut into sentences', () => {
    const body = md([
      '# DB deadlock on checkout',
      '',
      'Intro text that belongs to no slot.',
      '',
      '## Problem',
      '',
      'Two writers took row locks in opposite order. Checkout hung for minutes.',
      '',
      '## Actions',
      '',
      '- Ordered lock acquisition by primary key',
      '- Added a lock timeout of 2 s',
      '',
      '## Outcome',
      '',
      '1. No deadlock in a week',
      '',
      '## Lessons',
      '',
      '* Always acquire locks in one global order',
    ]);
    expect(frameOf(body)).toEqual({
      problem: ['Two writers took row locks in opposite order.', 'Checkout hung for minutes.'],
      constraints: [],
      actions: ['Ordered lock acquisition by primary key', 'Added a lock timeout of 2 s'],
      outcome: ['No deadlock in a week'],
      lessons: ['Always acquire locks in one global order'],
    });
  });

  test('subsections inherit the slot of their section unless they map to another; a sibling heading ends it', () => {
    const body = md([
      '## Actions',
      '### During the incident',
      '- scaled down',
      '### Result',
      '- recovered at 14:13',
      '### Afterwards',
      '- added jitter',
      '## Timeline',
      '- 14:02 deploy',
    ]);
    const f = frameOf(body);
    expect(f?.actions).toEqual(['scaled down', 'added jitter']);
    expect(f?.outcome).toEqual(['recovered at 14:13']);
    expect(JSON.stringify(f)).not.toContain('14:02');
  });

  test('inline labelled lines fill slots anywhere, in every common spelling', () => {
    const body = md([
      'Some context first.',
      'Problem: the cache expired for every tenant at once',
      '**Fix:** request coalescing per key',
      '**Outcome**: database load stayed flat',
      '- Lesson: spread expiries over time',
      '> Result: no second stampede',
      '__Takeaways__: coalesce, then jitter',
    ]);
    expect(frameOf(body)).toEqual({
      problem: ['the cache expired for every tenant at once'],
      constraints: [],
      actions: ['request coalescing per key'],
      outcome: ['database load stayed flat', 'no second stampede'],
      lessons: ['spread expiries over time', 'coalesce, then jitter'],
    });
  });

  test('notes without headings: a label alone opens a section that ends at a blank line', () => {
    const body = md([
      'Problem:',
      '- retries fired in lockstep',
      '- the broker fell over again',
      '',
      'Unrelated prose after the list.',
      '',
      '**Actions**',
      'Added full jitter to the backoff.',
      '',
      'More unrelated prose.',
    ]);
    expect(frameOf(body)).toEqual({
      problem: ['retries fired in lockstep', 'the broker fell over again'],
      constraints: [],
      actions: ['Added full jitter to the backoff.'],
      outcome: [],
      lessons: [],
    });
  });

  test('headings are detected from the body when the caller passes none', () => {
    const body = md(['## Problem', 'It was slow.', '## Fix', 'Added an index.']);
    expect(extractFrame(body, [])).toEqual(frameOf(body));
    expect(extractFrame(body, [])?.actions).toEqual(['Added an index.']);
  });

  test('fewer than two filled slots is no frame; an empty or unstructured note is no frame', () => {
    expect(frameOf('')).toBeNull();
    expect(frameOf('Just a thought about caching, with no structure at all.\n\n- a list\n- of things')).toBeNull();
    expect(frameOf('## Problem\nOnly a problem, nothing else.')).toBeNull();
    expect(frameOf('## Problem\n\n## Outcome\n')).toBeNull();
  });

  test('an incident without a problem section takes its title as the problem; other notes do not', () => {
    const body = md(['## Actions', '- paused consumers', '## Lessons', '- fixed retry intervals synchronise clients']);
    const withTitle = frameOf(body, { title: 'Retry storm after broker failover', tags: ['atlas', 'incident'] });
    expect(withTitle?.problem).toEqual(['Retry storm after broker failover']);
    expect(frameOf(body, { title: 'Weekly notes', tags: ['atlas'] })?.problem).toEqual([]);
    expect(frameOf(md(['## Actions', '- paused consumers']), { title: 'Bug', tags: ['type/bug'] })).toEqual({
      problem: ['Bug'],
      constraints: [],
      actions: ['paused consumers'],
      outcome: [],
      lessons: [],
    });
  });

  test('caps: at most MAX_PHRASES_PER_SLOT phrases per slot, each at most MAX_PHRASE_CHARS, duplicates once', () => {
    const items = Array.from({ length: 30 }, (_v, i) => `- step number ${i + 1} of the rollout`);
    const long = 'word '.repeat(200);
    const body = md(['## Actions', ...items, '## Outcome', `- ${long}`, '- same', '- Same', '- same']);
    const f = frameOf(body);
    expect(f?.actions).toHaveLength(MAX_PHRASES_PER_SLOT);
    expect(f?.actions[0]).toBe('step number 1 of the rollout');
    expect(f?.outcome[0].length).toBeLessThanOrEqual(MAX_PHRASE_CHARS);
    expect(f?.outcome[0].endsWith('…')).toBe(true);
    expect(f?.outcome.slice(1)).toEqual(['same']);
  });

  test('weird Markdown: code, links, emphasis, tasks, tables, rules, tags, callouts and CRLF', () => {
    const body = [
      '## Problem',
      '```',
      '## Outcome',
      'Problem: inside a code block',
      '```',
      'The `tenant-config:<id>` keys shared one TTL, see [[Redis keys|the key note]] and [docs](https://x.y/z). ^block-1',
      '> [!warning] Watch out',
      '> Every pod **missed** at _once_ per https://example.com/x',
      '## Actions',
      '- [x] Added [[Jitter]] to TTLs',
      '- [ ] ![[diagram.png]]',
      '| change | owner |',
      '|---|---|',
      '| coalescing | ana |',
      '***',
      '#on-call #followup',
      '## Outcome',
      'Postgres CPU < 40 %.',
    ].join('\r\n');
    expect(frameOf(body)).toEqual({
      problem: ['The keys shared one TTL, see the key note and docs.', 'Watch out', 'Every pod missed at once per'],
      constraints: [],
      actions: ['Added Jitter to TTLs', 'change — owner', 'coalescing — ana'],
      outcome: ['Postgres CPU < 40 %.'],
      lessons: [],
    });
  });

  test('deterministic: the same input gives the same frame, and the extractor port gives it too', async () => {
    const body = md(['## Problem', '- a race between two renders', '## Fix', '- a mutex around the state update']);
    expect(frameOf(body)).toEqual(frameOf(body));
    expect(await deterministicFrameExtractor.extract(body, extractHeadings(body))).toEqual(frameOf(body));
    expect(deterministicFrameExtractor.version).toBe('headings-v1');
  });

  test('a megabyte of text without structure is scanned and yields no frame', () => {
    const body = 'lorem ipsum: dolor sit amet '.repeat(40_000);
    expect(frameOf(body)).toBeNull();
  });

  test('a body that is not a string is an invalid_argument, not a crash', () => {
    expect(() => extractFrame(42 as unknown as string, [])).toThrow(LithosError);
    expect(() => extractFrame('', null as unknown as [])).toThrow(expect.objectContaining({ code: 'invalid_argument' }) as Error);
  });
});

describe('parseFrame: frames from outside (an LLM, a cache row)', () => {
  test('missing slots default to empty; phrases are cleaned and capped like extracted ones', () => {
    const f = parseFrame({ problem: ['  a **race**  '], actions: ['added a [[Mutex|mutex]]', 'added a [[Mutex|mutex]]'] });
    expect(f).toEqual({ problem: ['a race'], constraints: [], actions: ['added a mutex'], outcome: [], lessons: [] });
  });

  test('fewer than two filled slots is null', () => {
    expect(parseFrame({ problem: ['only this'] })).toBeNull();
  });

  test('a wrong shape is an invalid_argument naming the field', () => {
    let err: unknown;
    try {
      parseFrame({ problem: 'not a list' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LithosError);
    expect((err as LithosError).code).toBe('invalid_argument');
    expect((err as LithosError).message).toContain('problem');
    expect(() => parseFrame(null)).toThrow(LithosError);
  });
});
