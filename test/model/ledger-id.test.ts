import { formatLedgerId, isFullLedgerId, ledgerRefOfTarget, parseLedgerId, shortLedgerId } from '../../shared/model/ledger-id';
import { parseNote } from '../../shared/model/note';

const refs = (body: string, fm = ''): [string, number | string][] =>
  parseNote('n.md', `${fm ? `---\n${fm}\n---\n` : ''}${body}`)
    .links.filter((l) => l.kind === 'ledger')
    .map((l) => [l.target, l.property ?? l.line]);

describe('ledger ID text', () => {
  test('format and parse: prefix, sequence padded to three digits (more when it grows), four base32 tag characters', () => {
    expect(formatLedgerId('E', 7, 'k3xq')).toBe('E007-k3xq');
    expect(formatLedgerId('D', 1234, 'abcd')).toBe('D1234-abcd');
    expect(parseLedgerId('E007-k3xq')).toEqual({ kind: 'claim', prefix: 'E', seq: 7, tag: 'k3xq' });
    expect(parseLedgerId('W003')).toEqual({ kind: 'workflow', prefix: 'W', seq: 3, tag: null });
    expect(parseLedgerId('C021-ab2z')?.kind).toBe('construct');
    for (const bad of ['E7', 'E07', 'X007', 'E000', 'E007-k3x', 'E007-K3XQ', 'E007-k1xq', 'e007', 'E007-k3xqq']) expect([bad, parseLedgerId(bad)]).toEqual([bad, null]);
    expect(isFullLedgerId('E007-k3xq')).toBe(true);
    expect(isFullLedgerId('E007')).toBe(false);
    expect(shortLedgerId('E007-k3xq')).toBe('E007');
    // Links match IDs in any case.
    expect(ledgerRefOfTarget('e007-K3XQ')).toBe('E007-k3xq');
    expect(ledgerRefOfTarget('Pool sizing')).toBeNull();
  });

  test('plain references in prose, not in code, links, URLs, paths, tags or longer words; whole-ID property values', () => {
    expect(refs('Contradicts E007, supersedes W003-abcd.\n(see C021) and D012.')).toEqual([
      ['E007', 0],
      ['W003-abcd', 0],
      ['C021', 1],
      ['D012', 1],
    ]);
    expect(refs('`E001` and\n```\nE002\n```\n[[E003]] [x](E004.md) https://h.example/E005 a/E006 #E007 E008x XE009 E010-foo v1.E011')).toEqual([]);
    expect(refs('Body.', 'ledger_id: E001-abcd\nsupersedes: [E003]\nevidence:\n  - ref: E007-k3xq\n    stance: supports\nsource: see E009 there')).toEqual([
      ['E003', 'supersedes.0'],
      ['E007-k3xq', 'evidence.0.ref'],
    ]);
  });
});
