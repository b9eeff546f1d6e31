/**
 * Post-task feedback on one receipt: which of the notes retrieval returned were used, ignored or
 * misleading, turned into salience, use stats, spaced repetition, per-class priors, edges, coactivation (of used pairs),
 * term–tag affinity and quarantine. The arithmetic's constants are the vault's in force at the call (the tunables: the
 * defaults in constants.ts FEEDBACK, overridden by .lithos/learning.json). Applied at most once per receipt.
 */
import type { LearningPorts } from './learning-ports';
import { LithosError } from '../errors';
import type { AuditActor } from '../governance/audit';
import type { NodeStats } from '../stores/memory-types';
import type { Receipt } from '../retrieval/types';
import { recordPrecedent } from './precedents';
import { recordTagAffinity } from './tag-affinity';
import { recordQueryExpansion } from './query-expansion';
import { recordTermAssoc } from './term-assoc';
import { recordIgnoredTerms } from './ignored-terms';
import { IGNORED_TERMS } from '../retrieval/ignored-terms';
import { SCOUT_WEIGHTS } from '../retrieval/scouts';
import { everyAgentReads } from '../governance/audience';
import { gatedNote } from '../governance/gate';
import { misleadingBeforeRelease, quarantine } from './quarantine';
import { supportedByOutput } from './support';
import { CONCEPT_USES_MARK, withConceptUses } from '../retrieval/concept-uses';
import { stabilityAfterUse } from '../model/spaced-repetition';

export interface FeedbackInput {
  receipt_id: string;
  /** Node ids the agent cited (each must be among the receipt's final nodes). */
  cited?: readonly string[];
  /** Node ids that misled the agent (same rule; never also cited). */
  misleading?: readonly string[];
  /** The agent's output: final nodes it draws on count as used. */
  output_text?: string | null;
  /** The person accepted (true) or rejected (false) the output; undefined: not asked. */
  accepted?: boolean | null;
  agent?: string | null;
  task?: string | null;
}

export interface FeedbackResult {
  receipt_id: string;
  /** False when feedback for this receipt had been applied before (nothing changed). */
  applied: boolean;
  query_class: string;
  used: string[];
  /** Of `used`, those counted through the output text rather than a citation. */
  supported: string[];
  ignored: string[];
  /** Exploration picks passed over: not counted ignored (no ignored_count, no class prior, no tag evidence). */
  exploration: string[];
  misleading: string[];
  quarantined: string[];
  edges_reinforced: number;
  edges_weakened: number;
  coactivation_pairs: number;
  /** Whether the query and its used notes were remembered as a precedent (precedent scout). */
  precedent: boolean;
  /** Whether the query's words × the notes' tags were counted (term–tag affinity). */
  tag_affinity: boolean;
  /** Whether the query's words × the shown notes' words were counted (learned term associations). */
  term_assoc: boolean;
  /** Whether the query's words were recorded for the ignored notes (query-conditional ignored penalty). */
  ignored_terms: boolean;
}

export const FEEDBACK_MARK_PREFIX = 'feedback:';
export const feedbackMark = (receiptId: string): string => `${FEEDBACK_MARK_PREFIX}${receiptId}`;

/** The notes feedback for a receipt marked used, or null when none was given (or it predates the record). */
export function usedByFeedback(d: Pick<LearningPorts, 'memory'>, receiptId: string): string[] | null {
  const m = d.memory.learned.mark(feedbackMark(receiptId)) as { used?: unknown } | null;
  return m && Array.isArray(m.used) ? m.used.filter((x): x is string => typeof x === 'string') : null;
}

const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The receipt, or not_found. */
export async function findReceipt(d: Pick<LearningPorts, 'receipts'>, receiptId: string): Promise<Receipt> {
  const r = (await d.receipts.query({ receipt_id: receiptId, limit: 1 })).receipts[0];
  if (!r) throw new LithosError('not_found', `No receipt ${receiptId}. Pass the receipt_id lithos_retrieve returned.`, { receipt_id: receiptId });
  return r;
}

/** invalid_argument naming every node that is not among the receipt's final nodes, or that is both cited and misleading. */
export function checkFeedbackNodes(receipt: Receipt, cited: readonly string[], misleading: readonly string[]): void {
  const finals = new Set(receipt.final_nodes.map((n) => n.id));
  for (const [field, ids] of [['cited', cited], ['misleading', misleading]] as const) {
    const outside = ids.filter((id) => !finals.has(id));
    if (outside.length) {
      throw new LithosError('invalid_argument', `${field}: ${outside.map((id) => `"${id}"`).join(', ')} ${outside.length === 1 ? 'is' : 'are'} not among the notes receipt ${receipt.receipt_id} returned.`, {
        field,
        nodes: outside,
        receipt_id: receipt.receipt_id,
      });
    }
  }
  const both = cited.filter((id) => misleading.includes(id));
  if (both.length) throw new LithosError('invalid_argument', `A note cannot be both cited and misleading: ${both.join(', ')}.`, { nodes: both });
}

function withPrior(s: NodeStats, cls: string, delta: number, cap: number): Record<string, number> {
  return { ...s.per_queryclass_priors, [cls]: round(clamp((s.per_queryclass_priors[cls] ?? 0) + delta, -cap, cap)) };
}

/** What applying feedback uses. */
export type FeedbackPorts = Pick<LearningPorts, 'notes' | 'search' | 'receipts' | 'memory' | 'tunables' | 'audit' | 'policy' | 'governance' | 'clock' | 'callouts'>;

/** Applies feedback once; the caller runs one at a time (LearningService.feedback), so two calls for one receipt cannot both pass the applied-once check. */
export async function applyFeedbackOnce(d: FeedbackPorts, input: FeedbackInput): Promise<FeedbackResult> {
  const receipt = await findReceipt(d, input.receipt_id);
  const cited = [...new Set(input.cited ?? [])];
  const misleading = [...new Set(input.misleading ?? [])];
  checkFeedbackNodes(receipt, cited, misleading);
  const cls = receipt.query_class;
  // Notes deleted since the retrieval take no part (nothing to learn on a note that is gone).
  const finals = [...new Set(receipt.final_nodes.map((n) => n.id))].filter((id) => d.notes.note(id) !== null);
  const empty: FeedbackResult = {
    receipt_id: receipt.receipt_id, applied: false, query_class: cls, used: [], supported: [], ignored: [], exploration: [], misleading: [], quarantined: [],
    edges_reinforced: 0, edges_weakened: 0, coactivation_pairs: 0, precedent: false, tag_affinity: false, term_assoc: false, ignored_terms: false,
  };
  if (d.memory.learned.mark(feedbackMark(receipt.receipt_id)) !== null) return empty;
  await d.tunables.refresh();
  const k = d.tunables.get().feedback;

  const bad = new Set(misleading);
  const candidates = finals.filter((id) => !bad.has(id) && !cited.includes(id));
  const supported = input.output_text ? await supportedByOutput(d, candidates, input.output_text, d.tunables.get().support) : [];
  const used = finals.filter((id) => cited.includes(id) || supported.includes(id));
  // An exploration pick was shown to try it, not because it ranked there: passing it over costs it nothing.
  const explored = new Set(receipt.final_nodes.filter((n) => n.exploration === true).map((n) => n.id));
  const passedOver = finals.filter((id) => !used.includes(id) && !bad.has(id));
  const ignored = passedOver.filter((id) => !explored.has(id));
  const exploration = passedOver.filter((id) => explored.has(id));
  const now = d.clock.now();
  const mem = d.memory;
  const out: FeedbackResult = { ...empty, applied: true, used, supported, ignored, exploration, misleading };
  const toQuarantine: string[] = [];
  // A rejected output reinforces nothing; its negative signals still count.
  const reinforce = input.accepted !== false;
  const bonus = input.accepted === true ? k.accepted_salience : 0;

  await mem.batch(async () => {
    // Use count and time rank too (utility, recency, spaced repetition): a rejected output moves none of it.
    for (const id of reinforce ? used : []) {
      const s = mem.stats.get(id);
      await mem.stats.update(id, {
        use_count: s.use_count + 1,
        last_used_at: now,
        salience: round(clamp(s.salience + k.used_salience + bonus, 0, 1)),
        spaced_rep_strength: stabilityAfterUse(s, now),
        per_queryclass_priors: withPrior(s, cls, k.used_class_prior, k.class_prior_cap),
      });
    }
    for (const id of ignored) {
      const s = mem.stats.get(id);
      const ignoredCount = s.ignored_count + 1;
      const chronic = ignoredCount > k.chronic_ignored_min && ignoredCount > s.use_count;
      await mem.stats.update(id, {
        ignored_count: ignoredCount,
        per_queryclass_priors: withPrior(s, cls, k.ignored_class_prior, k.class_prior_cap),
        ...(chronic && { salience: round(clamp(s.salience + k.ignored_salience, 0, 1)) }),
      });
    }
    // Which questions the ignores were for (the re-rank weighs them by a later question's likeness); only read below 1.
    if (IGNORED_TERMS.unrelated < 1) out.ignored_terms = await recordIgnoredTerms(mem.learned, receipt, ignored, now, everyAgentReadsReceipt(d, receipt));
    for (const id of misleading) {
      const s = mem.stats.get(id);
      const count = s.misleading_count + 1;
      await mem.stats.update(id, {
        misleading_count: count,
        salience: round(clamp(s.salience + k.misleading_salience, 0, 1)),
        per_queryclass_priors: withPrior(s, cls, k.misleading_class_prior, k.class_prior_cap),
      });
      // A note a person released from quarantine starts counting again from that point.
      if (count - misleadingBeforeRelease(d, id) >= k.quarantine_at) toQuarantine.push(id);
      // The edges that pulled it in: from the other notes of this result into it. A person's edge stays.
      for (const e of mem.edges.find({ to: id })) {
        if (e.from_id === id || !finals.includes(e.from_id) || e.provenance_type === 'human' || e.type === 'contradicts') continue;
        await mem.edges.upsert({ ...e, weight: round(Math.max(0, e.weight + k.misleading_edge)) });
        out.edges_weakened++;
      }
    }
    if (reinforce) {
      for (let i = 0; i < used.length; i++) {
        for (let j = i + 1; j < used.length; j++) {
          if (await reinforceEdge(d, used[i], used[j], k.used_edge)) out.edges_reinforced++;
        }
      }
    }
    // Notes used together, not notes shown together (the coactivation scout and concepts build on these).
    for (let i = 0; i < used.length; i++) {
      for (let j = i + 1; j < used.length; j++) {
        await mem.coactivation.bump(used[i], used[j], namespaceOf(d, used[i]), now);
        out.coactivation_pairs++;
      }
    }
    // The repeated-use penalty of concepts (retrieval/concept-uses.ts).
    const concepts = used.filter((id) => d.notes.note(id)?.cached.meta.note_type === 'concept');
    if (concepts.length) await mem.learned.setMark(CONCEPT_USES_MARK, withConceptUses(mem.learned.mark(CONCEPT_USES_MARK), concepts, now));
    // A rejected output is no precedent to follow, nor evidence of which tags suit which words.
    if (reinforce) {
      out.precedent = await recordPrecedent(mem.learned, receipt, used, now);
      const everyAgent = everyAgentReadsReceipt(d, receipt);
      // Only the expansion scout reads the field: while it is off, recording it is cost for nothing.
      if (SCOUT_WEIGHTS.expansion > 0) await recordQueryExpansion(mem.learned, receipt, used, now, everyAgent, (id) => d.search.noteText(id));
      // Likewise the association scout (learning/term-assoc.ts; passed-over exploration picks are no evidence).
      if (SCOUT_WEIGHTS.association > 0) {
        const shown = finals.filter((id) => !exploration.includes(id)).map((id) => ({ id, used: used.includes(id) }));
        out.term_assoc = await recordTermAssoc(d, receipt, shown, now, everyAgent);
      }
      // The counts reach every caller's ranking and reasons (with the query's words): only a retrieval
      // every agent could have read the receipt of teaches them.
      if (everyAgent) {
        const shown = finals.filter((id) => !exploration.includes(id)).map((id) => ({ tags: d.notes.note(id)?.cached.meta.tags ?? [], used: used.includes(id) }));
        out.tag_affinity = await recordTagAffinity(mem.learned, receipt.query_text, shown, now);
      }
    }
    // Which notes were used is kept with the mark: working memory and consolidation count these, not every note shown.
    await mem.learned.setMark(feedbackMark(receipt.receipt_id), { at: now, agent: input.agent ?? null, task: input.task ?? null, used, misleading });
  });

  const actor: AuditActor = input.agent ? { kind: 'agent', id: input.agent } : { kind: 'human', id: null };
  await d.audit.append({
    action: 'feedback',
    actor,
    target: receipt.receipt_id,
    data: {
      task: input.task ?? receipt.task_id,
      query_class: cls,
      used: used.length,
      supported: supported.length,
      ignored: ignored.length,
      exploration: exploration.length,
      misleading: misleading.length,
      accepted: input.accepted ?? null,
      edges_reinforced: out.edges_reinforced,
      edges_weakened: out.edges_weakened,
      coactivation_pairs: out.coactivation_pairs,
      precedent: out.precedent,
      tag_affinity: out.tag_affinity,
      term_assoc: out.term_assoc,
      ignored_terms: out.ignored_terms,
    },
  });
  for (const id of toQuarantine) {
    if (await quarantine(d, id, { reason: `marked misleading ${mem.stats.get(id).misleading_count} times`, receipt_id: receipt.receipt_id })) out.quarantined.push(id);
  }
  return out;
}

/**
 * Whether any agent may read this receipt, query included (tools/lcma/receipt-view.ts's rule, for every
 * agent at once): each note it returned still exists and every agent may read it, and its namespace filter
 * names no agent's private namespace.
 */
function everyAgentReadsReceipt(d: Pick<LearningPorts, 'policy' | 'notes' | 'governance'>, receipt: Receipt): boolean {
  const policy = d.policy.get();
  const keys = d.governance.keysInUse();
  if ((receipt.namespace_filter ?? []).some((ns) => /^agent(\/|$)/.test(ns.trim()))) return false;
  return receipt.final_nodes.every((f) => {
    const n = d.notes.note(f.id);
    return n !== null && everyAgentReads(policy, gatedNote(n), keys);
  });
}

function namespaceOf(d: Pick<LearningPorts, 'notes'>, id: string): string {
  return d.notes.note(id)?.cached.meta.namespace ?? '';
}

/** `related_to` between two used notes, either direction, +usedEdge (created at that weight, provenance rule). */
async function reinforceEdge(d: Pick<LearningPorts, 'memory' | 'notes'>, a: string, b: string, usedEdge: number): Promise<boolean> {
  const mem = d.memory;
  const existing = mem.edges.find({ from: a, to: b, type: 'related_to' })[0] ?? mem.edges.find({ from: b, to: a, type: 'related_to' })[0];
  if (existing) {
    // A person's edge already says it; the learning layer does not overwrite it.
    if (existing.provenance_type === 'human') return false;
    await mem.edges.upsert({ ...existing, weight: round(clamp(existing.weight + usedEdge, 0, 1)) });
    return true;
  }
  const [from, to] = a < b ? [a, b] : [b, a];
  await mem.edges.upsert({
    from_id: from,
    to_id: to,
    type: 'related_to',
    weight: usedEdge,
    namespace: namespaceOf(d, from),
    provenance_actor: 'learning.feedback',
    provenance_type: 'rule',
    evidence: { rule: 'used together' },
    conflict_state: null,
  });
  return true;
}
