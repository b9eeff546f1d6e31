/**
 * The merge algebra of learned rows (docs/devices.md). Every device keeps, per row, its own contribution; a
 * row's value on any device is `combine` of all devices' contributions, so it depends only on the set of
 * contributions — never on the order they arrived in, nor on how often.
 *
 * - `sum` — a counter per device (use counts, weights, salience): the row holds the sum of every device's
 *   share, clamped when the field has bounds. A device's share is "its row minus the others' shares", so
 *   each device's increments, decays and deletions all survive a merge (no lost update).
 * - `max` — a time that only grows (last seen, last used): the largest of the devices' values.
 * - `lww` — a register (a state, a label, a conflict's resolution): the value with the newest stamp
 *   (hybrid logical clock), the device breaking ties.
 * - `summap` — a map of counters (per-class priors, a term's words): `sum` per key.
 *
 * A row is present while its newest liveness stamp says so; a device that writes a row refreshes its stamp,
 * so a concurrent write beats an older delete.
 */

export type FieldKind =
  | { t: 'sum'; min?: number; max?: number; int?: boolean }
  | { t: 'max' }
  | { t: 'lww' }
  | { t: 'summap' };

export type Fields = Readonly<Record<string, FieldKind>>;

/** A row's replicated values, by field name (absent: not known yet). */
export type RowValues = Record<string, unknown>;

/** One device's share of one row. */
export interface Contribution {
  /** Liveness: present or deleted, with its stamp. */
  a: [boolean, string];
  s?: Record<string, number>;
  m?: Record<string, number>;
  l?: Record<string, [unknown, string]>;
  p?: Record<string, Record<string, number>>;
}

/** Contributions of one row, sorted by device: sums then add up in one order on every device. */
export type Shares = readonly (readonly [string, Contribution])[];

export function sortShares(shares: Shares): Shares {
  return [...shares].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

/** The row every device derives from these shares; null while the row is deleted (or no share says more). */
export function combine(fields: Fields, shares: Shares): RowValues | null {
  if (shares.length === 0) return null;
  const sorted = sortShares(shares);
  let alive: [boolean, string] | null = null;
  for (const [, c] of sorted) if (!alive || c.a[1] > alive[1]) alive = c.a;
  if (!alive || !alive[0]) return null;
  const out: RowValues = {};
  for (const [name, kind] of Object.entries(fields)) {
    switch (kind.t) {
      case 'sum': {
        let total = 0;
        for (const [, c] of sorted) total += c.s?.[name] ?? 0;
        out[name] = clampSum(kind, total);
        break;
      }
      case 'max': {
        let best: number | undefined;
        for (const [, c] of sorted) {
          const v = c.m?.[name];
          if (v !== undefined && (best === undefined || v > best)) best = v;
        }
        if (best !== undefined) out[name] = best;
        break;
      }
      case 'lww': {
        let best: [unknown, string] | undefined;
        for (const [, c] of sorted) {
          const v = c.l?.[name];
          if (v && (!best || v[1] > best[1])) best = v;
        }
        if (best) out[name] = best[0];
        break;
      }
      case 'summap': {
        const total: Record<string, number> = {};
        for (const [, c] of sorted) for (const [k, v] of Object.entries(c.p?.[name] ?? {})) total[k] = (total[k] ?? 0) + v;
        const kept: Record<string, number> = {};
        for (const k of Object.keys(total).sort()) if (total[k] !== 0) kept[k] = total[k];
        out[name] = kept;
        break;
      }
    }
  }
  return out;
}

function clampSum(kind: Extract<FieldKind, { t: 'sum' }>, v: number): number {
  let x = kind.int ? Math.round(v) : v;
  if (kind.min !== undefined && x < kind.min) x = kind.min;
  if (kind.max !== undefined && x > kind.max) x = kind.max;
  return x;
}

/**
 * This device's new share for a row that now holds `row` (null: deleted here), given the other devices'
 * shares already in it and this device's previous share; null when the share does not change. `stamp`
 * is called at most once: every register this change sets carries the same stamp.
 */
export function diffShare(fields: Fields, row: RowValues | null, others: Shares, mine: Contribution | undefined, stamp: () => string): Contribution | null {
  const before = combine(fields, mine ? [...others, ['', mine] as const] : others);
  if (row === null ? before === null : before !== null && sameRow(fields, before, row)) return null; // already what the shares say
  const at = stamp();
  const next: Contribution = { a: [row !== null, at] };
  for (const [name, kind] of Object.entries(fields)) {
    const value = row?.[name];
    switch (kind.t) {
      case 'sum': {
        const target = typeof value === 'number' ? value : 0;
        (next.s ??= {})[name] = target - others.reduce((t, [, c]) => t + (c.s?.[name] ?? 0), 0);
        break;
      }
      case 'max': {
        const prev = mine?.m?.[name];
        const v = typeof value === 'number' && (prev === undefined || value > prev) ? value : prev;
        if (v !== undefined) (next.m ??= {})[name] = v;
        break;
      }
      case 'lww': {
        const prev = mine?.l?.[name];
        if (row !== null && value !== undefined && (before === null || !sameValue(before[name], value))) (next.l ??= {})[name] = [value, at];
        else if (prev) (next.l ??= {})[name] = prev;
        break;
      }
      case 'summap': {
        const target = (value ?? {}) as Record<string, number>;
        const share: Record<string, number> = {};
        for (const [k, v] of Object.entries(target)) share[k] = v;
        for (const [, c] of others) for (const [k, v] of Object.entries(c.p?.[name] ?? {})) share[k] = (share[k] ?? 0) - v;
        (next.p ??= {})[name] = share;
        break;
      }
    }
  }
  return next;
}

function sameRow(fields: Fields, a: RowValues, b: RowValues): boolean {
  for (const name of Object.keys(fields)) if (!sameValue(a[name], b[name])) return false;
  return true;
}

/** Structural equality of JSON values (object key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

/** JSON with object keys sorted: one text per value, whatever order its keys were set in. */
export function stableJson(v: unknown): string {
  if (v === undefined) return 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
    .join(',')}}`;
}
