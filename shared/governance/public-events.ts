/**
 * Events for other tools (docs/events.md): a typed stream of what changed in the memory, for other Obsidian
 * plugins (the plugin's `api.events`) and, through webhooks, for anything listening on the machine.
 *
 * Every state change is audited, so the stream is derived from the audit trail in one place: an entry whose
 * action has a public meaning becomes an event, carrying the entry's seq (a stable delivery id, in order) and a
 * small, fixed set of its fields — ids, paths, states — never a note's text.
 */
import type { AuditActor, AuditEntry } from './audit';

export const PUBLIC_EVENT_TYPES = [
  'note.written',
  'note.deleted',
  'conflict.opened',
  'conflict.resolved',
  'decision.superseded',
  'claim.refuted',
  'ledger.state_changed',
  'proposal.created',
  'proposal.decided',
  'task.completed',
] as const;
export type PublicEventType = (typeof PUBLIC_EVENT_TYPES)[number];

export interface LithosEvent {
  type: PublicEventType;
  /** The audit entry's seq: increasing, unique per vault, the same on every redelivery. */
  seq: number;
  /** ISO time of the change. */
  at: string;
  actor: AuditActor;
  /** What changed: a note id, a conflict id, a proposal id, a task id. */
  target: string | null;
  data: Record<string, unknown>;
}

/** The audit action a public event comes from, and which of the entry's data fields it carries. */
const FROM_AUDIT: Record<string, { type: PublicEventType; fields: readonly string[] }> = {
  'note.write': { type: 'note.written', fields: ['path', 'version', 'created'] },
  'note.delete': { type: 'note.deleted', fields: ['path', 'trashed_to'] },
  // A note changed outside the tools (Obsidian, another editor, a sync client), coalesced per note.
  'external.edit': { type: 'note.written', fields: ['path', 'version'] },
  'conflict.create': { type: 'conflict.opened', fields: ['a', 'b', 'a_path', 'b_path', 'rule'] },
  'conflict.resolve': { type: 'conflict.resolved', fields: ['resolution', 'a', 'b', 'winner_id', 'loser_id', 'automatic'] },
  'proposal.create': { type: 'proposal.created', fields: ['path', 'mode', 'namespace'] },
  'proposal.accept': { type: 'proposal.decided', fields: ['path', 'note', 'agent'] },
  'proposal.reject': { type: 'proposal.decided', fields: ['path', 'agent'] },
  'task.complete': { type: 'task.completed', fields: ['cited', 'misleading'] },
};

/**
 * A ledger entry moving to another state becomes `ledger.state_changed`, and the two moves other tools most
 * often wait for get their own type as well: a decision superseded, a claim refuted.
 */
const LEDGER_FIELDS = ['path', 'kind', 'ledger_id', 'from', 'to', 'intent', 'superseded_by'];

/** The state moves an audit entry records: `ledger.state` one (an entry written with a new state), `ledger.intent` one per decision it replaced. */
function ledgerMoves(entry: AuditEntry): Record<string, unknown>[] {
  if (entry.action === 'ledger.state') return [pick(entry.data, LEDGER_FIELDS)];
  if (entry.action !== 'ledger.intent' || !Array.isArray(entry.data.replaced)) return [];
  const moves: Record<string, unknown>[] = [];
  for (const r of entry.data.replaced as Record<string, unknown>[]) {
    // Only a replaced decision carries `state`; another note replaced is a note write (note.written).
    if (typeof r.state !== 'string') continue;
    moves.push({ path: r.path, kind: 'decision', ledger_id: r.ref, to: r.state, intent: r.intent, superseded_by: entry.data.ref ?? entry.target });
  }
  return moves;
}

function pick(data: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (data[f] !== undefined) out[f] = data[f];
  return out;
}

/** The public events an audit entry stands for (none for most internal actions). */
export function publicEventsOf(entry: AuditEntry): LithosEvent[] {
  const base = { seq: entry.seq, at: entry.ts, actor: entry.actor, target: entry.target };
  if (entry.action === 'ledger.state' || entry.action === 'ledger.intent') {
    const out: LithosEvent[] = [];
    for (const data of ledgerMoves(entry)) {
      out.push({ ...base, type: 'ledger.state_changed', data });
      if (data.kind === 'decision' && (data.to === 'superseded' || data.to === 'deprecated' || data.to === 'aborted')) out.push({ ...base, type: 'decision.superseded', data });
      if (data.kind === 'claim' && data.to === 'refuted') out.push({ ...base, type: 'claim.refuted', data });
    }
    return out;
  }
  const m = FROM_AUDIT[entry.action];
  if (!m) return [];
  const data = pick(entry.data, m.fields);
  if (entry.action === 'proposal.accept') data.status = 'accepted';
  if (entry.action === 'proposal.reject') data.status = 'rejected';
  return [{ ...base, type: m.type, data }];
}

export type EventListener = (event: LithosEvent) => void;

/** Subscribers of the stream: by type, or `*` for every event. A listener that throws never stops the others. */
export class EventBus {
  private readonly listeners = new Map<string, Set<EventListener>>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => undefined) {}

  /** Subscribes; returns the function that unsubscribes. */
  on(type: PublicEventType | '*', listener: EventListener): () => void {
    if (type !== '*' && !(PUBLIC_EVENT_TYPES as readonly string[]).includes(type)) {
      throw new TypeError(`Unknown Lithos event "${String(type)}"; one of ${PUBLIC_EVENT_TYPES.join(', ')} or "*".`);
    }
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit(event: LithosEvent): void {
    for (const key of [event.type, '*']) {
      for (const listener of this.listeners.get(key) ?? []) {
        try {
          listener(event);
        } catch (err) {
          this.onListenerError(err);
        }
      }
    }
  }
}
