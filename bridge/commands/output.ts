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
