/**
 * Stage 4 of retrieve(): terrace 2, the interpretive pass. When the policy wants one and an interpreter is
 * configured, it picks the nodes among the best candidates (one round of follow-up queries when it is
 * unsure and the scan is hot); otherwise, or when it fails, terrace 1's choice stays and the result says why.
 */
import { FOLLOW_UP_CONFIDENCE, INTERPRETER_MAX_NODES, INTERPRETER_MIN_NODES, MAX_FOLLOW_UPS } from '../constants';
import { resolveQuery } from '../query';
import type { Ranked } from '../rerank';
import { shouldUseLlmPass, type Interpreter } from '../terrace2';
import type { QueryContext, ResolvedQuery, RetrievalCorpus, SurfacedConflict, Terrace2Decision } from '../types';
import { conflictsAmong } from './conflicts';
import type { Choice } from './choose';
import { round, type Outcome } from './result';
import type { Scan } from './scan';

export interface InterpretInput {
  ctx: QueryContext;
  q: ResolvedQuery;
  ranked: Ranked[];
  choice: Choice;
  /** Whether conflicts are listed (conflicts.ts) and those among terrace 1's choice. */
  surface: boolean;
  conflicts: SurfacedConflict[];
  visible: (id: string) => boolean;
  corpus: RetrievalCorpus;
  interpreter: Interpreter | null | undefined;
  /** A whole scan for a follow-up query. */
  rescan: (q: ResolvedQuery) => Promise<Scan>;
}

export async function interpret(input: InterpretInput): Promise<Outcome> {
  const { ctx, q, ranked, surface, visible, corpus, interpreter } = input;
  const { coh, hot } = input.choice;
  let final = input.choice.final;
  let conflicts = input.conflicts;
  const policy = shouldUseLlmPass(conflicts.length, q.query_class, coh.temperature);
  let terrace2: Terrace2Decision = { wanted: policy.wanted, why: policy.why, outcome: 'not wanted' };
  let terrace: 0 | 1 | 2 = ranked.length > 0 ? 1 : 0;
  const extraReasons = new Map<string, string[]>();

  if (policy.wanted && !interpreter) {
    terrace2 = { ...terrace2, outcome: 'skipped: no interpreter configured (MCP sampling unavailable or not wired)' };
  } else if (policy.wanted && interpreter && ranked.length > 0) {
    try {
      const byId = new Map(ranked.map((r) => [r.id, r]));
      const ask = async (list: Ranked[]) =>
        interpreter.interpret({
          query: q.text,
          query_class: q.query_class,
          temperature: coh.temperature,
          candidates: await Promise.all(list.map(async (r) => describe(r, corpus))),
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
          for (const r of (await input.rescan(fq)).ranked.slice(0, q.k)) {
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
            const why = `interpreter: bridge to "${corpus.note(y)?.title ?? y}" — ${b.why}`;
            extraReasons.set(x, [...(extraReasons.get(x) ?? []), why]);
          }
        }
        conflicts = !surface ? [] : conflictsAmong(final.map((r) => r.id), corpus, visible);
        terrace = 2;
        terrace2 = { ...terrace2, outcome: `done: ${picked.length} nodes selected, confidence ${answer.confidence.toFixed(2)}${followed}` };
      } else {
        terrace2 = { ...terrace2, outcome: 'skipped: the interpreter selected no known node; terrace-1 ranking kept' };
      }
    } catch (err) {
      terrace2 = { ...terrace2, outcome: `skipped: interpreter failed (${err instanceof Error ? err.message : String(err)})` };
    }
  }
  return { final, conflicts, terrace, terrace2, extraReasons };
}

async function describe(r: Ranked, corpus: RetrievalCorpus) {
  const n = corpus.note(r.id)!;
  const excerpt = corpus.excerpt ? await corpus.excerpt(r.id, 600) : '';
  return { id: r.id, title: n.title, path: n.path, note_type: n.note_type, score: round(r.score), excerpt };
}
