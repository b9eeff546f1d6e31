import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { fastParseYamlMapping } from '../../shared/model/frontmatter-fast';

/** The reference: what the `yaml` package makes of the text, or undefined when it reports errors. */
function reference(yaml: string): unknown {
  const doc = parseDocument(yaml);
  return doc.errors.length > 0 ? undefined : doc.toJS();
}

/** Scalars chosen to sit on every boundary of the core schema and of the fast path's subset. */
const TRICKY = [
  'plain', 'two words', 'Ünïcödé ✨', 'C#', 'a#b', 'a #b', 'a: b', 'a:b', 'x:', '-x', '- x', '-', '-5', '+5', '007',
  '0o17', '0o8', '0x1F', '0xG', '1e3', '1.5e-3', '.5', '5.', '+.5', '1_000', '.inf', '-.Inf', '+.INF', '.nan', '.NaN',
  'nan', 'inf', 'true', 'True', 'TRUE', 'tRue', 'false', 'yes', 'no', 'on', 'null', 'Null', 'NULL', 'nULL', '~', '',
  '2024-01-02', '2024-01-02T10:00:00Z', '12:30', '"quoted"', '"with # hash"', '"a\\"b"', '"\\n"', "'single'", "'it''s'",
  "'back\\slash'", '"unclosed', "'unclosed", '[a, b]', '[]', '[ ]', '[a, [b]]', '[a,]', '["x", \'y\']', '[a: b]', '[#x]',
  '{a: 1}', '|', '>', '&anchor x', '*alias', '!tag x', '%x', '@x', '`x`', '?x', ',x', 'a, b', 'trailing ', '12345678901234567890',
];
const KEYS = ['title', 'tags', 'a', 'my key', 'x.y', 'under_score', 'dash-key', 'k/v', 'true', 'null', 'Key'];

/** Random short strings over an alphabet full of YAML indicators, mixed with the tricky list. */
const value = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ unit: fc.constantFrom(...'ab Z09.+-_:#"\'[]{},~&*!|>%@`é/\\'), maxLength: 8 }),
);
const scalarLine = fc.tuple(fc.constantFrom(...KEYS), value).map(([k, v]) => `${k}: ${v}`);
const listBlock = fc
  .tuple(fc.constantFrom(...KEYS), fc.constantFrom('', '  ', '    '), fc.array(value, { maxLength: 4 }))
  .map(([k, indent, items]) => [`${k}:`, ...items.map((v) => `${indent}-${v === '' ? '' : ` ${v}`}`)].join('\n'));
const nestedBlock = fc
  .tuple(fc.constantFrom(...KEYS), fc.array(fc.tuple(fc.constantFrom('short', 'long', 'b'), value), { maxLength: 3 }))
  .map(([k, pairs]) => [`${k}:`, ...pairs.map(([pk, v]) => `  ${pk}: ${v}`)].join('\n'));
const oddLine = fc.constantFrom('', '# comment', '  # indented comment', '  continuation', '- stray', 'key:value', 'a:  ', '\tx: 1');
const doc = fc
  .array(
    fc.oneof(
      { arbitrary: scalarLine, weight: 6 },
      { arbitrary: listBlock, weight: 2 },
      { arbitrary: nestedBlock, weight: 2 },
      { arbitrary: oddLine, weight: 1 },
    ),
    { minLength: 1, maxLength: 6 },
  )
  // Suffix keys with their position so that most documents have no duplicate key.
  .map((ls) => ls.map((l, i) => l.replace(/^([A-Za-z][\w .\-/]*?):/, `$1${i}:`)).join('\n'));

describe('fastParseYamlMapping', () => {
  it('agrees exactly with the yaml package whenever it answers (generated documents)', () => {
    let answered = 0;
    fc.assert(
      fc.property(doc, (yaml) => {
        const fast = fastParseYamlMapping(yaml);
        if (fast !== undefined) {
          answered++;
          expect(fast).toEqual(reference(yaml));
        }
      }),
      { numRuns: 3000, seed: 20260101 },
    );
    // The comparison must not be vacuous: a fair share of the documents take the fast path.
    expect(answered).toBeGreaterThan(400);
  });

  it('agrees on every tricky scalar as a value, a list item and a flow item', () => {
    for (const v of TRICKY) {
      for (const yaml of [`k: ${v}`, `k:\n  - ${v}`, `k: [${v}]`, `k:\n  short: ${v}`]) {
        const fast = fastParseYamlMapping(yaml);
        if (fast !== undefined) expect({ yaml, value: fast }).toEqual({ yaml, value: reference(yaml) });
      }
    }
  });

  it('answers for the frontmatter notes usually carry (so the fast path is actually taken)', () => {
    const typical = [
      'id: 3f2b1c9e-1234-4abc-8def-0123456789ab',
      'title: Retrieval notes',
      'author: agent-7',
      'created_at: 2024-01-02',
      'tags: [memory, search]',
      'aliases:',
      '  - Retrieval',
      'confidence: 0.8',
      'note_type: concept',
      'entities: []',
      'summaries:',
      '  short: "Short: with a colon"',
      '  long: Longer text',
    ].join('\n');
    expect(fastParseYamlMapping(typical)).toEqual(reference(typical));
    expect(fastParseYamlMapping(typical)).toMatchObject({ confidence: 0.8, summaries: { short: 'Short: with a colon' } });
  });

  it.each([
    ['a duplicate key', 'a: 1\na: 2'],
    ['a block scalar', 'a: |\n  text'],
    ['a multi-line plain scalar', 'a: one\n  two'],
    ['a comment after a value', 'a: 1 # one'],
    ['an anchor', 'a: &x 1\nb: *x'],
    ['a non-ASCII key', 'título: x'],
    ['a __proto__ key', '__proto__: x'],
    ['an empty document', ''],
    ['a top-level list', '- a'],
    ['a CRLF line', 'a: 1\r\nb: 2'],
    ['deep nesting', 'a:\n  b:\n    c:\n      d: 1'],
  ])('leaves %s to the full parser', (_name, yaml) => {
    expect(fastParseYamlMapping(yaml)).toBeUndefined();
  });
});
