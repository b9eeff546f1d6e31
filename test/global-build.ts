import { MADE_BUILD_ENV, SHARED_BUILD_ENV, buildTo } from './build-once';

/** The part of jest's GlobalConfig read here. */
interface RunConfig {
  testPathPattern: string;
  onlyChanged: boolean;
  findRelatedTests: boolean;
  listTests: boolean;
}

/**
 * jest globalSetup: a run of the whole suite builds the plugin and the bridge once, for every spec file
 * (see build-once.ts). A run narrowed to some files skips it: those that need a build make their own,
 * so `npx jest test/model` pays for no build at all.
 */
export default function globalBuild(config: RunConfig): void {
  if (process.env[SHARED_BUILD_ENV]) return;
  if (config.testPathPattern || config.onlyChanged || config.findRelatedTests || config.listTests) return;
  process.env[SHARED_BUILD_ENV] = process.env[MADE_BUILD_ENV] = buildTo('lithos-test-build-');
}
