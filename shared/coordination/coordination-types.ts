/** Row shapes and journal ops of coordination.sqlite (re-exported by coordination-store.ts). Times are ms. */
import type { ReplicaOp } from '../stores/replica-rows';

export const TASK_STATUSES = ['open', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Claim lifetimes, in minutes: a claim lapses on its own so a crashed agent never blocks an aspect for long. */
export const DEFAULT_CLAIM_TTL_MINUTES = 60;
export const MAX_CLAIM_TTL_MINUTES = 480;

/**
 * `last_seen_at` is refreshed at most this often: every tool call of an agent passes through ensureAgent,
 * and a journal line per read-only call would be pure churn.
 */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface AgentRow {
  id: string;
  name: string | null;
  type: string | null;
  registered_at: number;
  last_seen_at: number;
  metadata: Record<string, unknown>;
}

export interface TaskRow {
  id: string;
  title: string;
  description: string;
  status: TaskStatus;
  created_by: string;
  created_at: number;
  completed_at: number | null;
  tags: string[];
  metadata: Record<string, unknown>;
}

/** One agent's hold on one aspect of a task; free again once `expires_at` ≤ now. */
export interface ClaimRow {
  task_id: string;
  aspect: string;
  agent_id: string;
  claimed_at: number;
  expires_at: number;
}

export interface FindingRow {
  id: string;
  task_id: string;
  agent_id: string;
  summary: string;
  /** Node id of a note the finding links to. */
  knowledge_id: string | null;
  created_at: number;
}

/**
 * What an agent reported when it completed a task: the evidence the learning layer (issue 5) turns into
 * salience, edge and prior updates. Recorded here verbatim; nothing in this store learns from it.
 * `learned_at` stays null until the learning layer has applied it.
 */
export interface TaskOutcomeRow {
  task_id: string;
  agent_id: string;
  receipt_id: string | null;
  cited_nodes: string[];
  misleading_nodes: string[];
  output_text: string | null;
  recorded_at: number;
  learned_at: number | null;
}

/**
 * A journaled mutation. Every op carries final row states (not deltas), so replaying it twice, or onto
 * a snapshot that already holds it, gives the same result. Each public mutation writes exactly one op,
 * so a crash can never leave half of one (a task completed but its claims still held).
 */
export type CoordinationOp =
  | { kind: 'agent'; row: AgentRow }
  | { kind: 'task'; row: TaskRow }
  /** Replaces whatever row held (task_id, aspect): an expired claim or the holder's own. */
  | { kind: 'claim'; row: ClaimRow }
  | { kind: 'claim_del'; task_id: string; aspect: string }
  | { kind: 'finding'; row: FindingRow }
  /** Completion: the task's final row, all its claims dropped, the outcome recorded. */
  | { kind: 'complete'; task: TaskRow; outcome: TaskOutcomeRow }
  | { kind: 'outcome'; row: TaskOutcomeRow }
  /** The replica's shares and devices (tasks, claims, findings and agents travel between devices: docs/devices.md). */
  | ReplicaOp;
