import { inputJsonSchema } from '../../shared/tools/json-schema';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller, ToolDef } from '../../shared/tools/types';
import { openCatalogVault, PROBES, type CatalogVault, type Probe, type ProbeNote } from './catalog-vault';

/**
 * The catalog × viewer table: every tool in the catalog, called by every kind of agent with arguments aimed at
 * each note that agent may not see, neither shows it nor changes it. The rows are generated from the catalog
 * and the arguments from each tool's input schema, so a tool is covered the day it is added; a tool with a
 * required argument this walk cannot fill fails below until SAMPLES learns it.
 *
 * "Shows": the result (or the error's message and data) carries the note's id or its token (in its title,
 * path, body and tag), and no call of this tool's walk brought it in its arguments (a call can store
 * what it was given — an agent id, a query in a receipt — for a later call to show). Each tool's walk starts
 * from the same freshly opened vault. "Changes": the note's file, any file in its folder,
 * its learned stats, or an edge touching it differs after the call.
 */

let built: CatalogVault;
/** The vault the current tool's walk runs on. */
let v: CatalogVault;
beforeAll(async () => {
  built = await openCatalogVault();
  v = built;
});
afterAll(async () => {
  await v.engine.close();
});

type Args = Record<string, unknown>;

/** Values for required fields the walk does not aim at a probe. */
function samples(): Args {
  return {
    title: 'Catalog walk note',
    content: 'Written by the catalog walk.',
    query: 'zebra',
    query_text: 'zebra striped knowledge',
    from: v.hub.id,
    to: v.hub.id,
    a: v.hub.id,
    b: v.hub.id,
    type: 'supports',
    task_id: v.taskT,
    aspect: 'tests',
    summary: 'A finding of the catalog walk.',
    edge_id: v.probes.shared.edgeId,
    receipt_id: v.probes.shared.receiptId,
    resolution: 'accepted_dual',
    proposal_id: 'no-such-proposal',
    kind: 'observation',
  };
}

/** Each way a field can name the probe: one argument set per entry. */
function aimed(field: string, p: ProbeNote, taskOf: string): unknown[] {
  switch (field) {
    case 'id':
    case 'node':
    case 'from':
    case 'to':
    case 'a':
    case 'b':
    case 'knowledge_id':
    case 'winner_id':
    case 'note':
      return [p.id, p.path];
    case 'links':
      return [[p.id], [p.path]];
    case 'path':
      return [p.path];
    case 'title':
      return [p.title, p.alias];
    case 'cited':
    case 'misleading':
    case 'cited_nodes':
    case 'misleading_nodes':
    case 'supersedes':
      return [[p.id]];
    case 'query':
    case 'query_text':
    case 'prefix':
    case 'suggest':
    case 'history':
      return [p.token];
    case 'tags':
      return [[p.token]];
    case 'namespace':
    case 'namespace_filter':
      return [p.namespace];
    case 'path_prefix':
      return [`${p.folder}/`];
    case 'edge_id':
      return [p.edgeId, p.conflictId];
    case 'receipt_id':
      return [p.receiptId];
    case 'receipt_ids':
      return [[p.receiptId]];
    case 'task_id':
    case 'task':
      return [taskOf];
    default:
      return [];
  }
}

/** Argument sets for one tool aimed at one probe: required fields filled, then each aimable field aimed in turn. */
function argumentSets(def: ToolDef, p: ProbeNote): Args[] {
  const schema = inputJsonSchema(def);
  const props = Object.keys(schema.properties ?? {});
  const required = schema.required ?? [];
  const base: Args = {};
  const s = samples();
  for (const f of required) {
    if (!(f in s)) throw new Error(`${def.name}: the catalog walk has no sample for the required argument "${f}"; add one to samples()`);
    base[f] = s[f];
  }
  const taskOf = p.probe === 'other_task' ? v.taskU : v.taskT;
  const sets: Args[] = [base];
  for (const f of props) {
    for (const value of aimed(f, p, taskOf)) {
      const set: Args = { ...base, [f]: value };
      // Pairs (from/to, a/b) keep the other end at the hub, which everyone sees.
      if (f === 'id' && props.includes('path')) delete set.path;
      sets.push(set);
    }
  }
  return sets;
}

/** What of the probe the walk can see change: its folder's files, its learned stats, the edges touching it. */
function stateOf(p: ProbeNote): string {
  const files = v.vault
    .paths()
    .filter((x) => x.startsWith(`${p.folder}/`))
    .sort()
    .map((x) => [x, v.vault.text(x)]);
  const mem = v.engine.services.learning.memory;
  const edges = [...mem.edges.find({ from: p.id }), ...mem.edges.find({ to: p.id })].sort((x, y) => (x.edge_id < y.edge_id ? -1 : 1));
  return JSON.stringify({ files, stats: mem.stats.get(p.id), edges });
}

/** Markers of the probe in `text` that no call's arguments brought so far. */
function leaks(text: string, planted: Set<string>, p: ProbeNote): string[] {
  return [p.id, p.token].filter((m) => text.includes(m) && !planted.has(m));
}

interface Walk {
  calls: number;
  /** Calls that reached the handler (passed validation). */
  reached: number;
  problems: string[];
}

async function walk(def: ToolDef, caller: ToolCaller, hidden: Probe[], planted: Set<string>): Promise<Walk> {
  const w: Walk = { calls: 0, reached: 0, problems: [] };
  for (const probe of hidden) {
    const p = v.probes[probe];
    for (const args of argumentSets(def, p)) {
      const before = stateOf(p);
      const asked = JSON.stringify(args);
      for (const m of [p.id, p.token]) if (asked.includes(m)) planted.add(m);
      let text: string;
      try {
        text = JSON.stringify(await v.tools.call(def.name, args, caller));
        w.reached++;
      } catch (err) {
        const e = err as { code?: string; message?: string; data?: unknown };
        if (e.code !== 'invalid_argument') w.reached++;
        text = JSON.stringify({ code: e.code, message: e.message, data: e.data });
      }
      w.calls++;
      await v.engine.settle();
      const shown = leaks(text, planted, p);
      if (shown.length > 0) w.problems.push(`${JSON.stringify(args)} showed ${probe} (${shown.join(', ')}): ${text.slice(0, 300)}`);
      if (stateOf(p) !== before) w.problems.push(`${JSON.stringify(args)} changed ${probe}`);
    }
  }
  return w;
}

describe('every tool in the catalog, for every agent, keeps every note it may not see unseen and unchanged', () => {
  test('the walk covers the whole catalog and every probe', () => {
    expect(v.catalog).toBe(TOOL_CATALOG);
    for (const c of v.callers) expect(PROBES.filter((p) => !c.sees.includes(p)).length).toBeGreaterThan(0);
  });

  test.each(TOOL_CATALOG.map((d): [string, ToolDef] => [d.name, d]))('%s', async (_name, def) => {
    await v.engine.close();
    v = await built.fresh();
    const planted = new Set<string>();
    for (const c of v.callers) {
      const hidden = PROBES.filter((p) => !c.sees.includes(p));
      const w = await walk(def, c.caller, hidden, planted);
      expect({ caller: c.name, problems: w.problems }).toEqual({ caller: c.name, problems: [] });
      // The arguments reach the handler, so the walk tests the tool and not only its schema.
      expect(w.reached).toBeGreaterThan(0);
    }
  });
});
