import { EVENT_COLS, PRECEDENT_COLS, toEvent, toPrecedent } from '../stores/memory-rows';
import type { EventRow, PrecedentRow, TermAssocRow } from '../stores/memory-types';
import type { Codec } from './codec';
import { num, parts, SEP, strings, text } from './codec';

/** The learned rows that are not about one note: affinities, associations, precedents, marks, aliases, events. */

const same = { toPortable: (k: string) => k, toLocal: (k: string) => k };

/** Term–tag affinity (shown / used counts). */
export const affinityCodec: Codec = {
  t: 'affinity',
  fields: { shown: { t: 'sum', int: true, min: 0 }, used: { t: 'sum', int: true, min: 0 }, at: { t: 'max' } },
  touched(db, op) {
    if (op.kind === 'affinity') return op.rows.map((r) => [r.term, r.tag].join(SEP));
    if (op.kind === 'affinity_prune') {
      return db.all("SELECT term, tag FROM tag_affinity WHERE at < ? AND shown < ? AND NOT (term = '' AND tag = '')", [op.before, op.below]).map((r) => r.map(String).join(SEP));
    }
    if (op.kind === 'affinity_del') return [[op.term, op.tag].join(SEP)];
    return [];
  },
  all: (db) => db.all('SELECT term, tag FROM tag_affinity').map((r) => r.map(String).join(SEP)),
  ...same,
  read(db, key) {
    const p = parts(key, 2);
    const r = p ? db.one('SELECT shown, used, at FROM tag_affinity WHERE term = ? AND tag = ?', p) : null;
    return r ? { shown: Number(r[0]), used: Number(r[1]), at: Number(r[2]) } : null;
  },
  write(_db, key, v) {
    const p = parts(key, 2);
    if (!p) return [];
    const [term, tag] = p;
    if (v === null) return [{ kind: 'affinity_del', term, tag }];
    return [{ kind: 'affinity', rows: [{ term, tag, shown: num(v.shown), used: num(v.used), at: num(v.at) }] }];
  },
};

/** Learned term associations: per query term, shown / used, and per word [shown, used] (a map of counters). */
export const assocCodec: Codec = {
  t: 'assoc',
  fields: { shown: { t: 'sum', int: true, min: 0 }, used: { t: 'sum', int: true, min: 0 }, words: { t: 'summap' }, at: { t: 'max' } },
  touched(db, op) {
    if (op.kind === 'assoc') return [...op.rows.map((r) => [r.scope, r.term].join(SEP)), ...op.drop.map((d) => [d.scope, d.term].join(SEP))];
    if (op.kind === 'assoc_prune') return db.all('SELECT scope, term FROM term_assoc WHERE at < ? AND shown < ?', [op.before, op.below]).map((r) => r.map(String).join(SEP));
    return [];
  },
  all: (db) => db.all('SELECT scope, term FROM term_assoc').map((r) => r.map(String).join(SEP)),
  ...same,
  read(db, key) {
    const p = parts(key, 2);
    const r = p ? db.one('SELECT shown, used, words, at FROM term_assoc WHERE scope = ? AND term = ?', p) : null;
    if (!r) return null;
    const words: Record<string, number> = {};
    let parsed: unknown = {};
    try {
      parsed = JSON.parse(String(r[2])) as unknown;
    } catch {
      // a hand-edited column reads as no words, as memory-term-assoc.ts does
    }
    for (const [w, c] of Object.entries((parsed ?? {}) as Record<string, unknown>)) {
      if (Array.isArray(c) && c.length === 2) {
        words[`${w}${SEP}s`] = num(c[0]);
        words[`${w}${SEP}u`] = num(c[1]);
      }
    }
    return { shown: Number(r[0]), used: Number(r[1]), words, at: Number(r[3]) };
  },
  write(_db, key, v) {
    const p = parts(key, 2);
    if (!p) return [];
    const [scope, term] = p;
    if (v === null) return [{ kind: 'assoc', rows: [], drop: [{ scope, term }] }];
    const words: TermAssocRow['words'] = {};
    for (const [k, c] of Object.entries((v.words ?? {}) as Record<string, number>)) {
      const cut = k.lastIndexOf(SEP);
      const w = k.slice(0, cut);
      const pair = (words[w] ??= [0, 0]);
      pair[k.slice(cut + 1) === 's' ? 0 : 1] = c;
    }
    return [{ kind: 'assoc', rows: [{ scope, term, shown: num(v.shown), used: num(v.used), words, at: num(v.at) }], drop: [] }];
  },
};

/** Precedents: a past query and the notes it used (written once; the oldest are dropped). */
export const precedentsCodec: Codec = {
  t: 'precedent',
  fields: { at: { t: 'lww' }, query_class: { t: 'lww' }, query_text: { t: 'lww' }, agent_id: { t: 'lww' }, terms: { t: 'lww' }, used: { t: 'lww' } },
  touched: (_db, op) => (op.kind === 'precedent' ? [op.row.precedent_id] : op.kind === 'precedent_del' ? [...op.ids] : []),
  all: (db) => db.all('SELECT precedent_id FROM precedents').map((r) => String(r[0])),
  ...same,
  read(db, key, n) {
    const r = db.one(`SELECT ${PRECEDENT_COLS} FROM precedents WHERE precedent_id = ?`, [key]);
    if (!r) return null;
    const { precedent_id: _id, ...p } = toPrecedent(r);
    return { ...p, used: n.portableList(p.used) };
  },
  write(_db, key, v, n) {
    if (v === null) return [{ kind: 'precedent_del', ids: [key] }];
    const row: PrecedentRow = {
      precedent_id: key,
      at: num(v.at),
      query_class: text(v.query_class),
      query_text: text(v.query_text),
      agent_id: typeof v.agent_id === 'string' ? v.agent_id : null,
      terms: strings(v.terms),
      used: n.localList(strings(v.used)),
    };
    return [{ kind: 'precedent', row }];
  },
};

/** The learning marks that mean the same on every device (the last decay run, the git head indexed). */
export const SHARED_MARK_PREFIXES = ['decay:', 'git:'];
const sharedMark = (key: string): boolean => SHARED_MARK_PREFIXES.some((p) => key.startsWith(p));

export const marksCodec: Codec = {
  t: 'mark',
  fields: { value: { t: 'lww' } },
  touched: (_db, op) => (op.kind === 'mark' ? [op.key].filter(sharedMark) : op.kind === 'mark_del' ? op.keys.filter(sharedMark) : []),
  all: (db) => db.all('SELECT key FROM learning_marks').map((r) => String(r[0])).filter(sharedMark),
  toPortable: (k) => (sharedMark(k) ? k : null),
  toLocal: (k) => (sharedMark(k) ? k : null),
  read(db, key) {
    const r = db.one('SELECT value FROM learning_marks WHERE key = ?', [key]);
    return r ? { value: JSON.parse(String(r[0])) as unknown } : null;
  },
  write: (_db, key, v) => (v === null ? [{ kind: 'mark_del', keys: [key] }] : [{ kind: 'mark', key, value: v.value ?? null }]),
};

/** Merged ledger targets. */
export const aliasesCodec: Codec = {
  t: 'alias',
  fields: { target: { t: 'lww' }, at: { t: 'lww' }, actor: { t: 'lww' } },
  touched: (_db, op) => (op.kind === 'target_alias' ? [op.row.alias] : []),
  all: (db) => db.all('SELECT alias FROM target_aliases').map((r) => String(r[0])),
  ...same,
  read(db, key) {
    const r = db.one('SELECT target, at, actor FROM target_aliases WHERE alias = ?', [key]);
    return r ? { target: String(r[0]), at: Number(r[1]), actor: String(r[2]) } : null;
  },
  write: (_db, key, v) => [{ kind: 'target_alias', row: v === null ? { alias: key, target: null } : { alias: key, target: text(v.target), at: num(v.at), actor: text(v.actor) } }],
};

/** Episodic events (their status moves; old ones are pruned by the device that ages them). */
export const eventsCodec: Codec = {
  t: 'event',
  fields: {
    kind: { t: 'lww' }, at: { t: 'lww' }, actor: { t: 'lww' }, actor_kind: { t: 'lww' }, access_scope: { t: 'lww' },
    namespace: { t: 'lww' }, summary: { t: 'lww' }, data: { t: 'lww' }, links: { t: 'lww' }, status: { t: 'lww' }, status_at: { t: 'lww' },
  },
  touched: (_db, op) => (op.kind === 'events' ? op.rows.map((r) => r.event_id) : op.kind === 'event_status' || op.kind === 'event_del' ? [...op.ids] : []),
  all: (db) => db.all('SELECT event_id FROM events').map((r) => String(r[0])),
  ...same,
  read(db, key, n) {
    const r = db.one(`SELECT ${EVENT_COLS} FROM events WHERE event_id = ?`, [key]);
    if (!r) return null;
    const links = db.all('SELECT node_id FROM event_links WHERE event_id = ? ORDER BY node_id', [key]).map((x) => String(x[0]));
    const { event_id: _id, ...e } = toEvent(r, links);
    return { ...e, links: n.portableList(e.links).sort() };
  },
  write(_db, key, v, n) {
    if (v === null) return [{ kind: 'event_del', ids: [key] }];
    const row: EventRow = {
      event_id: key,
      kind: text(v.kind) as EventRow['kind'],
      at: num(v.at),
      actor: text(v.actor),
      actor_kind: text(v.actor_kind) as EventRow['actor_kind'],
      access_scope: text(v.access_scope),
      namespace: text(v.namespace),
      summary: text(v.summary),
      data: v.data ?? null,
      links: n.localList(strings(v.links)),
      status: text(v.status) as EventRow['status'],
      status_at: num(v.status_at),
    };
    return [{ kind: 'events', rows: [row] }];
  },
};
