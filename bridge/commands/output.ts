/** Shared output helpers: JSON on stdout for machines, aligned text for people. */
export type Out = (s: string) => void;

export function printJson(out: Out, value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}

export function progressLine(enabled: boolean): ((p: { phase: string; done: number; total: number }) => void) | undefined {
  if (!enabled || !process.stderr.isTTY) return undefined;
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (p.done !== p.total && now - last < 100) return;
    last = now;
    process.stderr.write(`\r${p.phase} ${p.done}/${p.total}${p.done === p.total ? '\n' : ''}`);
  };
}

/**
 * A value as plain words for people (never JSON): a list joined with commas, a record as `key value` pairs,
 * null as `(none)`, fractions to three decimals.
 */
export function plain(v: unknown): string {
  if (v === null || v === undefined) return '(none)';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(3)));
  if (Array.isArray(v)) return v.length ? v.map(plain).join(', ') : '(none)';
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    return entries.length ? entries.map(([k, x]) => `${k} ${plain(x)}`).join(', ') : '(none)';
  }
  return typeof v === 'string' ? v : typeof v === 'bigint' ? v.toString() : typeof v;
}
