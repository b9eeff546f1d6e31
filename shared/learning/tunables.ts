/**
 * The learning constants a vault may override (`.lithos/learning.json`, learning-store.ts): their allowed
 * ranges, how an override file is validated, and the effective constants it yields. The defaults stay in
 * constants.ts, the one table of them; this file only says which of them are tunable and within what.
 */
import { z } from 'zod';
import { LithosError } from '../errors';
import { DEFAULT_IMMORTAL_EVENT_KINDS, EVENT_KINDS, type EventKind } from '../model/events';
import { BRIEFING_NOTE_PATH } from '../ledger/briefing';
import { TIMELINE_NOTE_PATH } from '../ledger/timeline';
import { DECAY, DRIFT, EVENTS, FEEDBACK, SUPPORT } from './constants';

type Numbers<T> = { -readonly [K in keyof T]: number };

/** The constants the learning code reads (feedback.ts, decay.ts, support.ts), overrides applied. */
export interface LearningConstants {
  feedback: Numbers<typeof FEEDBACK>;
  decay: { edge_half_life_days: number; edge_prune_below: number };
  support: Numbers<typeof SUPPORT>;
  /** Episodic events' lifetimes (learning/event-ageing.ts); immortal_kinds is the one list among the constants. */
  events: { ttl_days: number; archive_days: number; immortal_kinds: readonly EventKind[] };
  /** Drift triage's thresholds in days (learning/drift.ts). */
  drift: Numbers<typeof DRIFT>;
  /** Where the person's briefing note is kept (ledger/briefing.ts); null: none is kept. Not a number, so not in TUNABLES. */
  briefing: { path: string | null };
  /** Where the person's timeline note is kept (ledger/timeline.ts); null: none is kept. */
  timeline: { path: string | null };
  /** The vault folder where devices exchange learned state (docs/devices.md); null: this vault's learning stays on each device. */
  devices: { folder: string | null };
  /** The repository whose commits become events (git-repository.ts): a directory, absolute or relative to the vault folder; null: the one holding the vault. */
  git: { repository: string | null };
}

export type LearningGroup = keyof LearningConstants;
/** The groups of numeric constants (the briefing's and the timeline's paths, the devices folder, the git repository are settings of their own). */
type NumberGroup = Exclude<LearningGroup, 'briefing' | 'timeline' | 'devices' | 'git'>;

/** Where devices exchange learned state by default: an ordinary folder, so sync tools that skip dot folders carry it. */
export const DEVICES_FOLDER = 'Lithos/Devices';

export const DEFAULT_LEARNING: Readonly<LearningConstants> = deepFreeze({
  feedback: { ...FEEDBACK },
  decay: { edge_half_life_days: DECAY.edge_half_life_days, edge_prune_below: DECAY.edge_prune_below },
  support: { ...SUPPORT },
  events: { ttl_days: EVENTS.ttl_days, archive_days: EVENTS.archive_days, immortal_kinds: DEFAULT_IMMORTAL_EVENT_KINDS },
  drift: { ...DRIFT },
  briefing: { path: BRIEFING_NOTE_PATH },
  timeline: { path: TIMELINE_NOTE_PATH },
  devices: { folder: DEVICES_FOLDER },
  git: { repository: null },
});

export interface Tunable {
  /** `group.name`, as in learning.json and on the command line. */
  key: string;
  group: NumberGroup;
  name: string;
  min: number;
  max: number;
  /** The minimum itself is not allowed (a half-life of 0 days, a threshold nothing stays under). */
  aboveMin?: boolean;
  integer?: boolean;
  /** One line for the settings tab and `lithos learning`. */
  desc: string;
}

const row = (group: NumberGroup, name: string, min: number, max: number, desc: string, o: { aboveMin?: boolean; integer?: boolean } = {}): Tunable => ({
  key: `${group}.${name}`,
  group,
  name,
  min,
  max,
  desc,
  ...o,
});

const CAP = FEEDBACK.class_prior_cap;

/** Signs follow what each constant means: what rewards is ≥ 0, what penalises is ≤ 0. */
export const TUNABLES: readonly Tunable[] = Object.freeze([
  row('feedback', 'used_salience', 0, 1, 'Salience a used note gains.'),
  row('feedback', 'used_edge', 0, 1, 'Weight a related_to edge between two used notes gains (or starts at).', { aboveMin: true }),
  row('feedback', 'used_class_prior', 0, CAP, 'Class prior a used note gains for the query class.'),
  row('feedback', 'ignored_class_prior', -CAP, 0, 'Class prior an ignored note loses for the query class.'),
  row('feedback', 'ignored_salience', -1, 0, 'Salience a chronically ignored note loses.'),
  row('feedback', 'chronic_ignored_min', 0, 1000, 'Ignored more than this many times (and more often than used): chronic.', { integer: true }),
  row('feedback', 'misleading_class_prior', -CAP, 0, 'Class prior a misleading note loses for the query class.'),
  row('feedback', 'misleading_salience', -1, 0, 'Salience a misleading note loses.'),
  row('feedback', 'misleading_edge', -1, 0, 'Weight the edges that pulled a misleading note in lose.'),
  row('feedback', 'quarantine_at', 1, 1000, 'Misleading marks at which a note is quarantined.', { integer: true }),
  row('feedback', 'accepted_salience', 0, 1, 'Extra salience for each used note when the person accepted the output.'),
  row('decay', 'edge_half_life_days', 0, 3650, 'Days over which an unreinforced rule/agent edge halves.', { aboveMin: true }),
  row('decay', 'edge_prune_below', 0, 0.5, 'A decayed rule/agent edge below this weight is deleted.'),
  row('support', 'lexical_share', 0, 1, "Share of a note's content terms the output must contain to count as using it.", { aboveMin: true }),
  row('support', 'embedding_cosine', 0, 1, "Cosine between the output and a note's vector at which the output counts as using it.", { aboveMin: true }),
  row('events', 'ttl_days', 0, 3650, 'Days after which an episodic event is archived (unless linked to a note or of an immortal kind).', { aboveMin: true }),
  row('events', 'archive_days', 0, 3650, 'Days an archived episodic event is kept before it is pruned.', { aboveMin: true }),
  row('drift', 'orphan_days', 0, 3650, 'Days without links, use or write after which a ledger entry is an orphaned drift alert.', { integer: true }),
  row('drift', 'contested_days', 0, 3650, 'Days a claim may stay contested before it is a drift alert.', { integer: true }),
  row('drift', 'unverified_days', 0, 3650, 'Days a claim may stay unverified before it is a drift alert.', { integer: true }),
  row('drift', 'conflict_days', 0, 3650, 'Days a conflict may stay unreviewed before it is a drift alert.', { integer: true }),
]);

/** The row for `group.name`, or for a bare name (every tunable name is unique); invalid_argument otherwise. */
export function tunable(key: string): Tunable {
  const t = TUNABLES.find((x) => x.key === key || x.name === key);
  if (!t) throw new LithosError('invalid_argument', `"${key}" is not a tunable learning constant. Tunable: ${TUNABLES.map((x) => x.key).join(', ')}.`, { field: key });
  return t;
}

/** "a number from 0 to 1", "a whole number from 1 to 1000", "a number above 0, at most 3650". */
export function rangeText(t: Tunable): string {
  const kind = t.integer ? 'a whole number' : 'a number';
  return t.aboveMin ? `${kind} above ${t.min}, at most ${t.max}` : `${kind} from ${t.min} to ${t.max}`;
}

/** Why `value` cannot be this constant, or null. */
export function tunableProblem(t: Tunable, value: unknown): string | null {
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!t.integer || Number.isInteger(value)) &&
    (t.aboveMin ? value > t.min : value >= t.min) &&
    value <= t.max;
  if (ok) return null;
  const got = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return `must be ${rangeText(t)} (got ${got})`;
}

/** Only the overrides: what learning.json holds besides its version. */
export type LearningOverrides = { [G in LearningGroup]?: Partial<LearningConstants[G]> };

/**
 * Constants that were tunable once and no longer exist (the fading spaced-repetition bonus, replaced by
 * model/spaced-repetition.ts): a learning.json that still names one is read as if it did not.
 */
const RETIRED: Partial<Record<NumberGroup, readonly string[]>> = { feedback: ['used_spaced_rep'], decay: ['spaced_rep_half_life_days'] };

/** The briefing (or timeline) note's path: a Markdown note in the vault, outside dot folders (.lithos, .obsidian); null turns it off. */
const briefingPath = z
  .string()
  .trim()
  .max(300)
  .regex(/^(?![./])(?!.*(^|\/)\.)(?!.*\.\.)(?!.*\\).+\.md$/, 'must be a vault path of a .md note, outside dot folders (e.g. "Lithos/Briefing.md")')
  .nullable();

/** The devices folder: a vault folder outside dot folders; null turns the exchange off. */
const devicesFolder = z
  .string()
  .trim()
  .max(200)
  .regex(/^(?![./])(?!.*(^|\/)\.)(?!.*\.\.)(?!.*\\)[^/]+(\/[^/]+)*$/, 'must be a vault folder outside dot folders (e.g. "Lithos/Devices")')
  .nullable();
/** A directory on the machine (whether it is a repository is checked when it is read: git-repository.ts). */
const repositoryDir = z.string().trim().min(1, 'must name a directory').max(1000).nullable();

function groupSchema(group: NumberGroup) {
  const shape: Record<string, z.ZodType<number | readonly EventKind[] | undefined>> = {};
  // The one list among the constants: the event kinds kept forever (learning/event-ageing.ts).
  if (group === 'events') shape.immortal_kinds = z.array(z.enum(EVENT_KINDS)).max(EVENT_KINDS.length).optional();
  for (const name of RETIRED[group] ?? []) shape[name] = z.unknown().optional().transform(() => undefined);
  for (const t of TUNABLES.filter((x) => x.group === group)) {
    shape[t.name] = z
      .unknown()
      .optional()
      .superRefine((v, ctx) => {
        const p = v === undefined ? null : tunableProblem(t, v);
        if (p) ctx.addIssue({ code: 'custom', message: p });
      }) as z.ZodType<number | undefined>;
  }
  return z.strictObject(shape).optional();
}

const fileSchema = z.strictObject({
  version: z.literal(1).optional(),
  feedback: groupSchema('feedback'),
  decay: groupSchema('decay'),
  support: groupSchema('support'),
  events: groupSchema('events'),
  drift: groupSchema('drift'),
  briefing: z.strictObject({ path: briefingPath.optional() }).optional(),
  timeline: z.strictObject({ path: briefingPath.optional() }).optional(),
  devices: z.strictObject({ folder: devicesFolder.optional() }).optional(),
  git: z.strictObject({ repository: repositoryDir.optional() }).optional(),
});

/**
 * Validates an override object (learning.json's content); invalid_argument naming each problem. Values
 * equal to their default are dropped, so the file keeps only what differs.
 */
export function parseLearningOverrides(raw: unknown): LearningOverrides {
  const r = fileSchema.safeParse(raw);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
    throw new LithosError('invalid_argument', `Not a valid learning configuration: ${issues.join('; ')}.`, { issues });
  }
  const out: LearningOverrides = {};
  for (const t of TUNABLES) {
    const v = r.data[t.group]?.[t.name];
    if (v === undefined || v === defaultOf(t)) continue;
    ((out[t.group] ??= {}) as Record<string, unknown>)[t.name] = v;
  }
  const kinds = r.data.events?.immortal_kinds as readonly EventKind[] | undefined;
  if (kinds !== undefined && !sameKinds(kinds, DEFAULT_IMMORTAL_EVENT_KINDS)) (out.events ??= {}).immortal_kinds = [...new Set(kinds)].sort();
  const path = r.data.briefing?.path;
  if (path !== undefined && path !== DEFAULT_LEARNING.briefing.path) out.briefing = { path };
  const timeline = r.data.timeline?.path;
  if (timeline !== undefined && timeline !== DEFAULT_LEARNING.timeline.path) out.timeline = { path: timeline };
  const folder = r.data.devices?.folder;
  if (folder !== undefined && folder !== DEFAULT_LEARNING.devices.folder) out.devices = { folder };
  const repository = r.data.git?.repository;
  if (repository !== undefined && repository !== null) out.git = { repository };
  return deepFreeze(out);
}

/** Whether two lists of event kinds name the same kinds (order and repeats aside). */
export function sameKinds(a: readonly string[], b: readonly string[]): boolean {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

export function defaultOf(t: Tunable): number {
  return (DEFAULT_LEARNING[t.group] as Record<string, number>)[t.name];
}

/** The override of `t`, or undefined when the default applies. */
export function overrideOf(o: LearningOverrides, t: Tunable): number | undefined {
  return (o[t.group] as Record<string, number> | undefined)?.[t.name];
}

/** The defaults with the overrides applied (frozen). */
export function effectiveLearning(o: LearningOverrides): LearningConstants {
  return deepFreeze({
    feedback: { ...DEFAULT_LEARNING.feedback, ...o.feedback },
    decay: { ...DEFAULT_LEARNING.decay, ...o.decay },
    support: { ...DEFAULT_LEARNING.support, ...o.support },
    events: { ...DEFAULT_LEARNING.events, ...o.events },
    drift: { ...DEFAULT_LEARNING.drift, ...o.drift },
    briefing: { ...DEFAULT_LEARNING.briefing, ...o.briefing },
    timeline: { ...DEFAULT_LEARNING.timeline, ...o.timeline },
    devices: { ...DEFAULT_LEARNING.devices, ...o.devices },
    git: { ...DEFAULT_LEARNING.git, ...o.git },
  });
}

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v !== null && typeof v === 'object') deepFreeze(v as object);
  return Object.freeze(o);
}
