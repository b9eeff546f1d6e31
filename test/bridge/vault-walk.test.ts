import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { walkNotes } from '../../bridge/vault-walk';

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lithos-walk-'));
});

afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('walkNotes on a big folder', () => {
  it('keeps a bounded number of lstat calls in flight (their callbacks land in one event-loop turn) and still lists every note', async () => {
    for (const dir of ['big', 'big/inner', 'other']) fs.mkdirSync(path.join(root, dir), { recursive: true });
    for (let i = 0; i < 300; i++) fs.writeFileSync(path.join(root, 'big', `n${String(i).padStart(3, '0')}.md`), `note ${i}`);
    for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(root, 'big/inner', `m${i}.md`), 'x');
    for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(root, 'other', `o${i}.md`), 'x');
    const lstat = fs.promises.lstat.bind(fs.promises);
    let inFlight = 0;
    let most = 0;
    jest.spyOn(fs.promises, 'lstat').mockImplementation(async (p: fs.PathLike) => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        return await lstat(p);
      } finally {
        inFlight--;
      }
    });

    const notes = await walkNotes(root, {});

    expect(notes).toHaveLength(500);
    expect(notes[0].path).toBe('big/inner/m0.md');
    expect(notes.filter((n) => n.path.startsWith('big/n'))).toHaveLength(300);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(64);
  });
});
