import { openJobVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import type { Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

const QUERIES = ['why did ingestion latency regress', 'connection pool', 'cache stampede after deploy'];

/**
 * `lithos demo <vault>` (what `npm start` runs): indexes the vault headless, then shows what the memory
 * holds, answers a few searches and one full retrieval, so a fresh clone shows the engine working end to end.
 */
export async function demoCommand(vault: string, o: { out: Out; logger: Logger; queries?: string[] }): Promise<number> {
  // Callouts off: the demo runs on the repository's example notes and must leave their Markdown as it is.
  const v = await openJobVault(vault, 'demo', { write: true, logger: o.logger, callouts: false, devices: false });
  try {
    const r = await v.engine.reconcile();
    o.out(`Lithos Memory — vault ${v.root}`);
    o.out(`Indexed ${r.notes} notes (${r.indexed} indexed, ${r.unchanged} unchanged) in ${r.duration_ms} ms; stores in .lithos/.`);
    const s = v.engine.stats() as { by_note_type: Record<string, number>; by_namespace: Record<string, number> };
    o.out(`Note types: ${Object.entries(s.by_note_type).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    o.out(`Namespaces: ${Object.keys(s.by_namespace).sort().join(', ')}`);
    for (const q of o.queries ?? QUERIES) {
      const hits = await v.engine.services.search.search(q, { k: 3, mode: 'hybrid' });
      o.out(`\nsearch "${q}"`);
      for (const h of hits) o.out(`  ${h.score.toFixed(3)}  ${h.title}  (${h.note_type}, ${h.path})`);
      if (!hits.length) o.out('  no results');
    }
    const scan = await v.engine.services.conflicts.detectAll();
    const open = v.engine.services.conflicts.list({ state: 'unreviewed' });
    const title = (id: string): string => v.engine.services.notes.note(id)?.cached.meta.title ?? id;
    o.out(`\nconflict rules over ${scan.notes} notes: ${scan.opened.length} new, ${open.length} unreviewed`);
    for (const c of open) o.out(`  ${title(c.a)}  ⟷  ${title(c.b)}  (${c.provenance_actor})`);
    const task = 'why did ingestion latency regress';
    // A try: the demo shows the engine without teaching it (no receipt, nothing learned from being shown).
    const r2 = await v.engine.services.retrieval.retrieve({ query_text: task, query_class: 'debug', agent_id: 'demo', max_context_nodes: 5 }, { try: true });
    o.out(`\nretrieve "${task}" (class debug) — temperature ${r2.temperature.toFixed(2)}, terrace ${r2.terrace_reached}`);
    for (const n of r2.nodes) o.out(`  ${n.score.toFixed(3)}  ${n.title}  [${n.scouts.join(', ')}]\n         why: ${n.reasons.slice(0, 2).join('; ')}`);
    for (const c of r2.conflicts) o.out(`  conflict among these: ${title(c.a)}  ⟷  ${title(c.b)} (${c.state ?? 'unreviewed'})`);
    o.out(`  terrace 2: ${r2.terrace2.outcome} (${r2.terrace2.why}); a try: no receipt, nothing learned`);
    const d = await v.engine.doctor();
    o.out(`\nDoctor: ${d.problems.length} note problem(s), ${d.broken_links.length} broken link(s).`);
    for (const p of d.problems.slice(0, 5)) o.out(`  ${p.code}: ${p.path}: ${p.message}`);
    o.out(`\nTry: lithos retrieve ${vault} "<task>" --class debug --try · lithos receipts ${vault} · lithos conflicts ${vault} · lithos search ${vault} "<query>" · lithos doctor ${vault} · lithos stats ${vault} (node dist/bridge/cli.js …)`);
    return 0;
  } finally {
    await v.close();
  }
}

export const demoCmd = defineCommand({
  name: 'demo',
  summary: 'index a vault and show searches, a retrieval, conflicts and doctor (what npm start runs)',
  positionals: [VAULT],
  options: {},
  json: false,
  examples: ['lithos demo examples/vault'],
  run: ({ args: [vault], out, logger }) => demoCommand(vault, { out, logger }),
});
