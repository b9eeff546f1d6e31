import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { walkNotes } from '../../bridge/vault-walk';

/** The CommonJS module object (the namespace import's properties cannot be redefined by spyOn). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsModule = require('node:fs') as typeof fs;

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lithos-walk-'));
});

afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('walkNotes on a big folder', () => {
  it('lstats at most one slice of notes per event-loop turn, so other work runs during a big walk, and still lists every note', async () => {
    for (const dir of ['big', 'big/inner', 'other']) fs.mkdirSync(path.join(root, dir), { recursive: true });
    for (let i = 0; i < 700; i++) fs.writeFileSync(path.join(root, 'big', `n${String(i).padStart(3, '0')}.md`), `note ${i}`);
    for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(root, 'big/inner', `m${i}.md`), 'x');
    for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(root, 'other', `o${i}.md`), 'x');
    const lstatSync = fs.lstatSync.bind(fs);
    let sinceTick = 0;
    let most = 0;
    jest.spyOn(fsModule, 'lstatSync').mockImplementation(((p: fs.PathLike, o?: fs.StatSyncOptions) => {
      most = Math.max(most, ++sinceTick);
      return lstatSync(p, o);
    }) as typeof fs.lstatSync);
    let done = false;
    let ticks = 0;
    const tick = (): void => {
      ticks++;
      sinceTick = 0;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);

    const notes = await walkNotes(root, {});
    done = true;

    expect(notes).toHaveLength(900);
    expect(notes[0].path).toBe('big/inner/m0.md');
    expect(notes.filter((n) => n.path.startsWith('big/n'))).toHaveLength(700);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(256);
    expect(ticks).toBeGreaterThanOrEqual(3);
  });

  it('a note deleted between the listing and its lstat is skipped and reported', async () => {
    fs.writeFileSync(path.join(root, 'a.md'), 'a');
    fs.writeFileSync(path.join(root, 'b.md'), 'b');
    const lstatSync = fs.lstatSync.bind(fs);
    jest.spyOn(fsModule, 'lstatSync').mockImplementation(((p: fs.PathLike, o?: fs.StatSyncOptions) => {
      if (String(p).endsWith('b.md')) fs.unlinkSync(p); // unlink: rmSync itself calls lstatSync
      return lstatSync(p, o);
    }) as typeof fs.lstatSync);
    const skipped: [string, string | undefined][] = [];
    const notes = await walkNotes(root, { onSkip: (raw, errno) => skipped.push([raw, errno]) });
    expect(notes.map((n) => n.path)).toEqual(['a.md']);
    expect(skipped).toEqual([['b.md', 'ENOENT']]);
  });
});
