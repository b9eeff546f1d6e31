/**
 * Rule detection, part 1: the claims a note makes, read from its body sentence by sentence. Precision over
 * recall — a sentence yields a claim only when it has the plain shape "<subject> <copula> <value>" and
 * nothing that makes it hypothetical, reported or approximate. docs/contradictions.md lists the misses.
 */
import { stripManagedBlocks } from './callout-blocks';

/** present: is/are/equals; past: was/were/has been; norm: should/must be; future: will be. Only equal modes are compared. */
export type Mode = 'present' | 'past' | 'norm' | 'future';

export type Claim =
  | { kind: 'number'; subject: string; mode: Mode; value: number; unit: string | null; sentence: string }
  | { kind: 'polar'; subject: string; mode: Mode; predicate: string; negated: boolean; sentence: string }
  | { kind: 'status'; subject: string; mode: Mode; group: string; positive: boolean; word: string; sentence: string }
  /**
   * "<what> is/was caused by <cause>[, not by <denied>]" or "<what> was not caused by <denied>". `subject` is
   * CAUSE_SUBJECT for all of them (a cause is compared by its words, not by a phrase); `about`, `asserted`
   * and `denied` are content words (stopwords out, singular).
   */
  | { kind: 'cause'; subject: string; about: string[]; asserted: string[]; denied: string[]; sentence: string };

/** The subject key every causal claim shares: rules.ts compares them by the overlap of their words. */
export const CAUSE_SUBJECT = '(cause)';

/**
 * Status words in mutually exclusive pairs of classes: "X is deprecated" contradicts "X is active".
 * Each group: [positive words, negative words].
 */
export const STATUS_GROUPS: Record<string, [readonly string[], readonly string[]]> = {
  lifecycle: [['active', 'current', 'live', 'in use'], ['deprecated', 'obsolete', 'retired', 'archived', 'abandoned', 'sunset']],
  approval: [['approved', 'accepted'], ['rejected', 'declined', 'denied']],
  health: [['working', 'functional', 'fixed', 'resolved', 'healthy', 'stable'], ['broken', 'failing', 'down', 'unresolved', 'unstable']],
  toggle: [['enabled', 'on'], ['disabled', 'off']],
  validity: [['valid', 'correct', 'true'], ['invalid', 'incorrect', 'false', 'wrong']],
  support: [['supported'], ['unsupported']],
  safety: [['safe'], ['unsafe']],
};

const STATUS_INDEX = new Map<string, { group: string; positive: boolean }>();
for (const [group, [pos, neg]] of Object.entries(STATUS_GROUPS)) {
  for (const w of pos) STATUS_INDEX.set(w, { group, positive: true });
  for (const w of neg) STATUS_INDEX.set(w, { group, positive: false });
}

/** Copulas, longest first so "should not be" wins over "be"; each with its mode and polarity. */
const COPULAS: { re: string; mode: Mode; negated: boolean }[] = [
  { re: 'should not be|shouldn\'t be|must not be|mustn\'t be', mode: 'norm', negated: true },
  { re: 'should be|must be|needs to be', mode: 'norm', negated: false },
  { re: 'will not be|won\'t be', mode: 'future', negated: true },
  { re: 'will be', mode: 'future', negated: false },
  { re: 'has not been|hasn\'t been|have not been|haven\'t been|was not|wasn\'t|were not|weren\'t', mode: 'past', negated: true },
  { re: 'has been|have been|was|were', mode: 'past', negated: false },
  { re: 'is no longer|are no longer|is not|isn\'t|are not|aren\'t|does not equal|is never|are never', mode: 'present', negated: true },
  { re: 'is|are|equals|remains|stays|=', mode: 'present', negated: false },
];
const COPULA_RE = new RegExp(`(?:^|\\s)(${COPULAS.map((c) => c.re).join('|')})(?=\\s|$)`);

/** "works" / "doesn't work" are the health status in verb form. */
const WORKS_RE = /^(.*?)\s(works|work|does not work|doesn't work|do not work|don't work|no longer works)(?:\s|$)/;

/**
 * Sentences that are hypothetical, reported, questions or comparisons: no claim is read from them.
 * (Precision: "if the pool is 50…", "scout-7 said the pool is 20", "is the pool 20?").
 */
const HEDGED_RE =
  /\?|["“”]|\b(if|unless|whether|suppose|assuming|assume|would|could|might|may|maybe|perhaps|probably|likely|said|says|claims?|claimed|believed?|thought|thinks?|reported|according|hypothes\w*|expected|predicted?|than|instead|rather|except|only when)\b/;

/** Words that make a number approximate or a bound rather than a value. */
const APPROX_RE = /^(about|around|roughly|approximately|approx|nearly|almost|over|under|above|below|at least|at most|up to|more than|less than|fewer than|between|~|<|>|≈|≤|≥)\b/;

const DETERMINERS = new Set(['the', 'a', 'an', 'our', 'its', 'their', 'his', 'her', 'my', 'your', 'this', 'that', 'these', 'those', 'each', 'every', 'any', 'all', 'current', 'now', 'also', 'still', 'then', 'so', 'and', 'but', 'today', 'currently']);
const PRONOUNS = new Set(['it', 'this', 'that', 'they', 'there', 'which', 'what', 'he', 'she', 'we', 'i', 'you', 'who', 'these', 'those', 'here', 'one', 'both', 'none', 'nothing', 'everything', 'something']);
/** Clause openers: the subject starts after the last of these. */
const CLAUSE_CUT = /[,;:(]|\b(that|because|since|so|and|but|while|where|when|after|before|once|until|although|though|as|then)\b/g;
/** Predicate ends at these. */
const PREDICATE_END = /[,;:()]|\s(because|since|but|and|or|while|when|after|before|so|for|in|on|at|by|with|from|per|to|of)\s/;

const SUBJECT_WORDS = 4;
const PREDICATE_WORDS = 3;

/** Markdown → plain sentences (code, managed callouts, link syntax and emphasis removed). */
export function sentencesOf(body: string, max = Infinity): string[] {
  const text = stripManagedBlocks(body)
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '\n')
    .replace(/%%[\s\S]*?%%/g, ' ')
    .replace(/!?\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|([^\]]+))?\]\]/g, (_, t: string, alias?: string) => alias ?? t)
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*|__|\*|(^|\s)_|_(\s|$)/g, '$1$2')
    .replace(/\s\^[A-Za-z0-9-]+$/gm, '');
  const out: string[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/^\s*(#{1,6}\s|>\s?|[-*+]\s(\[.\]\s)?|\d+[.)]\s)+/, '').trim();
    if (!line) continue;
    for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z0-9[(])/)) {
      const t = s.trim().replace(/[.!]+$/, '');
      if (t) out.push(t);
      if (out.length >= max) return out;
    }
  }
  return out;
}

/** Lower-case, keeps letters, digits, `_`, `-`, `.` inside words; collapses spaces. */
function clean(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\-.=%~<>≈≤≥',;:()\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The normalised subject phrase before a copula, or null when it is empty, a pronoun or too vague. */
export function subjectOf(before: string): string | null {
  let s = before;
  let cut = -1;
  for (const m of s.matchAll(CLAUSE_CUT)) cut = m.index + m[0].length;
  if (cut >= 0) s = s.slice(cut);
  const words = s.split(' ').filter((w) => w && !/^[.=%~<>≈≤≥'-]+$/.test(w));
  while (words.length > 0 && DETERMINERS.has(words[0])) words.shift();
  if (words.length === 0 || words.length > 8) return null; // long subjects are sentences, not subjects
  if (PRONOUNS.has(words[0])) return null; // "it is 20", "what matters is…": no nameable subject
  const kept = words.slice(-SUBJECT_WORDS).map(singular);
  if (!kept.some((w) => /\p{L}/u.test(w))) return null;
  // Statistical notation ("p = 0.03", "n = 15", "r = 0.86") is not a subject two notes can disagree on.
  if (kept.every((w) => w.replace(/[^\p{L}\p{N}]/gu, '').length < 3)) return null;
  return kept.join(' ');
}

function singular(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is') ? w.slice(0, -1) : w;
}

const NUMBER_RE = /^(-?\d+(?:[.,]\d+)?)\s*(%|[a-zµ]+)?/;

/** "is caused by", "was not caused by", "were due to"…: tense does not matter for a cause (is/was: one incident). */
const CAUSE_RE = /^(.*?)\s(?:is|are|was|were)(\snot)?\s(?:(?:mainly|mostly|primarily|entirely)\s)?(?:caused by|due to|driven by|the result of|explained by)\s(.+)$/;
/** ", not by X" / "; not due to X" after the asserted cause. */
const DENIAL_RE = /[,;]\s*(?:and\s+|but\s+)?not\s+(?:by\s+|due to\s+|from\s+)?(.+)$/;
const CAUSE_STOP = new Set(['of', 'in', 'on', 'at', 'to', 'for', 'from', 'with', 'by', 'and', 'or', 'into', 'over', 'under', 'per', 'after', 'before', 'during']);

/** Content words of a phrase: determiners and short function words out, singular. */
function contentWords(phrase: string): string[] {
  const words = phrase
    .replace(/[(),;:]/g, ' ')
    .split(' ')
    .filter((w) => w.length > 2 && /\p{L}/u.test(w) && !DETERMINERS.has(w) && !CAUSE_STOP.has(w) && !PRONOUNS.has(w));
  return [...new Set(words.map((w) => singular(w.replace(/'s?$/, ''))))];
}

/** The asserted cause ends at the first clause break; a denial after it is read separately. */
function causeClaim(s: string, sentence: string): Claim | null {
  const m = CAUSE_RE.exec(s);
  if (!m) return null;
  const about = contentWords(m[1]);
  if (about.length < 2) return null; // "it was caused by…": nothing to match the other note's claim on
  const rest = m[3];
  const denial = DENIAL_RE.exec(rest);
  const head = (denial ? rest.slice(0, denial.index) : rest).split(/[,;(]/)[0];
  const denied = denial ? contentWords(denial[1].split(/[,;(]/)[0]) : [];
  const claim = m[2] ? { asserted: [], denied: contentWords(head) } : { asserted: contentWords(head), denied };
  if (claim.asserted.length === 0 && claim.denied.length === 0) return null;
  return { kind: 'cause', subject: CAUSE_SUBJECT, about, ...claim, sentence };
}

/** Every claim one sentence makes (zero or one in practice). */
export function claimsOf(sentence: string): Claim[] {
  const s = clean(sentence);
  if (!s || HEDGED_RE.test(s)) return [];
  const works = WORKS_RE.exec(s);
  if (works) {
    const subject = subjectOf(works[1]);
    if (!subject) return [];
    const positive = works[2] === 'works' || works[2] === 'work';
    return [{ kind: 'status', subject, mode: 'present', group: 'health', positive, word: works[2], sentence }];
  }
  const cause = causeClaim(s, sentence);
  if (cause) return [cause];
  const m = COPULA_RE.exec(s);
  if (!m) return [];
  const cop = COPULAS.find((c) => new RegExp(`^(?:${c.re})$`).test(m[1]))!;
  const subject = subjectOf(s.slice(0, m.index).trim());
  if (!subject) return [];
  let rest = s.slice(m.index + m[0].length).trim();
  rest = rest.replace(/^(now|currently|still|also|always|set to|at)\s+/, '');
  let negated = cop.negated;
  if (/^(not|never)\s/.test(rest)) {
    negated = !negated;
    rest = rest.replace(/^(not|never)\s+/, '');
  }
  if (!rest) return [];
  const end = PREDICATE_END.exec(` ${rest} `);
  const predicate = (end ? ` ${rest} `.slice(0, end.index) : rest).trim();
  if (!predicate) return [];

  const num = NUMBER_RE.exec(predicate);
  if (num) {
    if (negated || APPROX_RE.test(rest)) return [];
    // A range, a list or a second number ("10 to 20", "10-20", "20 or 50") is not one value.
    if (/\d\s*(-|–|to|or|and|\/)\s*\d/.test(rest.slice(0, 40)) || /^\d{4}-\d{2}/.test(predicate)) return [];
    const value = Number(num[1].replace(',', '.'));
    if (!Number.isFinite(value)) return [];
    return [{ kind: 'number', subject, mode: cop.mode, value, unit: normUnit(num[2] ?? null), sentence }];
  }
  if (APPROX_RE.test(rest)) return [];
  const words = predicate.split(' ').filter((w) => !DETERMINERS.has(w));
  if (words.length === 0 || words.length > PREDICATE_WORDS) return [];
  const phrase = words.join(' ');
  const status = STATUS_INDEX.get(phrase);
  if (status && !negated) return [{ kind: 'status', subject, mode: cop.mode, group: status.group, positive: status.positive, word: phrase, sentence }];
  return [{ kind: 'polar', subject, mode: cop.mode, predicate: phrase, negated, sentence }];
}

const UNIT_ALIASES: Record<string, string> = {
  ms: 'ms', millisecond: 'ms', milliseconds: 'ms',
  s: 's', sec: 's', secs: 's', second: 's', seconds: 's',
  min: 'min', mins: 'min', minute: 'min', minutes: 'min',
  h: 'h', hour: 'h', hours: 'h',
  day: 'd', days: 'd',
  kb: 'kb', mb: 'mb', gb: 'gb', gib: 'gib', mib: 'mib',
  '%': '%', percent: '%',
};

function normUnit(u: string | null): string | null {
  if (!u) return null;
  return UNIT_ALIASES[u] ?? singular(u);
}

/** Claims of a whole note body, at most `max` sentences read. */
export function noteClaims(body: string, max: number): Claim[] {
  return sentencesOf(body, max).flatMap(claimsOf);
}
