import { LithosError } from '../errors';
import type { BlobStore } from '../ports';
import { isUuid, newId } from './ids';
import { namespaceFromPath } from './namespace';
import { CURRENT_SCHEMA_VERSION, type ParsedNote } from './types';

/** One field a migration sets. `before` is null when the field was absent. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface MigrationPlan {
  from: number;
  to: number;
  changes: FieldChange[];
  /** Why the note is left alone, when it is (unreadable or newer schema_version). */
  skipped?: string;
}

export interface MigrationOptions {
  /** The id to write when the note has none (e.g. one the engine's registry already uses for this path). */
  id?: string;
  /** Id source when `id` is not given; defaults to a random UUID. Inject for deterministic plans. */
  newId?: () => string;
}

export interface Migration {
  from: number;
  to: number;
  name: string;
  /** Changes for a note at version `from`; only adds absent fields, never removes or renames. */
  plan(frontmatter: Readonly<Record<string, unknown>>, path: string, makeId: () => string): FieldChange[];
}

export interface MigrationRegistry {
  current_version: number;
  migrations: { from: number; to: number; name: string }[];
}

/** Name of the registry inside `<vault>/.lithos/` (BlobStore names are relative to that folder). */
export const REGISTRY_BLOB = 'migrations/registry.json';

const isAbsent = (v: unknown): boolean => v === undefined || v === null;

export const MIGRATIONS: readonly Migration[] = [
  {
    from: 1,
    to: 2,
    name: 'add_lcma_fields',
    plan(fm, path, makeId) {
      const changes: FieldChange[] = [];
      const fill = (field: string, value: () => unknown): void => {
        if (isAbsent(fm[field])) changes.push({ field, before: fm[field] ?? null, after: value() });
      };
      // An id that is present but not a UUID is the user's data: reported by parseNote, never overwritten.
      fill('id', makeId);
      fill('namespace', () => namespaceFromPath(path));
      fill('access_scope', () => 'shared');
      fill('note_type', () => 'observation');
      fill('status', () => 'active');
      fill('entities', () => []);
      changes.push({ field: 'schema_version', before: fm.schema_version ?? null, after: 2 });
      return changes;
    },
  },
];

/**
 * What migrating this frontmatter to the current schema would change, without changing anything.
 * Notes already current, newer than this engine, or with an unreadable schema_version get no changes.
 */
export function planMigration(
  frontmatter: Readonly<Record<string, unknown>>,
  path: string,
  options: MigrationOptions = {},
): MigrationPlan {
  const raw = frontmatter.schema_version;
  const from = isAbsent(raw) ? 1 : raw;
  if (typeof from !== 'number' || !Number.isInteger(from) || from < 1) {
    return { from: 1, to: 1, changes: [], skipped: `schema_version ${JSON.stringify(raw)} is not a version number` };
  }
  if (from > CURRENT_SCHEMA_VERSION) {
    return { from, to: from, changes: [], skipped: `schema_version ${from} is newer than this engine's ${CURRENT_SCHEMA_VERSION}` };
  }
  if (options.id !== undefined && !isUuid(options.id)) {
    throw new LithosError('invalid_argument', `Migration id "${options.id}" is not a UUID.`, { id: options.id });
  }
  let pendingId: string | undefined = options.id;
  const makeId = (): string => (pendingId ??= (options.newId ?? newId)());
  // Later migrations see the earlier ones' results, as they will after writing.
  const working: Record<string, unknown> = { ...frontmatter };
  const changes: FieldChange[] = [];
  let version = from;
  while (version < CURRENT_SCHEMA_VERSION) {
    const step = MIGRATIONS.find((m) => m.from === version);
    if (!step) throw new LithosError('internal', `No migration from schema_version ${version}.`, { version });
    for (const c of step.plan(working, path, makeId)) {
      working[c.field] = c.after;
      const earlier = changes.find((e) => e.field === c.field);
      if (earlier) earlier.after = c.after;
      else changes.push(c);
    }
    version = step.to;
  }
  return { from, to: version, changes };
}

/**
 * Migrates in place (meant to run inside `VaultPort.processFrontMatter`) and returns what was done.
 * Running it again changes nothing.
 */
export function applyMigration(frontmatter: Record<string, unknown>, path: string, options: MigrationOptions = {}): MigrationPlan {
  const plan = planMigration(frontmatter, path, options);
  for (const c of plan.changes) frontmatter[c.field] = Array.isArray(c.after) ? (c.after as unknown[]).slice() : c.after;
  return plan;
}

/** Whether a parsed note's frontmatter can be migrated: readable text with no YAML or shape problems. */
export function canMigrate(note: ParsedNote): boolean {
  return !note.problems.some((p) => p.code === 'binary_file' || p.code === 'yaml_malformed' || p.code === 'frontmatter_not_mapping');
}

/** The registry this engine describes. */
export function currentRegistry(): MigrationRegistry {
  return {
    current_version: CURRENT_SCHEMA_VERSION,
    migrations: MIGRATIONS.map(({ from, to, name }) => ({ from, to, name })),
  };
}

/**
 * The stored registry; created from `currentRegistry()` when missing. The registry only describes
 * code, so an unreadable one is rewritten rather than reported.
 */
export async function readRegistry(blobs: BlobStore): Promise<MigrationRegistry> {
  const stored = decodeRegistry(await blobs.read(REGISTRY_BLOB));
  return stored ?? writeRegistry(blobs);
}

/**
 * Writes this engine's registry, merged with what is stored (and with `extra`, e.g. one read earlier):
 * entries only a newer engine knows are kept and `current_version` never goes down.
 */
export async function writeRegistry(blobs: BlobStore, extra?: MigrationRegistry): Promise<MigrationRegistry> {
  const ours = currentRegistry();
  const stored = decodeRegistry(await blobs.read(REGISTRY_BLOB));
  for (const other of [stored, extra]) {
    if (!other) continue;
    for (const m of other.migrations) {
      if (!ours.migrations.some((o) => o.from === m.from && o.to === m.to)) ours.migrations.push(m);
    }
    ours.current_version = Math.max(ours.current_version, other.current_version);
  }
  ours.migrations.sort((a, b) => a.from - b.from || a.to - b.to);
  await blobs.writeAtomic(REGISTRY_BLOB, new TextEncoder().encode(`${JSON.stringify(ours, null, 2)}\n`));
  return ours;
}

function decodeRegistry(bytes: Uint8Array | null): MigrationRegistry | null {
  if (!bytes) return null;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (!Number.isInteger(v.current_version) || !Array.isArray(v.migrations)) return null;
  const migrations: MigrationRegistry['migrations'] = [];
  for (const m of v.migrations as unknown[]) {
    const e = m as Record<string, unknown>;
    if (typeof m !== 'object' || m === null || !Number.isInteger(e.from) || !Number.isInteger(e.to) || typeof e.name !== 'string') {
      return null;
    }
    migrations.push({ from: e.from as number, to: e.to as number, name: e.name });
  }
  return { current_version: v.current_version as number, migrations };
}
