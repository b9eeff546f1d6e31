/**
 * The panels act through the same lithos_* tools agents call, as the person (PERSON): the dispatcher opens
 * the person's session for each call, which lets the person see everything, and every write is audited as
 * the person, exactly as a tool call. The result shapes below are the tools' documented JSON, typed for the
 * fields the panels read.
 */
import { PERSON } from '../../shared/session/caller';
import type { ToolDispatcher } from '../../shared/tools/types';
import type { Receipt, RetrievalResult } from '../../shared/retrieval/types';
import type { ConflictEvidence, ConflictState, Resolution } from '../../shared/stores/conflict-edges';
import type { EdgeRow } from '../../shared/stores/memory-types';

export interface NodeStatsJson {
  id: string;
  path: string;
  title: string;
  note_type: string;
  namespace: string;
  salience: number;
  retrieval_count: number;
  last_retrieved_at: string | null;
  last_used_at: string | null;
  use_count: number;
  ignored_count: number;
  misleading_count: number;
  spaced_rep_strength: number;
  per_queryclass_priors: Record<string, number>;
  edges: { out: number; in: number; by_type: Record<string, { out: number; in: number }> };
}

export interface EdgeJson extends EdgeRow {
  from_path: string;
  from_title: string;
  to_path: string;
  to_title: string;
}

export interface ConflictEnd {
  id: string;
  path: string;
  title: string;
  status: string;
}

export interface ConflictJson {
  edge_id: string;
  state: ConflictState;
  a: ConflictEnd;
  b: ConflictEnd;
  evidence: ConflictEvidence;
  provenance_type: string;
  provenance_actor: string;
  created_at: string;
  updated_at: string;
}

export interface FeedbackJson {
  receipt_id: string;
  applied: boolean;
  used: string[];
  ignored: string[];
  /** Exploration picks passed over: not counted ignored. */
  exploration_passed_over: string[];
  misleading: string[];
  quarantined: string[];
}

export interface AgentJson {
  id: string;
  name: string | null;
  type: string | null;
  registered_at: string;
  last_seen_at: string;
}

export interface ClaimJson {
  task_id: string;
  aspect: string;
  agent: string;
  claimed_at: string;
  expires_at: string;
  remaining_seconds: number;
}

export interface TaskJson {
  id: string;
  title: string;
  description: string;
  status: string;
  created_by: string;
  created_at: string;
  completed_at: string | null;
  tags: string[];
  claims: ClaimJson[];
}

export interface FindingJson {
  id: string;
  task_id: string;
  agent: string;
  summary: string;
  knowledge_id: string | null;
  created_at: string;
}

/** A proposal as lithos_proposal_list returns it (tools/governance/common.ts proposalJson). */
export interface ProposalJson {
  proposal_id: string;
  status: 'pending' | 'accepted' | 'rejected';
  agent: string;
  created_at: string;
  path: string;
  namespace: string;
  title: string | null;
  /** What the agent asked: a write or a delete. */
  op: 'write' | 'delete';
  /** Why it waits: the note is the person's, or a namespace they confirm. */
  why: 'person_note' | 'namespace';
  mode: 'create' | 'update' | 'upsert';
  content: string | null;
  content_chars: number;
  fields: Record<string, unknown>;
  reason: string | null;
}

/**
 * The tools the panels use, called as the person. Each throws the tool's LithosError on failure. The
 * composition root hands over its dispatcher (the one the bridge serves agents with), so the panels never
 * hold the engine the dispatcher's calls run on.
 */
export class HumanTools {
  constructor(private readonly dispatcher: Pick<ToolDispatcher, 'call'>) {}

  private call<T>(name: string, args: Record<string, unknown>): Promise<T> {
    return this.dispatcher.call(name, args, PERSON) as Promise<T>;
  }

  /**
   * Up to `want` items of a paged list. A tool's page stops at an agent's context budget, not at `limit`; the
   * person's panels are no agent's context, so they follow next_cursor until they have what they show.
   */
  private async collect<T>(name: string, args: Record<string, unknown>, key: string, want: number): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const page: Record<string, unknown> = await this.call(name, { ...args, limit: want - items.length, ...(cursor ? { cursor } : {}) });
      items.push(...((page[key] as T[] | undefined) ?? []));
      cursor = typeof page.next_cursor === 'string' ? page.next_cursor : null;
    } while (cursor !== null && items.length < want);
    return items;
  }

  nodeStats(path: string): Promise<NodeStatsJson> {
    return this.call('lithos_node_stats', { path });
  }
  async edges(path: string): Promise<EdgeJson[]> {
    return this.collect<EdgeJson>('lithos_edge_list', { node: path, direction: 'both' }, 'edges', 1000);
  }
  /** Without a weight the tool's default applies. */
  async createEdge(from: string, to: string, type: string, weight?: number): Promise<void> {
    await this.call('lithos_edge_create', weight === undefined ? { from, to, type } : { from, to, type, weight });
  }
  async conflicts(q: { state?: ConflictState; node?: string } = {}): Promise<ConflictJson[]> {
    return this.collect<ConflictJson>('lithos_conflict_list', q, 'conflicts', 1000);
  }
  async openConflict(a: string, b: string, summary: string): Promise<{ conflict: ConflictJson; created: boolean }> {
    return this.call('lithos_conflict_open', { a, b, evidence: summary });
  }
  async resolveConflict(edgeId: string, resolution: Resolution, winnerId: string | null): Promise<ConflictJson> {
    const args: Record<string, unknown> = { edge_id: edgeId, resolution };
    if (winnerId !== null) args.winner_id = winnerId;
    return (await this.call<{ conflict: ConflictJson }>('lithos_conflict_resolve', args)).conflict;
  }
  async receipts(q: { agent?: string; task?: string; node?: string; receipt_id?: string; limit?: number } = {}): Promise<Receipt[]> {
    const { limit = 50, ...filter } = q;
    return this.collect<Receipt>('lithos_receipts', filter, 'receipts', limit);
  }
  /** `try`: teach nothing (no receipt, nothing learned). */
  retrieve(q: { query_text: string; query_class?: string; intent?: string; max_context_nodes?: number; try?: boolean }): Promise<RetrievalResult> {
    const args: Record<string, unknown> = { query_text: q.query_text };
    if (q.try) args.try = true;
    if (q.query_class) args.query_class = q.query_class;
    if (q.intent) args.intent = q.intent;
    if (q.max_context_nodes) args.max_context_nodes = q.max_context_nodes;
    return this.call('lithos_retrieve', args);
  }
  feedback(receiptId: string, cited: string[], misleading: string[]): Promise<FeedbackJson> {
    return this.call('lithos_feedback', { receipt_id: receiptId, cited, misleading });
  }
  async agents(): Promise<AgentJson[]> {
    return this.collect<AgentJson>('lithos_agent_list', {}, 'agents', 1000);
  }
  async tasks(): Promise<TaskJson[]> {
    return this.collect<TaskJson>('lithos_task_list', {}, 'tasks', 100);
  }
  async findings(taskId: string): Promise<FindingJson[]> {
    return this.collect<FindingJson>('lithos_finding_list', { task_id: taskId }, 'findings', 1000);
  }
  async proposals(status: ProposalJson['status']): Promise<ProposalJson[]> {
    return this.collect<ProposalJson>('lithos_proposal_list', { status }, 'proposals', 500);
  }
  async acceptProposal(id: string): Promise<void> {
    await this.call('lithos_proposal_accept', { proposal_id: id });
  }
  async rejectProposal(id: string): Promise<void> {
    await this.call('lithos_proposal_reject', { proposal_id: id });
  }
}
