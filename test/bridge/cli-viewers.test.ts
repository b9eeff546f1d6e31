import { readdirSync, readFileSync } from 'fs';
import path from 'path';
import { COMMANDS } from '../../bridge/commands/registry';
import { JOBS } from '../../bridge/open-vault';

/**
 * Who each `lithos` command acts as, one row per command of the registry (a new command fails here until it
 * is given a row). `person`: it opens the vault with openVault and reaches the memory only through the
 * person's session (OpenedVault has no engine, so the type checker holds it to that). `job:<name>`: it runs
 * one named internal job over the whole vault (openJobVault). `files`: it reads or writes .lithos/ files of
 * its own (policy, keys, learning settings, receipts, proposals, audit) and opens no memory at all. `own`:
 * it builds engines of its own over corpora or synthetic vaults (eval, bench); `mcp` serves agents, each call
 * through the caller's session (the dispatcher opens it).
 */
const VIEWERS: Record<string, string> = {
  index: 'job:index',
  search: 'person',
  retrieve: 'person',
  stats: 'job:stats',
  doctor: 'job:doctor',
  migrate: 'job:migrate',
  reembed: 'job:reembed',
  'model pull': 'job:reembed',
  eval: 'own',
  bench: 'own',
  demo: 'job:demo',
  mcp: 'mcp',
  receipts: 'files',
  events: 'files',
  conflicts: 'person',
  targets: 'person',
  drift: 'person',
  devices: 'person',
  git: 'job:git',
  'conflicts resolve': 'person',
  'conflicts scan': 'job:conflict-scan',
  'audit verify': 'files',
  consolidate: 'job:consolidate',
  reflect: 'job:consolidate',
  proposals: 'files',
  'proposals accept': 'person',
  'proposals reject': 'person',
  learning: 'files',
  policy: 'files',
  'agents key': 'files',
};

const DIR = path.resolve(__dirname, '../../bridge/commands');
const sources = readdirSync(DIR)
  .filter((f) => f.endsWith('-cmd.ts'))
  .map((f) => ({ file: f, src: readFileSync(path.join(DIR, f), 'utf8') }));

/** The file that defines a command: the one whose defineCommand names it. */
function fileOf(name: string): { file: string; src: string } {
  const quoted = name.replace(/'/g, "\\'");
  const found = sources.filter((s) => new RegExp(`defineCommand\\(\\{\\s*name: '${quoted}'`).test(s.src));
  if (found.length !== 1) throw new Error(`command "${name}" is defined in ${found.length} files`);
  return found[0];
}

const opensPerson = (src: string): boolean => /\bopenVault\(/.test(src);
const jobsOpened = (src: string): string[] => [...src.matchAll(/\bopenJobVault\(\s*\w+,\s*'([^']+)'/g)].map((m) => m[1]);
const importsEngine = (src: string): boolean => /shared\/engine'|MemoryEngine/.test(src);

describe('every CLI command acts as one declared viewer', () => {
  test('each command of the registry has a row, and each row a command', () => {
    expect(Object.keys(VIEWERS).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });

  test.each(COMMANDS.map((c) => [c.name, VIEWERS[c.name] ?? '(no row)']))('%s: %s', (name, viewer) => {
    const { src } = fileOf(name);
    const jobs = jobsOpened(src);
    expect(importsEngine(src)).toBe(false);
    if (viewer === 'person') {
      expect({ person: opensPerson(src), jobs }).toEqual({ person: true, jobs: [] });
    } else if (viewer.startsWith('job:')) {
      const job = viewer.slice(4);
      expect(JOBS).toContain(job);
      expect({ person: opensPerson(src), jobs }).toEqual({ person: false, jobs: [job] });
    } else {
      expect(['files', 'own', 'mcp']).toContain(viewer);
      expect({ person: opensPerson(src), jobs }).toEqual({ person: false, jobs: [] });
    }
  });

  test('the checks read the sources they judge', () => {
    expect(opensPerson("const v = await openVault(vault, { write: false });")).toBe(true);
    expect(jobsOpened("await openJobVault(vault, 'index', { write: true })")).toEqual(['index']);
    expect(importsEngine("import type { MemoryEngine } from '../../shared/engine';")).toBe(true);
  });
});
