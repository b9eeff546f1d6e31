/**
 * Constants overridden for one eval run (the cross-validation harness, feedback-cv.ts). Two kinds of key:
 * - a vault tunable (`feedback.used_salience`, `decay.…`, `support.…`; learning/tunables.ts): written into the
 *   eval vault's `.lithos/learning.json`, exactly as a person would set it;
 * - a retrieval constant (`rerank.ignored_penalty`, `tag_affinity.pseudo_count`, `precedent_match.min_similarity`,
 *   `query_expansion.weight`, `ignored_terms.unrelated`, `scout.precedent`): not a vault setting, so the eval process patches the constant
 *   table in memory for the run and puts it back afterwards (withRetrievalOverrides).
 * Every key and value is checked before anything runs.
 */
import { LithosError } from '../../shared/errors';
import { parseLearningOverrides, type LearningOverrides, TUNABLES } from '../../shared/learning/tunables';
import { PRECEDENT_MATCH, RERANK, TAG_AFFINITY } from '../../shared/retrieval/constants';
import { QUERY_EXPANSION } from '../../shared/retrieval/query-expansion';
import { TERM_ASSOC } from '../../shared/retrieval/term-assoc';
import { IGNORED_TERMS } from '../../shared/retrieval/ignored-terms';
import { SCOUT_WEIGHTS } from '../../shared/retrieval/scouts';

/** A point of a grid: `group.name` → value. */
export type ConstantPoint = Readonly<Record<string, number>>;

/** The in-process constant tables the harness may patch, by key prefix. */
const TABLES: Record<string, Record<string, number>> = {
  rerank: RERANK,
  tag_affinity: TAG_AFFINITY,
  precedent_match: PRECEDENT_MATCH,
  query_expansion: QUERY_EXPANSION,
  term_assoc: TERM_ASSOC,
  ignored_terms: IGNORED_TERMS,
  scout: SCOUT_WEIGHTS,
};

export interface SplitPoint {
  /** For the eval vault's learning.json (validated). */
  learning: LearningOverrides;
  /** Retrieval constants: table prefix → name → value. */
  retrieval: { table: string; name: string; value: number }[];
}

/** Every key a grid may name (for the error message). */
export function overridableKeys(): string[] {
  const out = TUNABLES.map((t) => t.key);
  for (const [table, o] of Object.entries(TABLES)) for (const [name, v] of Object.entries(o)) if (typeof v === 'number') out.push(`${table}.${name}`);
  return out;
}

/** Splits and checks a point; invalid_argument naming the first bad key or value. */
export function splitPoint(point: ConstantPoint): SplitPoint {
  const learning: Record<string, Record<string, number>> = {};
  const retrieval: SplitPoint['retrieval'] = [];
  for (const [key, value] of Object.entries(point)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new LithosError('invalid_argument', `${key}: must be a finite number (got ${JSON.stringify(value)}).`, { field: key });
    const dot = key.indexOf('.');
    const [group, name] = dot < 0 ? ['', key] : [key.slice(0, dot), key.slice(dot + 1)];
    const table = TABLES[group];
    if (table && typeof table[name] === 'number') {
      if (value < 0 && table[name] >= 0) throw new LithosError('invalid_argument', `${key}: must be ≥ 0 (got ${value}).`, { field: key });
      retrieval.push({ table: group, name, value });
    } else if (TUNABLES.some((t) => t.key === key)) {
      (learning[group] ??= {})[name] = value;
    } else {
      throw new LithosError('invalid_argument', `"${key}" is not a constant the harness can set. Known: ${overridableKeys().join(', ')}.`, { field: key });
    }
  }
  return { learning: parseLearningOverrides(learning), retrieval };
}

/** Runs `fn` with the retrieval constants patched, and puts the old values back however it ends. */
export async function withRetrievalOverrides<T>(retrieval: SplitPoint['retrieval'], fn: () => Promise<T>): Promise<T> {
  const saved = retrieval.map((r) => ({ ...r, value: TABLES[r.table][r.name] }));
  try {
    for (const r of retrieval) TABLES[r.table][r.name] = r.value;
    return await fn();
  } finally {
    for (const r of saved.reverse()) TABLES[r.table][r.name] = r.value;
  }
}

/**
 * Retrieval constants that change nothing before any feedback: they weigh learned state (ignores, learned
 * affinity, precedents, expansion), of which a fresh index has none. Points differing only in these (and in
 * vault tunables, which only feedback reads) share one baseline, so the harness scores it once.
 */
const SILENT_BEFORE_FEEDBACK = new Set([
  'rerank.ignored_penalty',
  'rerank.misleading_penalty',
  'rerank.tag_affinity',
  'rerank.spaced_repetition',
  'scout.precedent',
  'scout.expansion',
  'scout.association',
  'scout.coactivation',
]);
const SILENT_TABLES = new Set(['tag_affinity', 'precedent_match', 'query_expansion', 'term_assoc', 'ignored_terms']);

/** What a point's baseline depends on: its retrieval constants that act before any feedback. */
export function baselineKey(point: ConstantPoint): string {
  const acting = Object.entries(point).filter(([k]) => TUNABLES.every((t) => t.key !== k) && !SILENT_BEFORE_FEEDBACK.has(k) && !SILENT_TABLES.has(k.slice(0, k.indexOf('.'))));
  return pointLabel(Object.fromEntries(acting));
}

/** A short label for a point: `rerank.ignored_penalty=0.1, …`, or `defaults`. */
export function pointLabel(point: ConstantPoint): string {
  const keys = Object.keys(point).sort();
  return keys.length ? keys.map((k) => `${k}=${point[k]}`).join(', ') : 'defaults';
}
