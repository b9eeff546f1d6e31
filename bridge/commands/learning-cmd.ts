import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LithosError } from '../../shared/errors';
import { AuditLog } from '../../shared/governance/audit';
import { systemClock, type BlobStore, type Logger } from '../../shared/ports';
import { LEARNING_FILE, LearningStore } from '../../shared/learning/learning-store';
import { DEFAULT_LEARNING, TUNABLES, defaultOf, overrideOf, rangeText, tunable, type LearningOverrides } from '../../shared/learning/tunables';
import { acquireLock } from '../lock';
import { checkVaultFolder } from '../open-vault';
import { NodeBlobStore } from '../node-blob-store';
import { ReadOnlyBlobStore } from '../read-only-blobs';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/**
 * `lithos learning <vault>`: the vault's learning constants
 * (.lithos/learning.json). Showing them is read-only and lock-free; --set and --reset take the writer lock
 * (the audit log has one writer) but open no index, and are audited as the person ('learning.set').
 */
export async function learningCommand(vault: string, o: { set: readonly string[]; reset: boolean; json: boolean; out: Out; logger: Logger }): Promise<number> {
  const root = await checkVaultFolder(vault);
  if (o.reset && o.set.length > 0) throw new LithosError('invalid_argument', 'Give --reset or --set, not both.', { field: 'reset' });
  const disk = new NodeBlobStore(join(root, '.lithos'));
  if (!o.reset && o.set.length === 0) {
    // No logger: a damaged file's problem is printed by report, once.
    report(await LearningStore.open({ blobs: new ReadOnlyBlobStore(disk), clock: systemClock }), root, o);
    return 0;
  }
  const changes = o.set.map(parseAssignment);
  const lock = await acquireLock(join(root, '.lithos'), { owner: 'cli' });
  try {
    const store = await open(disk, o.logger);
    if (store.problem && !o.reset) {
      // The file's overrides could not be read: a --set would write only this one and lose the rest unseen.
      throw new LithosError('invalid_argument', `${store.problem} Fix the file by hand first, or start over from the defaults with --reset: a --set here would replace it.`, { field: 'learning' });
    }
    if (o.reset) await store.reset();
    else await store.set(applied(store.overrides(), changes));
    report(store, root, o);
    return 0;
  } finally {
    await lock.release();
  }
}

async function open(blobs: BlobStore, logger: Logger): Promise<LearningStore> {
  const audit = await AuditLog.open({ blobs, clock: systemClock, logger });
  return LearningStore.open({ blobs, clock: systemClock, logger, audit });
}

/** `quarantine_at=2`, `feedback.used_edge=0.05`; `=default` (or nothing after =) puts the default back. */
function parseAssignment(s: string): { key: string; value: number | string | null } {
  const eq = s.indexOf('=');
  if (eq <= 0) throw new LithosError('invalid_argument', `--set takes key=value, like feedback.quarantine_at=2 (got "${s}").`, { field: 'set' });
  const key = tunable(s.slice(0, eq).trim()).key;
  const text = s.slice(eq + 1).trim();
  if (text === '' || text === 'default') return { key, value: null };
  // Plain decimals only (Number() would also read 0x10 as 16); anything else stays text, so the store's
  // range check names it (got "two").
  return { key, value: /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) ? Number(text) : text };
}

function applied(current: LearningOverrides, changes: { key: string; value: number | string | null }[]): Record<string, Record<string, unknown>> {
  const out = Object.fromEntries(Object.entries(current).map(([g, v]) => [g, { ...v }])) as Record<string, Record<string, unknown>>;
  for (const c of changes) {
    const t = tunable(c.key);
    const group = (out[t.group] ??= {});
    if (c.value === null) delete group[t.name];
    else group[t.name] = c.value;
  }
  return out;
}

/** The notes the engine keeps for the person (briefing, timeline): where, whether that is the default, whether one exists yet. */
function personNotes(store: LearningStore, root: string): Record<'briefing' | 'timeline', { path: string | null; default: boolean; exists: boolean }> {
  const c = store.get();
  const one = (path: string | null, fallback: string | null) => ({ path, default: path === fallback, exists: path !== null && existsSync(join(root, path)) });
  return { briefing: one(c.briefing.path, DEFAULT_LEARNING.briefing.path), timeline: one(c.timeline.path, DEFAULT_LEARNING.timeline.path) };
}

function report(store: LearningStore, root: string, o: { json: boolean; out: Out }): void {
  const overrides = store.overrides();
  const notes = personNotes(store, root);
  if (o.json) {
    printJson(o.out, { file: `.lithos/${LEARNING_FILE}`, problem: store.problem, overrides, constants: store.get(), notes });
    return;
  }
  if (store.problem) o.out(`Warning: ${store.problem}`);
  const rows = TUNABLES.map((t) => {
    const v = overrideOf(overrides, t);
    return [t.key, String(v ?? defaultOf(t)), v === undefined ? 'default' : `default ${defaultOf(t)}`, rangeText(t)];
  });
  o.out(table([['constant', 'value', '', 'allowed'], ...rows]));
  const n = TUNABLES.filter((t) => overrideOf(overrides, t) !== undefined).length;
  o.out(`${n} of ${TUNABLES.length} overridden in .lithos/${LEARNING_FILE}. Change one: lithos learning <vault> --set key=value (or key=default); all: --reset.`);
  o.out('');
  const noteRows = (['briefing', 'timeline'] as const).map((k) => {
    const x = notes[k];
    const fallback = DEFAULT_LEARNING[k].path;
    const where = x.path === null ? 'none kept' : x.path;
    const state = x.path === null ? '' : x.exists ? 'exists' : 'not written yet (the plugin or lithos mcp writes it once there is something to say)';
    return [`${k}.path`, where, x.default ? 'default' : `default ${fallback ?? 'none'}`, state];
  });
  o.out(table([['your note', 'path', '', 'state'], ...noteRows]));
  o.out(`Move or turn off one: set its path (null: none) in .lithos/${LEARNING_FILE}.`);
}

export const learningCmd = defineCommand({
  name: 'learning',
  summary: 'show or change the vault\'s learning constants (.lithos/learning.json)',
  positionals: [VAULT],
  options: {
    set: { type: 'string', help: 'change one constant; key=default puts its default back', value: 'key=value', multiple: true },
    reset: { type: 'boolean', help: 'every constant back to its default' },
  },
  examples: ['lithos learning ~/vault', 'lithos learning ~/vault --set feedback.quarantine_at=2 --set decay.edge_half_life_days=default'],
  run: ({ args: [vault], values, json, out, logger }) => learningCommand(vault, { ...values, json, out, logger }),
});
