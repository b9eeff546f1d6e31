import { combine, diffShare, type Contribution, type Fields } from '../../shared/replica/fields';
import { formatStamp, Hlc } from '../../shared/replica/hlc';
import { FakeClock } from '../twins/fake-clock';

const F: Fields = { n: { t: 'sum', int: true, min: 0 }, w: { t: 'sum' }, at: { t: 'max' }, state: { t: 'lww' }, priors: { t: 'summap' } };
const st = (ms: number, dev: string): string => formatStamp(ms, 0, dev);

describe('the merge algebra of learned rows', () => {
  it('combines shares the same whatever their order', () => {
    const shares: [string, Contribution][] = [
      ['bbbb', { a: [true, st(5, 'bbbb')], s: { n: 2, w: 0.1 }, m: { at: 9 }, l: { state: ['open', st(5, 'bbbb')] }, p: { priors: { x: 0.2 } } }],
      ['aaaa', { a: [true, st(3, 'aaaa')], s: { n: 1, w: 0.7 }, m: { at: 4 }, l: { state: ['resolved', st(7, 'aaaa')] }, p: { priors: { x: 0.1, y: 1 } } }],
      ['cccc', { a: [true, st(1, 'cccc')], s: { n: -1, w: 0.2 } }],
    ];
    const one = combine(F, shares);
    expect(combine(F, [...shares].reverse())).toEqual(one);
    expect(one).toEqual({ n: 2, w: 0.7 + 0.1 + 0.2, at: 9, state: 'resolved', priors: { x: 0.1 + 0.2, y: 1 } });
  });

  it('a device\'s share is its row minus what the others put in it, so both increments survive', () => {
    const clock = new FakeClock(100);
    const hlc = new Hlc(clock, 'aaaa');
    const other: [string, Contribution] = ['bbbb', { a: [true, st(50, 'bbbb')], s: { n: 3 } }];
    // this device saw the other's 3 and counted one more use: its share is +1
    const mine = diffShare(F, { n: 4, w: 0, state: null, priors: {} }, [other], undefined, () => hlc.now());
    expect(mine?.s?.n).toBe(1);
    // meanwhile the other counted two more: the row is 3 + 2 + 1
    expect(combine(F, [['bbbb', { ...other[1], s: { n: 5 } }], ['aaaa', mine as Contribution]])?.n).toBe(6);
  });

  it('a write newer than a delete keeps the row; a delete newer than every write removes it', () => {
    const del: Contribution = { a: [false, st(10, 'bbbb')], s: { n: -3 } };
    const write: Contribution = { a: [true, st(12, 'aaaa')], s: { n: 4 } };
    expect(combine(F, [['aaaa', write], ['bbbb', del]])?.n).toBe(1);
    expect(combine(F, [['aaaa', { ...write, a: [true, st(8, 'aaaa')] }], ['bbbb', del]])).toBeNull();
  });

  it('says nothing when the row already is what the shares say', () => {
    const other: [string, Contribution] = ['bbbb', { a: [true, st(5, 'bbbb')], s: { n: 3, w: 0 }, l: { state: ['open', st(5, 'bbbb')] }, p: { priors: {} } }];
    const row = combine(F, [other]);
    expect(diffShare(F, row, [other], undefined, () => st(9, 'aaaa'))).toBeNull();
  });

  it('the clock never goes back, and passes what it has seen', () => {
    let t = 1000;
    const hlc = new Hlc({ now: () => t }, 'aaaa');
    const first = hlc.now();
    t = 500; // the wall clock stepped back
    expect(hlc.now() > first).toBe(true);
    hlc.observe(st(5000, 'bbbb'));
    expect(hlc.now() > st(5000, 'bbbb')).toBe(true);
  });
});
