// `npm run test:stress`: the jest suite with a CPU hog on every core for its whole length, so a test that
// needs a quiet machine (a wall-clock window, a race that a slow scheduler loses) fails here rather than
// on a newcomer's busy laptop or a slow CI runner. Extra arguments go to jest (`-- test/plugin`).
// The hogs stop when jest ends or this script gets a signal, and on their own after HOG_LIMIT_MS or as
// soon as this script is gone (their parent changes), so a killed run leaves nothing spinning.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOG_LIMIT_MS = 30 * 60_000;
const cores = os.availableParallelism();

// Spins for HOG_LIMIT_MS; every ~10 ms of work it checks the clock and that its parent is still this script.
const hogCode = `
const end = Date.now() + ${HOG_LIMIT_MS};
const parent = process.ppid;
let x = 0;
while (Date.now() < end && process.ppid === parent) for (let i = 0; i < 1e6; i++) x = (x + i) % 7;
`;

const hogs = Array.from({ length: cores }, () => spawn(process.execPath, ['-e', hogCode], { stdio: 'ignore' }));
const stopHogs = () => {
  for (const h of hogs) if (h.exitCode === null && h.signalCode === null) h.kill('SIGKILL');
};
process.on('exit', stopHogs);

console.log(`test:stress: ${cores} CPU hog(s) running (one per core, self-stopping after ${HOG_LIMIT_MS / 60_000} min); load before: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const started = Date.now();
const jest = spawn(process.execPath, [path.join(ROOT, 'node_modules/jest/bin/jest.js'), ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    stopHogs();
    jest.kill(sig);
  });
}

jest.on('exit', (code, signal) => {
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  stopHogs();
  console.log(`test:stress: jest ${signal ? `killed by ${signal}` : `exited ${code}`} after ${((Date.now() - started) / 1000).toFixed(0)} s under ${cores} hog(s); load at the end: ${load}`);
  process.exit(code ?? 1);
});
