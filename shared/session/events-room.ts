/**
 * Episodic events (model/events.ts) as a session's viewer may record and read them. An event carries an
 * access scope and a namespace, judged by the same gate as a note's (governance/gate.ts), its recording
 * agent standing as the author:
 *
 * - an agent records only the kinds of AGENT_EVENT_KINDS, and only an event it could read itself without
 *   being its author (its own `agent/<id>` namespace, a task it is on, a project namespace of its allowlist,
 *   or shared); its links name notes it may see (another is not_found, as everywhere);
 * - an agent reads an event when the gate lets it see the event and every linked note that still exists
 *   (links to notes gone from the vault are left out), and every note its `data.about` names (an external
 *   edit's note, named without the link that would keep the event forever); the person reads every event;
 * - every tool call an agent makes is recorded as a `tool_call` event in its own private namespace
 *   (an unnamed or unverified agent's: the person's only).
 */
import { LithosError } from '../errors';
import { canSee, gatedNote, type GatedNote } from '../governance/gate';
import { AGENT_EVENT_KINDS, type EventKind, type EventStatus } from '../model/events';
import { parseTimeArg } from '../retrieval/receipts';
import type { EventRow } from '../stores/memory-store';
import type { NotesRoom } from './notes-room';
import type { Services } from './services';
import type { SessionScope } from './session-scope';

/** The scopes an event may take: a note's (governance/gate.ts). */
export const EVENT_SCOPES = ['agent_private', 'task', 'project', 'shared', 'user_private'] as const;
export type EventScope = (typeof EVENT_SCOPES)[number];

export interface RecordEvent {
  kind: EventKind;
  summary: string;
  data?: unknown;
  /** Notes the event is about: ids or vault paths. A link to a note keeps the event for good. */
  links?: readonly string[];
  /** Default: agent_private for an agent, user_private for the person. */
  scope?: EventScope;
  /** The task of a `task` event. */
  task_id?: string;
  /** The namespace of a `project` (or `shared`) event. */
  namespace?: string;
}

export interface EventFilter {
  kinds?: readonly EventKind[];
  /** ISO time, a time ago (`3d`) or ms. */
  since?: string;
  until?: string;
  /** Only events linked to this note (id or vault path). */
  note?: string;
  status?: EventStatus;
}

/** An event as a viewer reads it. */
export interface EventView {
  id: string;
  kind: EventKind;
  at: string;
  actor: string;
  actor_kind: EventRow['actor_kind'];
  scope: string;
  namespace: string;
  summary: string;
  data: unknown;
  links: string[];
  status: EventStatus;
}

/** How a tool call ended, as its event records it (tools/tool-call-event.ts shapes it). */
export interface ToolCallRecord {
  tool: string;
  /** The arguments summarised: no secrets, bounded. */
  args: unknown;
  ok: boolean;
  /** The error code of a failed call. */
  code?: string;
  /** A reference to the receipt a retrieval wrote (never a copy of it). */
  receipt_id?: string;
  task_id?: string;
}

/** Rows read from the store per look while filling a page of visible events. */
const SCAN = 200;

export class EventsRoom {
  constructor(
    private readonly services: Services,
    private readonly who: SessionScope,
    private readonly notes: NotesRoom,
  ) {}

  /** Records one event (durable when resolved) and audits it ('event.record'). */
  async record(e: RecordEvent): Promise<EventView> {
    const person = this.who.isPerson;
    const actor = this.who.actor('lithos_event_record');
    if (!person && !AGENT_EVENT_KINDS.includes(e.kind)) {
      throw new LithosError('invalid_argument', `An agent records events of kind ${AGENT_EVENT_KINDS.join(', ')}; "${e.kind}" is the engine's own record.`, { field: 'kind', value: e.kind });
    }
    if (e.data !== null && typeof e.data === 'object' && 'about' in e.data) {
      // The engine's own field (an external edit's note): judged on reading, it would tell hidden notes from missing ones.
      throw new LithosError('invalid_argument', 'data.about is the engine\'s own field; name the notes an event is about in links.', { field: 'data.about' });
    }
    const scope = e.scope ?? (person ? 'user_private' : 'agent_private');
    const namespace = this.namespaceOf(scope, e, actor);
    if (!person && !canSee(this.who.viewer, { namespace, access_scope: scope, author: null, path: '' })) {
      throw new LithosError('forbidden', `An agent records only events it may read itself: a ${scope} event in "${namespace}" is outside its scope. Use your own (scope agent_private), a task you are on, a namespace of your allowlist, or shared.`, { scope, namespace });
    }
    const links = (e.links ?? []).map((ref) => this.nodeId(ref));
    const row = await this.services.learning.events.record({
      kind: e.kind,
      actor,
      actor_kind: person ? 'human' : 'agent',
      access_scope: scope,
      namespace,
      summary: e.summary,
      ...(e.data === undefined ? {} : { data: e.data }),
      links,
    });
    await this.services.governance.audit.append({ action: 'event.record', actor: this.who.auditActor, target: row.event_id, data: { kind: row.kind, scope, namespace, links } });
    return toView(row);
  }

  /**
   * Up to `count` events matching `f` that the viewer may read, newest first, as it may read them.
   * not_found for a `note` the viewer may not see.
   */
  list(f: EventFilter, count: number): EventView[] {
    const now = this.services.clock.now();
    const since = f.since === undefined ? undefined : parseTimeArg(f.since, now, 'since');
    const until = f.until === undefined ? undefined : parseTimeArg(f.until, now, 'until');
    if (since !== undefined && until !== undefined && since >= until) {
      throw new LithosError('invalid_argument', `since (${new Date(since).toISOString()}) must be before until (${new Date(until).toISOString()}).`, { field: 'since' });
    }
    const node = f.note === undefined ? undefined : this.nodeId(f.note);
    const out: EventView[] = [];
    for (let offset = 0; out.length < count; offset += SCAN) {
      const rows = this.services.learning.memory.events.query({ kinds: f.kinds, since, until, node, status: f.status, offset, limit: SCAN });
      for (const r of rows) {
        const v = this.view(r);
        if (v) out.push(v);
        if (out.length >= count) break;
      }
      if (rows.length < SCAN) break;
    }
    return out;
  }

  /** Queues the record of an agent's tool call (batched: learning/event-log.ts); the person's calls are not recorded. */
  toolCall(call: ToolCallRecord): void {
    const c = this.who.caller;
    if (c.kind !== 'agent') return;
    // Only a named, verified agent owns its record; an impostor's calls are not filed under the id it claimed.
    const own = c.agent_id !== null && c.verified !== false;
    const actor = c.agent_id === null ? 'unnamed agent' : own ? c.agent_id : `${c.agent_id} (unverified)`;
    this.services.learning.events.enqueue({
      kind: 'tool_call',
      actor,
      actor_kind: 'agent',
      access_scope: 'agent_private',
      namespace: own ? `agent/${c.agent_id}` : '',
      summary: `${call.tool} ${call.ok ? 'ok' : (call.code ?? 'failed')}`,
      data: call,
    });
  }

  /** The event as the viewer may read it, or null (see the module comment). */
  private view(r: EventRow): EventView | null {
    const viewer = this.who.viewer;
    if (viewer.kind === 'human') return toView(r);
    const event: GatedNote = { namespace: r.namespace, access_scope: r.access_scope, author: r.actor_kind === 'agent' ? r.actor : null, path: '' };
    if (!canSee(viewer, event)) return null;
    // Notes the event is about without linking them (an external edit): judged like links, never shown as links.
    const about = (r.data as { about?: unknown } | null)?.about;
    for (const id of Array.isArray(about) ? about : []) {
      const n = typeof id === 'string' ? this.services.notes.note(id) : null;
      if (n && n.nodeId === id && !canSee(viewer, gatedNote(n))) return null;
    }
    const links: string[] = [];
    for (const id of r.links) {
      const n = this.services.notes.note(id);
      if (!n || n.nodeId !== id) continue; // gone: no scope left to judge, so not shown
      if (!canSee(viewer, gatedNote(n))) return null;
      links.push(id);
    }
    return toView({ ...r, links });
  }

  private namespaceOf(scope: EventScope, e: RecordEvent, actor: string): string {
    if (scope === 'task') {
      if (!e.task_id) throw new LithosError('invalid_argument', 'A task event names its task: pass task_id.', { field: 'task_id' });
      return `task/${e.task_id}`;
    }
    if (scope === 'project' && !e.namespace) throw new LithosError('invalid_argument', 'A project event names its namespace: pass namespace.', { field: 'namespace' });
    if (scope === 'agent_private' && !this.who.isPerson) return `agent/${actor}`;
    return (e.namespace ?? '').trim().replace(/^\/+|\/+$/g, '');
  }

  /** A note id or vault path the viewer may see (not_found otherwise, as everywhere). */
  private nodeId(ref: string): string {
    if (!this.who.isPerson) return this.notes.findByIdOrPath(ref).nodeId;
    const n = this.services.notes.note(ref);
    if (!n) throw new LithosError('not_found', `No note "${ref}". Use lithos_search or lithos_list to find notes.`, { ref });
    return n.nodeId;
  }
}

function toView(r: EventRow): EventView {
  return {
    id: r.event_id,
    kind: r.kind,
    at: new Date(r.at).toISOString(),
    actor: r.actor,
    actor_kind: r.actor_kind,
    scope: r.access_scope,
    namespace: r.namespace,
    summary: r.summary,
    data: r.data,
    links: r.links,
    status: r.status,
  };
}
