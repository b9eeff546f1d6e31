import { openJobVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { plain, printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

interface Space {
  id: string;
  dimensions: number;
  status: string;
}

/** `lithos stats <vault>`: counts; people get aligned tables, --json the engine's stats object as it is. */
export async function statsCommand(vault: string, o: { json: boolean; out: Out; logger: Logger }): Promise<number> {
  const v = await openJobVault(vault, 'stats', { write: false, logger: o.logger });
  try {
    await v.reconcile();
    const s = { ...v.engine.stats(), read_only: v.readOnly };
    if (o.json) printJson(o.out, s);
    else printStats(s, o.out);
    return 0;
  } finally {
    await v.close();
  }
}

/** Counts first, then one table per breakdown; any field the engine adds later still shows, as plain words. */
function printStats(s: Record<string, unknown>, out: Out): void {
  const { by_note_type, by_namespace, embedding_spaces, stores, ...rest } = s;
  const lines: string[][] = Object.entries(rest).map(([k, v]) => [k.replace(/_/g, ' '), plain(v)]);
  if (Array.isArray(embedding_spaces)) {
    lines.push(['embedding spaces', (embedding_spaces as Space[]).map((e) => `${e.id} (${e.dimensions} dims, ${e.status})`).join(', ') || '(none)']);
  }
  out(table(lines));
  const counts = (title: string, what: unknown, order?: (a: [string, number], b: [string, number]) => number) => {
    if (!what || typeof what !== 'object') return;
    const rows = Object.entries(what as Record<string, number>);
    if (order) rows.sort(order);
    out('');
    out(table([[title, 'count'], ...rows.map(([k, n]) => [k, String(n)])]));
  };
  counts('note type', by_note_type, (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  counts('namespace', by_namespace, (a, b) => a[0].localeCompare(b[0])); // sorted by name, sub-namespaces follow their parent
  counts('store', stores);
}

export const statsCmd = defineCommand({
  name: 'stats',
  summary: 'counts: notes, chunks, problems, note types, namespaces, embedding spaces, stores',
  positionals: [VAULT],
  options: {},
  examples: ['lithos stats ~/vault', 'lithos stats ~/vault --json'],
  run: ({ args: [vault], json, out, logger }) => statsCommand(vault, { json, out, logger }),
});
