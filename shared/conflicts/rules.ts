/**
 * Rule detection, part 2: two notes' claims compared. A finding needs the same subject phrase (exactly,
 * after normalisation) and the same mode (present, past, norm, future), then one of:
 * - number: both give one value, the values differ, and the units agree (or one has none);
 * - negation: the same predicate, asserted in one and denied in the other;
 * - status: status words of the same group from opposite classes (active vs deprecated, works vs broken).
 */
import type { Claim } from './claims';
import type { RuleFinding } from './conflict-types';

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
      out.push({ rule, subject: x.subject, a_sentence: x.sentence, b_sentence: y.sentence });
      if (out.length >= max) return out;
    }
  }
  return out;
}

function disagreement(x: Claim, y: Claim): RuleFinding['rule'] | null {
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
