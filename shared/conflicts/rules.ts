/**
 * Rule detection, part 2: two notes' claims compared. A finding needs the same subject phrase (exactly,
 * after normalisation) and the same mode (present, past, norm, future), then one of:
 * - number: both give one value, the values differ, and the units agree (or one has none);
 * - negation: the same predicate, asserted in one and denied in the other;
 * - status: status words of the same group from opposite classes (active vs deprecated, works vs broken);
 * - cause: causal claims about the same thing (half of the fewer content words shared, at least two), one
 *   explicitly denying the cause the other asserts ("caused by a missing index, not by the connection pool"
 *   against "caused by connection pool exhaustion"). Different causes alone are not a finding: an incident
 *   can have several.
 */
import type { Claim } from './claims';
import type { RuleFinding } from '../stores/conflict-edges';

export function compareClaims(a: readonly Claim[], b: readonly Claim[], max: number): RuleFinding[] {
  const bySubject = new Map<string, Claim[]>();
  for (const c of b) {
    const list = bySubject.get(c.subject);
    if (list) list.push(c);
    else bySubject.set(c.subject, [c]);
  }
  const out: RuleFinding[] = [];
  const seen = new Set<string>();
  for (const x of a) {
    for (const y of bySubject.get(x.subject) ?? []) {
      const rule = disagreement(x, y);
      if (!rule) continue;
      const key = `${rule}|${x.subject}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // A cause has no subject phrase: it is named by the words both claims share ("cause of p95 latency regression").
      const subject = x.kind === 'cause' && y.kind === 'cause' ? `cause of ${x.about.filter((w) => y.about.includes(w)).slice(0, 4).join(' ')}` : x.subject;
      out.push({ rule, subject, a_sentence: x.sentence, b_sentence: y.sentence });
      if (out.length >= max) return out;
    }
  }
  return out;
}

function disagreement(x: Claim, y: Claim): RuleFinding['rule'] | null {
  if (x.kind === 'cause' && y.kind === 'cause') return sameThing(x.about, y.about) && (denies(x.denied, y.asserted) || denies(y.denied, x.asserted)) ? 'cause' : null;
  if (x.kind === 'cause' || y.kind === 'cause') return null;
  if (x.mode !== y.mode) return null;
  if (x.kind === 'number' && y.kind === 'number') {
    if (x.unit !== null && y.unit !== null && x.unit !== y.unit) return null;
    return x.value !== y.value ? 'number' : null;
  }
  if (x.kind === 'polar' && y.kind === 'polar') {
    return x.predicate === y.predicate && x.negated !== y.negated ? 'negation' : null;
  }
  if (x.kind === 'status' && y.kind === 'status') {
    return x.group === y.group && x.positive !== y.positive ? 'status' : null;
  }
  // "X is not deprecated" (polar, denied) against "X is deprecated" (status): the same word, opposite polarity.
  const [p, s] = x.kind === 'polar' && y.kind === 'status' ? [x, y] : y.kind === 'polar' && x.kind === 'status' ? [y, x] : [null, null];
  if (p && s && p.negated && p.predicate === s.word) return 'negation';
  return null;
}

const shared = (a: readonly string[], b: readonly string[]): number => a.filter((w) => b.includes(w)).length;

/** Two causal claims are about the same thing when at least two words and half of the shorter side's words are shared. */
function sameThing(a: readonly string[], b: readonly string[]): boolean {
  const n = shared(a, b);
  return n >= 2 && n * 2 >= Math.min(a.length, b.length);
}

/** A denial hits an asserted cause when most of the denied words (all of one or two) are in it. */
function denies(denied: readonly string[], asserted: readonly string[]): boolean {
  return denied.length > 0 && asserted.length > 0 && shared(denied, asserted) * 2 > denied.length;
}
