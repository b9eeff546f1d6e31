import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { NodeVault } from '../../bridge/node-vault';
import { LithosError } from '../../shared/errors';

/**
 * Another process flips `notes/racedir` between a folder and a symlink to `../outside` as fast as it can
 * while the vault writes, renames and deletes notes in it: nothing may land outside the vault, not even a
 * temp file. The flipper is bounded (it stops by itself after FLIPPER_MAX_MS, or when the test ends).
 */
const FLIPPER_MAX_MS = 60_000;
const FLIPPER = `
const fs = require('node:fs');
const [dir, held, target, maxMs] = process.argv.slice(1);
const end = Date.now() + Number(maxMs);
let flips = 0;
const quiet = (f) => { try { f(); } catch {} };
while (Date.now() < end) {
  quiet(() => fs.renameSync(dir, held));
  quiet(() => fs.symlinkSync(target, dir));
  quiet(() => fs.unlinkSync(dir));
  quiet(() => fs.renameSync(held, dir));
  if (++flips === 50) process.stdout.write('flipping\\n');
}
`;

let tmp: string;
let root: string;
let outside: string;
let flipper: ChildProcess | null = null;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lithos-race-'));
  root = path.join(tmp, 'vault');
  outside = path.join(tmp, 'outside');
  fs.mkdirSync(path.join(root, 'notes', 'racedir'), { recursive: true });
  fs.mkdirSync(outside);
});

afterEach(async () => {
  if (flipper && flipper.exitCode === null) {
    const gone = new Promise((r) => flipper!.once('exit', r));
    flipper.kill();
    await gone;
  }
  flipper = null;
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Starts the flipper and resolves once it has flipped 50 times (so the writes below meet a live race). */
function startFlipper(): Promise<void> {
  const dir = path.join(root, 'notes', 'racedir');
  flipper = spawn(process.execPath, ['-e', FLIPPER, dir, path.join(root, 'notes', '.racedir-held'), '../../outside', String(FLIPPER_MAX_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    flipper!.stdout!.once('data', () => resolve());
    flipper!.once('exit', (code) => reject(new Error(`flipper exited early (${code})`)));
  });
}

/** Every file under a folder, recursively (a symlink is listed, not followed). */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => path.join(e.parentPath, e.name));
}

describe('NodeVault under a symlink race', () => {
  it('puts nothing outside the vault while a folder on the path flips to a symlink and back', async () => {
    const vault = new NodeVault(root, { watchMode: 'poll' });
    await startFlipper();
    const outcomes = new Map<string, number>();
    const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    // 180 rounds, and more while none has written yet: on a busy machine every early round can meet the symlink.
    for (let i = 0; i < 180 || (!outcomes.has('written') && i < 5_000); i++) {
      const rel = `notes/racedir/n${i}.md`;
      try {
        await vault.write(rel, `note ${i}\n`);
        count('written');
        if (i % 3 === 0) {
          await vault.rename(rel, `notes/racedir/m${i}.md`);
          count('renamed');
        }
        if (i % 5 === 0) {
          await vault.delete(i % 3 === 0 ? `notes/racedir/m${i}.md` : rel);
          count('deleted');
        }
      } catch (err) {
        // Refusals are fine (the path was a symlink when looked at, or the folder was away): escapes are not.
        if (!(err instanceof LithosError)) throw err;
        count(err.code);
      }
    }
    expect(filesUnder(outside)).toEqual([]);
    // Writes went through during the race, and every refusal was one of ours, naming why.
    expect(outcomes.get('written')).toBeGreaterThan(0);
    const refusals = [...outcomes.keys()].filter((k) => !['written', 'renamed', 'deleted'].includes(k));
    for (const code of refusals) expect(['path_outside_vault', 'invalid_argument', 'not_found', 'conflict']).toContain(code);
  });
});
