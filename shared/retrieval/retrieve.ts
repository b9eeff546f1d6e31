/**
 * Parallel Terraced Scan. Terrace 0: cheap scouts run concurrently (wave 1 on the query, wave 2 on wave 1's
 * seeds), each gated by the shared scope gate before it returns. Terrace 1: merge by node and re-rank with
 * the design's formula and the intent profile, measure coherence → temperature, then MMR (wider and with
 * exploration slots when hot). Terrace 2: an interpretive pass when the policy wants one and an
 * interpreter is configured; otherwise the result says why not.
 */
import type { Clock } from '../ports';
import { agentViewer, gateFor, viewerKey } from '../governance/gate';
import {
  FOLLOW_UP_CONFIDENCE,
  HOT,
  INTERPRETER_MAX_NODES,
  INTERPRETER_MIN_NODES,
  MAX_FOLLOW_UPS,
  SCOUT_LIMIT,
  SEED_COUNT,
  SELECTION,
} from './constants';
import { mergeHits, rankByBase, type Candidate } from './merge';
import { resolveQuery } from './query';
import { intentWeights, rerank, type Ranked } from './rerank';
import { hashSeed, seededRandom } from './rng';
import { select } from './select';
import { belowWinners } from '../conflicts/ranking';
import { coherenceOf } from './temperature';
import { shouldUseLlmPass, type Interpreter } from './terrace2';
import { ALLOW_ALL, type Gate } from './types';
import type {
  QueryContext,
  Receipt,
  ResolvedQuery,
  RetrievalCorpus,
  RetrievalResult,
  RetrieveOptions,
  RetrievedNode,
  Scout,
  ScoutHit,
  ScoutName,
  SurfacedConflict,
  Terrace2Decision,
} from './types';

export interface RetrieveDeps {
  corpus: RetrievalCorpus;
  scouts: readonly Scout<ScoutName>[];
  clock: Clock;
  /** ms timer for telemetry (performance.now where there is one). */
  elapsed?: () => number;
  interpreter?: Interpreter | null;
  newId: () => string;
  /** Persists the receipt and bumps retrieval stats; absent or `record: false` → nothing is written. */
  record?: (receipt: Receipt) => Promise<void>;
}

const HOUR = 3600 * 1000;
/** Query classes whose results list the conflicts among them unless `surface_conflicts: false` (docs/contradictions.md). */
export const CONFLICT_CLASSES: readonly string[] = ['design', 'decision', 'synthesis', 'debug'];
/** Receipts list at most this many candidate ids. */
const RECEIPT_CANDIDATES = 200;

interface Scan {
  ranked: Ranked[];
  candidates: Map<string, Candidate>;
  telemetry: RetrievalResult['scouts'];
}

export async function retrieve(ctx: QueryContext, opts: RetrieveOptions, deps: RetrieveDeps): Promise<RetrievalResult> {
  const clockMs = deps.elapsed ?? (() => deps.clock.now());
  const started = clockMs();
  const q = resolveQuery(ctx);
  const now = deps.clock.now();
  const seed = opts.seed ?? hashSeed(`${q.text}|${Math.floor(now / HOUR)}`);
  const viewer = opts.viewer ?? agentViewer(q.agent_id, q.task_id);
  const gate = gateFor(viewer, q.namespaces);
  deps.corpus.beginScan?.();
  const seen = new Map<string, boolean>();
  const check = (id: string): boolean => {
    let v = seen.get(id);
    if (v === undefined) {
      const n = deps.corpus.note(id);
      v = !!n && n.status !== 'quarantined' && gate(n);
      seen.set(id, v);
    }
    return v;
  };
  // Most vaults hold only shared notes: then only notes that exist pass, and the index need not
  // consult the gate note by note (ALLOW_ALL). Any restricted note, or a namespace filter, uses the gate.
  // Hidden folders hide notes whatever their scope: the restricted-set shortcut does not cover them.
  const restricted = viewer.kind === 'agent' && viewer.hidden_folders?.length ? undefined : deps.corpus.restricted?.();
  const visible: Gate =
    restricted && restricted.size === 0 && q.namespaces.length === 0 ? ALLOW_ALL : restricted && q.namespaces.length === 0 ? (id) => !restricted.has(id) || check(id) : check;
  if (visible !== ALLOW_ALL) visible.cacheKey = JSON.stringify([viewerKey(viewer), q.namespaces]);
  if (q.text === '' || deps.corpus.size() === 0) {
    return empty(q, q.text === '' ? 'empty query' : 'empty vault', clockMs() - started);
  }
  const without = new Set<ScoutName>(opts.without ?? []);
  const scouts = deps.scouts.filter((s) => !without.has(s.name));
  const weights = intentWeights(q.intent, opts.jitter === false ? null : seededRandom(seed ^ 0x9e3779b9));

  const scan = async (query: ResolvedQuery): Promise<Scan> => {
    const candidates = new Map<string, Candidate>();
    const telemetry: RetrievalResult['scouts'] = {};
    const runWave = async (wave: 1 | 2, seeds: ScoutHit[], pool: ScoutHit[]): Promise<void> => {
      const results = await Promise.all(
        scouts
          .filter((s) => s.wave === wave)
          .map(async (s) => {
            const t = clockMs();
            const input = { query, corpus: deps.corpus, visible, seeds, pool, limit: SCOUT_LIMIT, now, random: seededRandom(seed ^ hashSeed(s.name)) };
            const hits = (await s.run(input)).filter((h) => visible(h.id)); // belt and braces: a scout bug must not leak
            return { s, hits, ms: clockMs() - t };
          }),
      );
      for (const { s, hits, ms } of results) {
        mergeHits(candidates, s.name, hits);
        telemetry[s.name] = { hits: hits.length, ms: round(ms) };
      }
    };
    await runWave(1, [], []);
    await completeRelevance(query, candidates, deps.corpus, visible, without);
    const pool = rankByBase(candidates.values());
    const seeds = pool.slice(0, SEED_COUNT);
    await runWave(2, seeds, pool);
    const ranked = rerank([...candidates.values()], query, deps.corpus, seeds.map((s) => s.id), weights, now);
    return { ranked, candidates, telemetry };
  };

  const { ranked, candidates, telemetry } = await scan(q);
  for (const name of without) telemetry[name] = { hits: 0, ms: 0, skipped: 'switched off (--without)' };
  const coh = coherenceOf(ranked, deps.corpus);
  const hot = coh.temperature > HOT;
  let final = select(ranked, deps.corpus, {
    k: q.k,
    lambda: hot ? SELECTION.mmr_lambda_hot : SELECTION.mmr_lambda,
    explorationSlots: q.intent === 'explore' ? SELECTION.exploration_slots_explore : hot ? SELECTION.exploration_slots_hot : 0,
    explorationBonus: hot || q.intent === 'explore' ? SELECTION.exploration_bonus_hot : 0,
  });
  // A note refuted or superseded by another returned note ranks right below it (conflicts/ranking.ts).
  final = belowWinners(final, (id) => deps.corpus.edges(id), (id) => deps.corpus.note(id)?.title ?? id);
  const surface = ctx.surface_conflicts ?? CONFLICT_CLASSES.includes(q.query_class);
  let conflicts = !surface ? [] : conflictsAmong(final.map((r) => r.id), deps.corpus, visible);
  const policy = shouldUseLlmPass(conflicts.length, q.query_class, coh.temperature);
  let terrace2: Terrace2Decision = { wanted: policy.wanted, why: policy.why, outcome: 'not wanted' };
  let terrace: 0 | 1 | 2 = ranked.length > 0 ? 1 : 0;
  const extraReasons = new Map<string, string[]>();

  if (policy.wanted && !deps.interpreter) {
    terrace2 = { ...terrace2, outcome: 'skipped: no interpreter configured (MCP sampling unavailable or not wired)' };
  } else if (policy.wanted && deps.interpreter && ranked.length > 0) {
    try {
      const byId = new Map(ranked.map((r) => [r.id, r]));
      const ask = async (list: Ranked[]) =>
        deps.interpreter!.interpret({
          query: q.text,
          query_class: q.query_class,
          temperature: coh.temperature,
          candidates: await Promise.all(list.map(async (r) => describe(r, deps.corpus))),
          min: Math.min(INTERPRETER_MIN_NODES, list.length),
          max: INTERPRETER_MAX_NODES,
        });
      let offered = ranked.slice(0, INTERPRETER_MAX_NODES * 2);
      let answer = await ask(offered);
      let followed = '';
      if (answer.confidence < FOLLOW_UP_CONFIDENCE && hot && answer.follow_up_queries.length > 0) {
        const extra: Ranked[] = [];
        for (const text of answer.follow_up_queries.slice(0, MAX_FOLLOW_UPS)) {
          const fq = resolveQuery({ ...ctx, query_text: text });
          if (fq.text === '') continue;
          for (const r of (await scan(fq)).ranked.slice(0, q.k)) {
            if (byId.has(r.id) || extra.some((e) => e.id === r.id)) continue;
            extraReasons.set(r.id, [`found by the follow-up query "${fq.text}"`]);
            extra.push(r);
            byId.set(r.id, r);
          }
        }
        offered = [...offered, ...extra];
        answer = await ask(offered);
        followed = ` after ${Math.min(MAX_FOLLOW_UPS, answer.follow_up_queries.length)} follow-up quer(ies)`;
      }
      const picked = [...new Set(answer.selected)].filter((id) => byId.has(id) && visible(id)).slice(0, INTERPRETER_MAX_NODES);
      if (picked.length > 0) {
        final = picked.map((id) => byId.get(id)!);
        for (const b of answer.bridges) {
          for (const [x, y] of [[b.a, b.b], [b.b, b.a]]) {
            if (!picked.includes(x)) continue;
            const why = `interpreter: bridge to "${deps.corpus.note(y)?.title ?? y}" — ${b.why}`;
            extraReasons.set(x, [...(extraReasons.get(x) ?? []), why]);
          }
        }
        conflicts = !surface ? [] : conflictsAmong(final.map((r) => r.id), deps.corpus, visible);
        terrace = 2;
        terrace2 = { ...terrace2, outcome: `done: ${picked.length} nodes selected, confidence ${answer.confidence.toFixed(2)}${followed}` };
      } else {
        terrace2 = { ...terrace2, outcome: 'skipped: the interpreter selected no known node; terrace-1 ranking kept' };
      }
    } catch (err) {
      terrace2 = { ...terrace2, outcome: `skipped: interpreter failed (${err instanceof Error ? err.message : String(err)})` };
    }
  }

  const nodes: RetrievedNode[] = final.map((r) => {
    const n = deps.corpus.note(r.id)!;
    return {
      id: r.id,
      path: n.path,
      title: n.title,
      note_type: n.note_type,
      namespace: n.namespace,
      score: round(r.score),
      reasons: [...r.candidate.reasons, ...(r.why ? [r.why] : []), ...(extraReasons.get(r.id) ?? [])],
      scouts: (Object.keys(r.terms.scouts) as ScoutName[]).sort(),
      terms: roundTerms(r.terms),
    };
  });
  const result: RetrievalResult = {
    nodes,
    temperature: round(coh.temperature),
    coherence: round(coh.coherence),
    coherence_signals: {
      embedding: round(coh.signals.embedding),
      agreement: round(coh.signals.agreement),
      concentration: round(coh.signals.concentration),
      edges: round(coh.signals.edges),
      shared: round(coh.signals.shared),
    },
    terrace_reached: terrace,
    terrace2,
    conflicts,
    receipt_id: null,
    query_class: q.query_class,
    intent: q.intent,
    scouts: telemetry,
    ms: round(clockMs() - started),
  };
  if (opts.record !== false && deps.record) {
    const receipt: Receipt = {
      receipt_id: deps.newId(),
      ts: new Date(now).toISOString(),
      agent_id: q.agent_id,
      task_id: q.task_id,
      query_text: q.text,
      query_class: q.query_class,
      intent: q.intent,
      namespace_filter: q.namespaces,
      temperature: result.temperature,
      coherence: result.coherence,
      terrace_reached: terrace,
      terrace2,
      candidates: [...candidates.keys()].slice(0, RECEIPT_CANDIDATES),
      final_nodes: nodes.map((n) => ({ id: n.id, path: n.path, title: n.title, score: n.score, scouts: n.scouts, terms: n.terms })),
      conflicts,
      scouts: telemetry,
    };
    await deps.record(receipt);
    result.receipt_id = receipt.receipt_id;
  }
  return result;
}

/**
 * The lexical and vector scouts each return their own top list; a note high on one side and just outside
 * the other's list would otherwise get 0 there and lose to weaker notes inside both lists.
 */
async function completeRelevance(
  q: ResolvedQuery,
  candidates: Map<string, Candidate>,
  corpus: RetrievalCorpus,
  visible: (id: string) => boolean,
  without: ReadonlySet<ScoutName>,
): Promise<void> {
  if (!corpus.complete || q.text === '') return;
  const sides = (['lexical', 'vector'] as const).filter((s) => !without.has(s));
  const ids = [...candidates.values()].filter((c) => sides.some((s) => c.scouts[s] === undefined)).map((c) => c.id);
  if (ids.length === 0) return;
  const scores = await corpus.complete(q.text, ids, visible);
  for (const side of sides) {
    const hits: ScoutHit[] = [];
    for (const id of ids) {
      const v = scores.get(id)?.[side] ?? 0;
      if (v > 0 && candidates.get(id)!.scouts[side] === undefined) {
        hits.push({ id, score: v, reasons: [side === 'lexical' ? `BM25 ${v.toFixed(2)} of the best match` : `embedding similarity ${v.toFixed(2)} (min-max over the vault)`] });
      }
    }
    mergeHits(candidates, side, hits);
  }
}

function conflictsAmong(ids: readonly string[], corpus: RetrievalCorpus, visible: (id: string) => boolean): SurfacedConflict[] {
  const out = new Map<string, SurfacedConflict>();
  for (const id of ids) {
    for (const e of corpus.edges(id)) {
      if (e.type !== 'contradicts' || out.has(e.edge_id)) continue;
      // Both ends must be visible: a conflict must not reveal a note the caller may not see.
      if (!visible(e.from_id) || !visible(e.to_id)) continue;
      out.set(e.edge_id, { edge_id: e.edge_id, a: e.from_id, b: e.to_id, state: e.conflict_state });
    }
  }
  return [...out.values()].sort((a, b) => (a.edge_id < b.edge_id ? -1 : 1));
}

async function describe(r: Ranked, corpus: RetrievalCorpus) {
  const n = corpus.note(r.id)!;
  const excerpt = corpus.excerpt ? await corpus.excerpt(r.id, 600) : '';
  return { id: r.id, title: n.title, path: n.path, note_type: n.note_type, score: round(r.score), excerpt };
}

function empty(q: ResolvedQuery, why: string, ms: number): RetrievalResult {
  return {
    nodes: [],
    temperature: 0,
    coherence: 1,
    coherence_signals: { embedding: 0, agreement: 0, concentration: 0, edges: 0, shared: 0 },
    terrace_reached: 0,
    terrace2: { wanted: false, why, outcome: 'not wanted' },
    conflicts: [],
    receipt_id: null,
    query_class: q.query_class,
    intent: q.intent,
    scouts: {},
    ms: round(ms),
  };
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

function roundTerms(t: Ranked['terms']): Ranked['terms'] {
  const scouts: Ranked['terms']['scouts'] = {};
  for (const [k, v] of Object.entries(t.scouts)) scouts[k as ScoutName] = round(v);
  return {
    base: round(t.base),
    type_prior: round(t.type_prior),
    scope_affinity: round(t.scope_affinity),
    graph_affinity: round(t.graph_affinity),
    spaced_repetition: round(t.spaced_repetition),
    ignored_penalty: round(t.ignored_penalty),
    misleading_penalty: round(t.misleading_penalty),
    concept_damping: round(t.concept_damping),
    tag_affinity: round(t.tag_affinity),
    intent: round(t.intent),
    scouts,
  };
}
