import { openVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { DEFAULT_K, MAX_K, SEARCH_MODES, type SearchMode } from '../../shared/index/search-index';
import { spaceCapability, spaceTags } from '../../shared/index/space-capabilities';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/** `lithos search <vault> <query…>`: one search, read-only; it learns nothing and writes no receipt. */
export async function searchCommand(
  vault: string,
  query: string,
  o: { k: number; mode: SearchMode; namespace?: string[]; json: boolean; out: Out; logger: Logger },
): Promise<number> {
  const v = await openVault(vault, { write: false, logger: o.logger });
  try {
    await v.reconcile();
    const filters = o.namespace?.length ? { namespaces: o.namespace } : undefined;
    const results = await v.memory.notes.search(query, { k: o.k, mode: o.mode, filters });
    const spaces = o.mode === 'lexical' ? [] : v.memory.index.spaces();
    if (o.json) printJson(o.out, { query, mode: o.mode, ...(spaces.length ? { spaces: spaceTags(spaces) } : {}), results });
    else if (results.length === 0) o.out('No results.');
    else {
      o.out(table([['#', 'score', 'type', 'path'], ...results.map((r, i) => [String(i + 1), r.score.toFixed(3), r.note_type, r.path])]));
      o.out('');
      for (const [i, r] of results.slice(0, 3).entries()) o.out(`${i + 1}. ${r.title}\n   ${r.snippet.replace(/\s+/g, ' ')}`);
    }
    // Say what the vectors were: "meaning" only when a space is semantic.
    if (!o.json && spaces.length) {
      o.out(`\nVectors: ${spaces.map((id) => `${id} (${spaceCapability(id).semantic ? 'semantic' : 'not semantic'})`).join(', ')}.`);
      if (!spaces.some((id) => spaceCapability(id).semantic)) o.out(`Matches by meaning need a model: lithos model pull ${vault}`);
    }
    return 0;
  } finally {
    await v.close();
  }
}

export const searchCmd = defineCommand({
  name: 'search',
  summary: 'keyword and vector search over the notes (read-only; learns nothing)',
  positionals: [VAULT, { name: 'query', help: 'what to look for: the rest of the line', rest: true }],
  options: {
    k: { type: 'int', help: 'how many results', min: 1, max: MAX_K, default: DEFAULT_K },
    mode: { type: 'string', help: 'ranking: words, vectors (meaning once a model is pulled), or both fused', value: 'mode', choices: SEARCH_MODES, default: 'hybrid' },
    namespace: { type: 'string', help: 'only notes under this namespace prefix', value: 'NS', multiple: true },
  },
  examples: ['lithos search ~/vault connection pool --k 5', 'lithos search ~/vault "cache stampede" --mode lexical --json'],
  run: ({ args: [vault, ...query], values, json, out, logger }) => searchCommand(vault, query.join(' '), { ...values, json, out, logger }),
});
