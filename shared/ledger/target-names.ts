/**
 * Target names (docs/ledger.md → Targets and intents): what a decision decides about, e.g.
 * `auth-service/session-store`. Two spellings of one target must meet, or knowledge fragments across
 * `Auth Service`, `auth_service` and `AuthServices`: normaliseTarget gives every spelling one key, and
 * suggestTargets finds the existing targets a new name probably means (`authsvc` → `auth-service`).
 * Pure functions; the registry (target-registry.ts) applies merged aliases on top.
 */

/** Longest target name kept (characters, after normalising). */
export const TARGET_MAX_CHARS = 200;

/**
 * The key of a target name: Unicode NFKC, camelCase split (`AuthService` → `auth-service`, while `OAuth` and
 * `GraphQL` stay whole), lower case, runs of spaces, underscores, dots and other punctuation → one `-`, `/`
 * kept as the level separator, and simple plurals made singular per word (`services` → `service`,
 * `policies` → `policy`, `boxes` → `box`; words ending in -ss, -us, -is are left). '' when nothing is left.
 */
export function normaliseTarget(name: string): string {
  const split = name.normalize('NFKC').replace(/(\p{Ll})(\p{Lu}\p{Ll})/gu, '$1-$2');
  const segments = split
    .toLowerCase()
    .split('/')
    .map((seg) =>
      seg
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w !== '')
        .map(singular)
        .join('-'),
    )
    .filter((seg) => seg !== '');
  return Array.from(segments.join('/')).slice(0, TARGET_MAX_CHARS).join('').replace(/[-/]+$/, '');
}

/**
 * Keys that differ only in their hyphens are one target (`auth-service`, `authservice` and `AuthService`,
 * whose camelCase split gives `auth-service`, while `AuthSvc` gives `auth-svc` and `authsvc` stays whole):
 * the registry compares targets by this identity and shows the first spelling's key.
 */
export function targetIdentity(key: string): string {
  return key.replace(/-/g, '');
}

function singular(w: string): string {
  if (w.length <= 3 || /\d$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(?:sses|xes|ches|shes|zzes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Why a target was suggested, strongest first (the score of each is documented at suggestTargets). */
export type SuggestReason = 'same' | 'initials' | 'subsequence' | 'trigrams';

export interface TargetSuggestion {
  target: string;
  /** In [0, 1]; 1 is the same key. */
  score: number;
  why: SuggestReason;
}

/** Suggestions scoring below this are left out (`authsvc` → `auth-service` scores 0.78; `kubernetes` or `billing` against it, 0). */
export const SUGGEST_MIN_SCORE = 0.45;

/**
 * The existing targets a name probably means, best first (ties by name), at most `limit`. Each candidate is
 * scored on the keys with their separators removed (`authsvc` against `authservice`), the best of:
 * - same key: 1;
 * - initials: the name is the candidate's word initials (`as`, `asss` for `auth-service/session-store`): 0.9;
 * - subsequence: the name's letters appear in order in the candidate, from its first letter, as
 *   abbreviations are made (`authsvc`, `sesstore`): 0.4 + 0.6 × (name length / candidate length), so a
 *   name covering more of the candidate scores higher (`authsvc` → 0.78);
 * - trigrams: Dice similarity of the padded letter trigrams, for typos and reordered words
 *   (`auth-servise`, `service-auth`).
 */
export function suggestTargets(name: string, targets: Iterable<string>, limit = 5): TargetSuggestion[] {
  const key = normaliseTarget(name);
  if (key === '') return [];
  const out: TargetSuggestion[] = [];
  for (const t of new Set(targets)) {
    const s = scoreTarget(key, t);
    if (s.score >= SUGGEST_MIN_SCORE) out.push({ target: t, ...s });
  }
  out.sort((a, b) => b.score - a.score || (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  return out.slice(0, Math.max(0, limit));
}

const compact = (key: string): string => key.replace(/[-/]/g, '');
const round = (x: number): number => Math.round(x * 1000) / 1000;

/** How well a normalised name matches one normalised target (see suggestTargets). */
export function scoreTarget(key: string, target: string): { score: number; why: SuggestReason } {
  if (key === target) return { score: 1, why: 'same' };
  const q = compact(key);
  const c = compact(target);
  if (q === c) return { score: 1, why: 'same' };
  let best: { score: number; why: SuggestReason } = { score: 0, why: 'trigrams' };
  const consider = (score: number, why: SuggestReason): void => {
    if (score > best.score) best = { score: round(score), why };
  };
  const initials = target.split(/[-/]/).map((w) => Array.from(w)[0] ?? '').join('');
  if (q.length >= 2 && q === initials) consider(0.9, 'initials');
  if (q.length >= 2 && isSubsequence(q, c)) consider(0.4 + (0.6 * Array.from(q).length) / Array.from(c).length, 'subsequence');
  consider(dice(trigrams(q), trigrams(c)), 'trigrams');
  return best;
}

/** Whether `q`'s letters appear in order in `c`, the first one first. */
function isSubsequence(q: string, c: string): boolean {
  const a = Array.from(q);
  const b = Array.from(c);
  if (a[0] !== b[0]) return false;
  let i = 0;
  for (const ch of b) if (ch === a[i]) i++;
  return i === a.length;
}

function trigrams(s: string): Set<string> {
  const p = ['^', '^', ...Array.from(s), '$'];
  const out = new Set<string>();
  for (let i = 0; i + 3 <= p.length; i++) out.add(p.slice(i, i + 3).join(''));
  return out;
}

function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const g of a) if (b.has(g)) shared++;
  return (2 * shared) / (a.size + b.size);
}
