import type { SqlValue } from 'sql.js';
import { LithosError } from '../errors';
import { EVENT_LIMITS, isEventKind, type EventKind, type EventStatus } from '../model/events';
import { EVENT_COLS, toEvent } from './memory-rows';
import type { MemoryTables } from './memory-tables';
import type { EventRow } from './memory-types';
import { nonEmpty } from './memory-validate';

/** Event ids per links query (SQLite's bound-parameter limit is far above it). */
const LINK_CHUNK = 500;

/** What a listing asks for; every field narrows it. */
export interface EventQuery {
  kinds?: readonly EventKind[];
  /** Inclusive, ms. */
  since?: number;
  /** Exclusive, ms. */
  until?: number;
  /** Only events linked to this node id. */
  node?: string;
  status?: EventStatus;
  /** Rows to skip, then at most `limit`, newest first. */
  offset?: number;
  limit: number;
}

/**
 * Episodic events (tables events and event_links; model/events.ts): recorded by the event log
 * (learning/event-log.ts), listed through a session's events room, aged by learning/event-ageing.ts.
 */
export class MemoryEvents {
  constructor(private readonly t: MemoryTables) {}

  /** Stores events (final state); refused before anything is written when one is malformed. */
  add(rows: readonly EventRow[]): Promise<void> {
    return this.t.mutate(() => {
      if (rows.length === 0) return [];
      for (const r of rows) checkEvent(r);
      return [{ kind: 'events', rows: rows.map((r) => ({ ...r, links: [...r.links] })) }];
    });
  }

  get(id: string): EventRow | null {
    const r = this.t.db.one(`SELECT ${EVENT_COLS} FROM events WHERE event_id = ?`, [id]);
    return r ? this.withLinks(r) : null;
  }

  /** Newest first (by time, then by when recorded). */
  query(q: EventQuery): EventRow[] {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (q.kinds && q.kinds.length > 0) {
      where.push(`kind IN (${q.kinds.map(() => '?').join(', ')})`);
      params.push(...q.kinds);
    }
    const add = (clause: string, v: SqlValue | undefined): void => {
      if (v === undefined) return;
      where.push(clause);
      params.push(v);
    };
    add('at >= ?', q.since);
    add('at < ?', q.until);
    add('status = ?', q.status);
    add('event_id IN (SELECT event_id FROM event_links WHERE node_id = ?)', q.node);
    const sql = `SELECT ${EVENT_COLS} FROM events${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, rowid DESC LIMIT ? OFFSET ?`;
    const rows = this.t.db.all(sql, [...params, q.limit, q.offset ?? 0]);
    // One query for the page's links, not one per event.
    const links = new Map<string, string[]>();
    for (let i = 0; i < rows.length; i += LINK_CHUNK) {
      const ids = rows.slice(i, i + LINK_CHUNK).map((r) => r[0]);
      for (const [e, n] of this.t.db.all(`SELECT event_id, node_id FROM event_links WHERE event_id IN (${ids.map(() => '?').join(', ')}) ORDER BY node_id`, ids)) {
        const list = links.get(String(e)) ?? [];
        list.push(String(n));
        links.set(String(e), list);
      }
    }
    return rows.map((r) => toEvent(r, links.get(String(r[0])) ?? []));
  }

  /**
   * Events the ageing pass may move: active ones recorded before `activeBefore`, archived ones archived
   * before `archivedBefore`, except those of an immortal kind or linked to a node the registry still holds
   * (a live note, or a tombstone kept so a returning note gets its links back).
   */
  expired(activeBefore: number, archivedBefore: number, immortalKinds: readonly string[]): { archive: string[]; prune: string[] } {
    const kinds = immortalKinds.length ? `AND kind NOT IN (${immortalKinds.map(() => '?').join(', ')})` : '';
    const mortal = `${kinds} AND NOT EXISTS (SELECT 1 FROM event_links l JOIN nodes n ON n.node_id = l.node_id WHERE l.event_id = events.event_id)`;
    const ids = (status: EventStatus, before: number): string[] =>
      this.t.db.all(`SELECT event_id FROM events WHERE status = ? AND ${status === 'active' ? 'at' : 'status_at'} < ? ${mortal}`, [status, before, ...immortalKinds]).map((r) => String(r[0]));
    return { archive: ids('active', activeBefore), prune: ids('archived', archivedBefore) };
  }

  setStatus(ids: readonly string[], status: EventStatus, at: number): Promise<void> {
    return this.t.mutate(() => (ids.length === 0 ? [] : [{ kind: 'event_status', ids: [...ids], status, at }]));
  }

  delete(ids: readonly string[]): Promise<void> {
    return this.t.mutate(() => (ids.length === 0 ? [] : [{ kind: 'event_del', ids: [...ids] }]));
  }

  count(status?: EventStatus): number {
    const r = status === undefined ? this.t.db.one('SELECT COUNT(*) FROM events') : this.t.db.one('SELECT COUNT(*) FROM events WHERE status = ?', [status]);
    return Number(r?.[0] ?? 0);
  }

  private withLinks(r: SqlValue[]): EventRow {
    const links = this.t.db.all('SELECT node_id FROM event_links WHERE event_id = ? ORDER BY node_id', [r[0]]).map((x) => String(x[0]));
    return toEvent(r, links);
  }
}

/** Refuses a malformed event (invalid_argument naming the field). */
export function checkEvent(e: EventRow): void {
  nonEmpty('event_id', e.event_id);
  nonEmpty('actor', e.actor);
  nonEmpty('access_scope', e.access_scope);
  if (!isEventKind(e.kind)) throw new LithosError('invalid_argument', `Unknown event kind "${String(e.kind)}".`, { field: 'kind', value: e.kind });
  if (!['agent', 'human', 'system'].includes(e.actor_kind)) throw new LithosError('invalid_argument', 'actor_kind must be agent, human or system.', { value: e.actor_kind });
  if (e.status !== 'active' && e.status !== 'archived') throw new LithosError('invalid_argument', 'status must be active or archived.', { value: e.status });
  if (typeof e.namespace !== 'string') throw new LithosError('invalid_argument', 'namespace must be a string.', { field: 'namespace' });
  if (typeof e.summary !== 'string' || e.summary.trim() === '' || e.summary.length > EVENT_LIMITS.summary_chars) {
    throw new LithosError('invalid_argument', `summary must be 1 to ${EVENT_LIMITS.summary_chars} characters.`, { field: 'summary' });
  }
  for (const f of ['at', 'status_at'] as const) if (!Number.isFinite(e[f])) throw new LithosError('invalid_argument', `${f} must be a finite number.`, { field: f });
  if (!Array.isArray(e.links) || e.links.length > EVENT_LIMITS.links || e.links.some((l) => typeof l !== 'string' || l === '')) {
    throw new LithosError('invalid_argument', `links must be at most ${EVENT_LIMITS.links} node ids.`, { field: 'links' });
  }
  let json: string | undefined;
  try {
    json = e.data === null || e.data === undefined ? 'null' : JSON.stringify(e.data);
  } catch {
    json = undefined;
  }
  if (json === undefined) throw new LithosError('invalid_argument', 'data must be JSON.', { field: 'data' });
  if (json.length > EVENT_LIMITS.data_chars) throw new LithosError('invalid_argument', `data must be at most ${EVENT_LIMITS.data_chars} characters of JSON (got ${json.length}).`, { field: 'data', chars: json.length });
}
