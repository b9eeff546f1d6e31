import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { openJobVault, type JobVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { writeConfig } from '../config';
import { printJson, progressLine, type Out } from './output';
import { createEmbedder, knownSpaces } from '../embedders';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/** config.json's model_dir for a folder given on the command line: relative to `.lithos/` when inside the vault, so the vault can move. */
export function configModelDir(vaultRoot: string, dir: string): string {
  const abs = resolve(dir);
  const inVault = relative(vaultRoot, abs);
  if (inVault === '..' || inVault.startsWith(`..${sep}`) || isAbsolute(inVault)) return abs;
  return relative(join(vaultRoot, '.lithos'), abs) || '.';
}

export interface ActivatedSpace {
  space: string;
  lazy: boolean;
  notes: number;
  embedded: number;
  active_spaces: string[];
  duration_ms: number;
}

/**
 * Activates a space on a vault opened for the reembed job: kept in config.json (with the model folder when one
 * is given), and, unless lazy, every note embedded into it now. `lithos reembed` and `lithos model pull` share it.
 */
export async function activateSpace(
  v: JobVault,
  o: { space: string; lazy: boolean; allowRemote: boolean; modelDir?: string; progress: boolean; logger: Logger },
): Promise<ActivatedSpace> {
  // A folder given here (e.g. the one the Obsidian plugin downloaded into) is kept for later opens.
  const config = o.modelDir === undefined ? v.config : { ...v.config, model_dir: configModelDir(v.root, o.modelDir) };
  const embedder = await createEmbedder(o.space, { vaultRoot: v.root, config, logger: o.logger, allowRemote: o.allowRemote });
  await v.engine.reconcile();
  const spaces = config.embedding_spaces.includes(o.space) ? config.embedding_spaces : [...config.embedding_spaces, o.space];
  await writeConfig(v.blobs, { ...config, embedding_spaces: spaces });
  const started = Date.now();
  const progress = progressLine(o.progress);
  const embedded = o.lazy ? 0 : await v.engine.services.search.addSpace(embedder, progress && ((done, total) => progress({ phase: 'embed', done, total })));
  return { space: o.space, lazy: o.lazy, notes: v.engine.services.notes.notes().length, embedded, active_spaces: spaces, duration_ms: Date.now() - started };
}

/**
 * `lithos reembed <vault> --space <id> [--lazy] [--model-dir <folder>]`: activates an embedding space. Batch mode embeds every
 * note now; --lazy only activates it, so notes are embedded when next touched. Queries search all
 * active spaces and merge, so search keeps working throughout the migration.
 */
export async function reembedCommand(
  vault: string,
  o: { space: string; lazy: boolean; allowRemote: boolean; modelDir?: string; json: boolean; out: Out; logger: Logger },
): Promise<number> {
  const v = await openJobVault(vault, 'reembed', { write: true, logger: o.logger });
  try {
    const result = await activateSpace(v, { ...o, progress: !o.json });
    const spaces = result.active_spaces;
    if (o.json) printJson(o.out, result);
    else if (o.lazy) o.out(`Space ${o.space} is active; notes are embedded into it as they change. Active spaces: ${spaces.join(', ')}.`);
    else o.out(`Embedded ${result.embedded} notes into ${o.space} in ${result.duration_ms} ms. Active spaces: ${spaces.join(', ')}.`);
    return 0;
  } finally {
    await v.close();
  }
}

export const reembedCmd = defineCommand({
  name: 'reembed',
  summary: 'activate an embedding space and embed every note into it (or lazily, as notes change)',
  positionals: [VAULT],
  options: {
    space: { type: 'string', help: 'the embedding space to activate (required)', value: 'id', choices: knownSpaces() },
    lazy: { type: 'boolean', help: 'only activate the space; notes are embedded when next touched' },
    'allow-remote': { type: 'boolean', help: 'let all-MiniLM-L6-v2 be downloaded when it is not on disk' },
    'model-dir': { type: 'string', help: 'where all-MiniLM-L6-v2 is (kept as config.json\'s model_dir)', value: 'folder' },
  },
  examples: ['lithos reembed ~/vault --space minilm-l6-v2 --model-dir ~/models/minilm', 'lithos reembed ~/vault --space minilm-l6-v2 --lazy'],
  run: ({ args: [vault], values, json, out, logger, usage }) => {
    if (values.space === undefined) throw usage(`--space <id> is required (one of: ${knownSpaces().join(', ')}).`);
    return reembedCommand(vault, { space: values.space, lazy: values.lazy, allowRemote: values['allow-remote'], modelDir: values['model-dir'], json, out, logger });
  },
});
