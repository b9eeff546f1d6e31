import { probeIgnoresCase, type CaseProbeFs } from '../../shared/vault/case-probe';

/** Telling from the vault folder itself whether its disk ignores case (VaultPort.caseInsensitive). */

function disk(names: string[], ignoresCase: boolean): CaseProbeFs {
  const key = (n: string) => (ignoresCase ? n.toLowerCase() : n);
  const ino = new Map(names.map((n, i) => [key(n), i + 1]));
  return {
    realpath: (p) => p,
    readdir: () => names,
    identity: (p) => {
      const id = ino.get(key(p.slice(p.lastIndexOf('/') + 1)));
      return id === undefined ? null : { ino: id, dev: 1 };
    },
    join: (a, b) => `${a}/${b}`,
  };
}

test.each([
  ['a disk that ignores case', disk(['Notes', 'Plan.md'], true), true],
  ['a case-sensitive disk', disk(['Notes', 'Plan.md'], false), false],
  ['a case-sensitive disk holding both spellings (two files)', disk(['plan.md', 'PLAN.md'], false), false],
  ['no name with letters: cannot tell', disk(['2026', '42'], true), null],
  ['an empty vault: cannot tell', disk([], true), null],
])('%s', (_what, fs, expected) => {
  expect(probeIgnoresCase(fs, '/vault')).toBe(expected);
});

test('an unreadable folder cannot tell either', () => {
  const fs = { ...disk(['Plan.md'], true), readdir: () => { throw new Error('EACCES'); } };
  expect(probeIgnoresCase(fs, '/vault')).toBeNull();
});
