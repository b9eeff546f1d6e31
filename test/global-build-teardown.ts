import { rmSync } from 'node:fs';
import { MADE_BUILD_ENV } from './build-once';

/** jest globalTeardown: removes the run's shared build (global-build.ts), if it made one. */
export default function removeGlobalBuild(): void {
  const dir = process.env[MADE_BUILD_ENV];
  if (dir) rmSync(dir, { recursive: true, force: true });
}
