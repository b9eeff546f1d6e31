import { main } from '../../bridge/cli';

/** Runs `lithos <argv…>` in-process: its exit code, its output, and that output parsed as JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed CLI JSON, checked by each test's assertions
export async function cli(...argv: string[]): Promise<{ code: number; out: string; json: () => any }> {
  const lines: string[] = [];
  const code = await main(argv, (s) => lines.push(s));
  const out = lines.join('\n');
  return { code, out, json: () => JSON.parse(out) };
}
