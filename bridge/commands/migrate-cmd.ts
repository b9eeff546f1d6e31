import { asLithosError } from '../../shared/errors';
import { openJobVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { planMigration, applyMigration, readRegistry, writeRegistry } from '../../shared/model/migrations';
import { isUuid } from '../../shared/model/ids';
import { printJson, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

const UNSAFE = new Set(['yaml_malformed', 'frontmatter_not_mapping', 'binary_file']);

/**
 * `lithos migrate <vault> [--dry-run] [--json]`: brings every note's frontmatter to the current schema
 * version. Fields are only ever added; notes whose frontmatter cannot be parsed are left untouched and listed.
 * A note without an id gets the id the registry already tracks it under, so its learned signals stay attached.
 */
export async function migrateCommand(vault: string, o: { dryRun: boolean; json: boolean; out: Out; logger: Logger }): Promise<number> {
  const v = await openJobVault(vault, 'migrate', { write: true, logger: o.logger });
  try {
    await v.engine.reconcile();
    const registry = await readRegistry(v.blobs);
    const changes: { path: string; from: number; to: number; changes: { field: string; before: unknown; after: unknown }[] }[] = [];
    const skipped: { path: string; reason: string }[] = [];
    for (const note of v.engine.services.notes.notes().sort((a, b) => a.path.localeCompare(b.path))) {
      const parsed = await v.engine.services.notes.parse(note.path);
      const bad = parsed.problems.find((p) => UNSAFE.has(p.code));
      if (bad) {
        skipped.push({ path: note.path, reason: bad.message });
        continue;
      }
      const withId = (fm: Record<string, unknown>) => {
        if (!isUuid(fm.id)) fm.id = note.nodeId;
      };
      const draft = structuredClone(parsed.frontmatter);
      withId(draft);
      const plan = planMigration(draft, note.path);
      if (!isUuid(parsed.frontmatter.id)) plan.changes.unshift({ field: 'id', before: parsed.frontmatter.id, after: note.nodeId });
      if (plan.changes.length === 0) continue;
      if (!o.dryRun) {
        // One note that cannot be written (changed meanwhile, read-only file) is reported and skipped; the
        // rest still migrate, and running migrate again finishes the job (it is idempotent).
        try {
          await v.engine.services.notes.updateFrontmatter(note.path, (fm) => {
            withId(fm);
            applyMigration(fm, note.path);
          });
        } catch (err) {
          skipped.push({ path: note.path, reason: asLithosError(err).message });
          continue;
        }
      }
      changes.push({ path: note.path, from: plan.from, to: plan.to, changes: plan.changes });
    }
    if (!o.dryRun) await writeRegistry(v.blobs, registry);
    const result = {
      dry_run: o.dryRun,
      current_version: registry.current_version,
      notes: v.engine.services.notes.notes().length,
      to_migrate: changes.length,
      migrated: o.dryRun ? 0 : changes.length,
      skipped,
      changes,
    };
    if (o.json) printJson(o.out, result);
    else {
      o.out(`${o.dryRun ? 'Would migrate' : 'Migrated'} ${changes.length} of ${result.notes} notes to schema version ${registry.current_version}.`);
      for (const c of changes) o.out(`  ${c.path}: v${c.from} → v${c.to}: ${c.changes.map((x) => x.field).join(', ')}`);
      for (const s of skipped) o.out(`  skipped ${s.path}: ${s.reason}`);
    }
    return 0;
  } finally {
    await v.close();
  }
}

export const migrateCmd = defineCommand({
  name: 'migrate',
  summary: 'bring every note\'s frontmatter to the current schema version (fields are only added)',
  positionals: [VAULT],
  options: {
    'dry-run': { type: 'boolean', help: 'list what would change and write nothing' },
  },
  examples: ['lithos migrate ~/vault --dry-run', 'lithos migrate ~/vault'],
  run: ({ args: [vault], values, json, out, logger }) => migrateCommand(vault, { dryRun: values['dry-run'], json, out, logger }),
});
