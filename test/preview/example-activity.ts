/**
 * A morning of agent activity on the example vault, played through the lithos_* tools exactly as the
 * bridge would deliver it: two agents register, open tasks, claim aspects, retrieve, give feedback, post
 * findings, add edges and open a conflict; the person retrieves once and marks a contradiction. The panel
 * specs and the preview page both start from it, so what the screenshots show is what the specs check.
 * Host-free (no Node APIs): it also runs in the preview page.
 */
import type { MemoryEngine } from '../../shared/engine';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { createDispatcher } from '../../shared/tools/dispatcher';
import type { ToolCaller } from '../../shared/tools/types';
import type { RetrievalResult } from '../../shared/retrieval/types';

/** When the activity happens: a few weeks after the example notes were written. */
export const EXAMPLE_NOW = Date.UTC(2026, 2, 25, 9, 30);

export const EXAMPLE_PATHS = {
  poolSize: 'agent/scout-7/Ingest p95 regression caused by pool size.md',
  missingIndex: 'agent/reviewer/Ingest p95 regression caused by missing index.md',
  incident: 'project/atlas/summaries/INC-142 ingest latency regression.md',
  retryV1: 'project/atlas/decisions/Atlas retry policy v1.md',
  retryV2: 'project/atlas/decisions/Atlas retry policy v2.md',
  retryStorm: 'agent/scout-7/Retry storm after broker failover.md',
  jitter: 'project/atlas/decisions/Decision - jittered TTLs and request coalescing.md',
  stampede: 'project/atlas/incidents/Cache stampede after deploy.md',
  pooling: 'shared/concepts/Connection pooling.md',
} as const;

export interface ExampleActivity {
  ingestTask: string;
  retryTask: string;
  /** scout-7's retrieval on the ingest task (feedback given). */
  scoutRetrieval: RetrievalResult;
  /** reviewer's retrieval on the retry task (no feedback yet). */
  reviewerRetrieval: RetrievalResult;
  /** The person's retrieval (no feedback yet). */
  humanRetrieval: RetrievalResult;
  /** The conflicts opened: pool size vs missing index (reviewer), retry v1 vs v2 (the person). */
  conflicts: string[];
}

type Args = Record<string, unknown>;

export async function playExampleActivity(engine: MemoryEngine, advance: (ms: number) => void): Promise<ExampleActivity> {
  const dispatcher = createDispatcher(TOOL_CATALOG, () => ({ gateway: engine }));
  const as = (agent: string | null) => {
    const caller: ToolCaller = agent === null ? { kind: 'human', agent_id: null } : { kind: 'agent', agent_id: agent };
    return <T>(tool: string, args: Args): Promise<T> => dispatcher.call(tool, args, caller) as Promise<T>;
  };
  const scout = as('scout-7');
  const reviewer = as('reviewer');
  const human = as(null);
  const minutes = (m: number): void => advance(m * 60_000);

  await scout('lithos_agent_register', { id: 'scout-7', name: 'Scout 7', type: 'researcher' });
  await reviewer('lithos_agent_register', { id: 'reviewer', name: 'Reviewer', type: 'reviewer' });

  const ingest = await scout<{ task_id: string }>('lithos_task_create', {
    title: 'Find the root cause of the ingest p95 regression',
    description: 'INC-142: p95 of the ingest API doubled after the March deploy.',
    tags: ['atlas', 'ingest'],
  });
  const retry = await reviewer<{ task_id: string }>('lithos_task_create', { title: 'Review the Atlas retry policy', description: 'Check v2 against the broker failover storm.', tags: ['atlas'] });
  await scout('lithos_task_claim', { task_id: ingest.task_id, aspect: 'root cause', ttl_minutes: 45 });
  await reviewer('lithos_task_claim', { task_id: ingest.task_id, aspect: 'verify fix', ttl_minutes: 20 });
  await reviewer('lithos_task_claim', { task_id: retry.task_id, aspect: 'policy review', ttl_minutes: 60 });
  minutes(4);

  const scoutRetrieval = await scout<RetrievalResult>('lithos_retrieve', { query_text: 'ingest p95 latency regression root cause', task_id: ingest.task_id, query_class: 'debug' });
  const returned = (r: RetrievalResult, path: string): string | null => r.nodes.find((n) => n.path === path)?.id ?? null;
  const cited = [returned(scoutRetrieval, EXAMPLE_PATHS.poolSize), returned(scoutRetrieval, EXAMPLE_PATHS.incident)].filter((x): x is string => x !== null);
  if (scoutRetrieval.receipt_id) await scout('lithos_feedback', { receipt_id: scoutRetrieval.receipt_id, cited });
  minutes(3);
  await scout('lithos_finding_post', {
    task_id: ingest.task_id,
    summary: 'A pool of 20 connections saturates under the burst load; p95 follows the queue wait.',
    knowledge_id: EXAMPLE_PATHS.poolSize,
  });
  await scout('lithos_edge_create', { from: EXAMPLE_PATHS.poolSize, to: EXAMPLE_PATHS.incident, type: 'supports', weight: 0.8, evidence: 'queue wait matches the p95 curve' });
  await scout('lithos_edge_create', { from: EXAMPLE_PATHS.poolSize, to: EXAMPLE_PATHS.pooling, type: 'is_example_of', weight: 0.6 });
  minutes(6);

  await reviewer('lithos_finding_post', { task_id: ingest.task_id, summary: 'The composite index on events was dropped in the same deploy.', knowledge_id: EXAMPLE_PATHS.missingIndex });
  await reviewer('lithos_edge_create', { from: EXAMPLE_PATHS.missingIndex, to: EXAMPLE_PATHS.incident, type: 'supports', weight: 0.7 });
  const open = await reviewer<{ conflict: { edge_id: string } }>('lithos_conflict_open', {
    a: EXAMPLE_PATHS.poolSize,
    b: EXAMPLE_PATHS.missingIndex,
    evidence: 'Both claim to be the root cause of INC-142',
  });
  const reviewerRetrieval = await reviewer<RetrievalResult>('lithos_retrieve', { query_text: 'retry policy after broker failover', task_id: retry.task_id, query_class: 'decision' });
  minutes(5);

  await human('lithos_edge_create', { from: EXAMPLE_PATHS.jitter, to: EXAMPLE_PATHS.stampede, type: 'derived_from', weight: 0.9 });
  const human2 = await human<{ conflict: { edge_id: string } }>('lithos_conflict_open', { a: EXAMPLE_PATHS.retryV2, b: EXAMPLE_PATHS.retryV1, evidence: 'v1 retries every second, 5 times; v2 backs off exponentially with jitter, 8 attempts' });
  const humanRetrieval = await human<RetrievalResult>('lithos_retrieve', { query_text: 'why did ingest latency regress in March', query_class: 'debug' });
  minutes(2);

  return {
    ingestTask: ingest.task_id,
    retryTask: retry.task_id,
    scoutRetrieval,
    reviewerRetrieval,
    humanRetrieval,
    conflicts: [open.conflict.edge_id, human2.conflict.edge_id],
  };
}
