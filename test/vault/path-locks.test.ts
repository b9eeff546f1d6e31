import { PathLocks } from '../../shared/vault/path-locks';

/** Records the order in which holders enter and leave; each holder waits for its own release. */
function recorder() {
  const log: string[] = [];
  const gates = new Map<string, () => void>();
  const hold = (name: string) => async () => {
    log.push(`in ${name}`);
    await new Promise<void>((r) => gates.set(name, r));
    log.push(`out ${name}`);
    return name;
  };
  const open = async (name: string) => {
    while (!gates.has(name)) await Promise.resolve();
    gates.get(name)!();
  };
  return { log, hold, open };
}

describe('PathLocks', () => {
  it('runs holders of one path one after another, in arrival order', async () => {
    const locks = new PathLocks(false);
    const r = recorder();
    const a = locks.with(['n.md'], r.hold('a'));
    const b = locks.with(['n.md'], r.hold('b'));
    await r.open('a');
    await r.open('b');
    await expect(Promise.all([a, b])).resolves.toEqual(['a', 'b']);
    expect(r.log).toEqual(['in a', 'out a', 'in b', 'out b']);
    expect(locks.size).toBe(0);
  });

  it('lets different paths run side by side', async () => {
    const locks = new PathLocks(false);
    const r = recorder();
    const a = locks.with(['a.md'], r.hold('a'));
    const b = locks.with(['b.md'], r.hold('b'));
    await r.open('b');
    await r.open('a');
    await Promise.all([a, b]);
    expect(r.log.slice(0, 2).sort()).toEqual(['in a', 'in b']);
  });

  it('on a case-insensitive disk, two spellings of one name (and NFC/NFD) share a lock', async () => {
    const locks = new PathLocks(true);
    const r = recorder();
    const a = locks.with(['Café.md'], r.hold('a'));
    const b = locks.with(['cafe\u0301.MD'], r.hold('b'));
    await r.open('a');
    await r.open('b');
    await Promise.all([a, b]);
    expect(r.log).toEqual(['in a', 'out a', 'in b', 'out b']);
  });

  it('a holder that throws releases the path', async () => {
    const locks = new PathLocks(false);
    await expect(locks.with(['n.md'], () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.with(['n.md'], async () => 'next')).resolves.toBe('next');
    expect(locks.size).toBe(0);
  });

  it('holders of several paths never deadlock with holders of the same paths in another order', async () => {
    const locks = new PathLocks(false);
    const done = await Promise.all([locks.with(['x.md', 'y.md'], async () => 1), locks.with(['y.md', 'x.md'], async () => 2), locks.with(['y.md'], async () => 3)]);
    expect(done).toEqual([1, 2, 3]);
  });
});
