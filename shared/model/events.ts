/**
 * Episodic events (LedgerMind's episodic store): short-lived records of what happened — a tool call, a
 * session, a step of a task, an error, a commit — kept apart from the notes (the semantic memory). An event
 * ages out on the learning pass (learning/event-ageing.ts) unless it links to a note or is of an immortal
 * kind. Its `access_scope` and `namespace` are judged by the same gate as a note's (governance/gate.ts).
 */

/** Every kind of event the store holds. */
export const EVENT_KINDS = [
  /** An agent's session began or ended (recorded by the agent). */
  'session',
  /** A lithos_* tool call: tool, summarised arguments, ok or the error code (recorded by the dispatcher). */
  'tool_call',
  /** A step of a task's trajectory (recorded by the agent). */
  'trajectory',
  /** Something went wrong (recorded by the agent). */
  'error',
  /** Something an agent noticed that is not (yet) a note. */
  'observation',
  /** A turning point worth keeping for good (immortal by default). */
  'milestone',
  /** A commit of the vault's git repository (the git indexer). */
  'commit',
  /** A note changed on disk or in Obsidian, outside the tools (sync). */
  'external_edit',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** What an agent may record itself: the rest are the engine's own records, which an agent must not forge. */
export const AGENT_EVENT_KINDS: readonly EventKind[] = ['session', 'trajectory', 'error', 'observation', 'milestone'];

/** Kinds kept forever unless the vault's learning.json lists others (events.immortal_kinds). */
export const DEFAULT_IMMORTAL_EVENT_KINDS: readonly EventKind[] = ['milestone'];

export const EVENT_STATUSES = ['active', 'archived'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** Who acted: an agent, the person, or the engine itself (the git indexer, sync). */
export type EventActorKind = 'agent' | 'human' | 'system';

/** Bounds of one event: a summary line, a little JSON, a few note links. */
export const EVENT_LIMITS = {
  summary_chars: 500,
  /** JSON characters of `data`. */
  data_chars: 2_000,
  links: 20,
} as const;

export function isEventKind(v: unknown): v is EventKind {
  return typeof v === 'string' && (EVENT_KINDS as readonly string[]).includes(v);
}
