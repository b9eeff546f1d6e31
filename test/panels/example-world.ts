import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { EngineDeps } from '../../shared/engine';
import { openHarness, type Harness } from '../engine/harness';
import { FakeClock } from '../twins/fake-clock';
import { EXAMPLE_NOW, playExampleActivity, type ExampleActivity } from '../preview/example-activity';

const VAULT = path.join(__dirname, '..', '..', 'examples', 'vault');

/** Every file of examples/vault by vault path (dot-folders left out, as Obsidian does). */
export function exampleVaultFiles(root = VAULT): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const abs = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(abs).isDirectory()) walk(abs, r);
      else out[r] = readFileSync(abs, 'utf8');
    }
  };
  walk(root, '');
  return out;
}

export interface ExampleWorld extends Harness {
  activity: ExampleActivity;
}

/** The example vault indexed by a real engine over the in-memory twins, after the example activity. */
export async function openExampleWorld(deps: Partial<EngineDeps> = {}): Promise<ExampleWorld> {
  const clock = new FakeClock(EXAMPLE_NOW);
  const h = await openHarness(exampleVaultFiles(), { clock, deps });
  await h.engine.reconcile();
  const activity = await playExampleActivity(h.engine, (ms) => clock.advance(ms));
  return { ...h, activity };
}
