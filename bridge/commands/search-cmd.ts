import { openVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import type { SearchMode } from '../../shared/index/search-index';
import { LithosError } from '../../shared/errors';
import { printJson, table, type Out } from './output';

const MODES: SearchMode[] = ['lexical', 'vector', 'hybrid'];

/** `lithos search <vault> <query> [--k N] [--mode lexical|vector|hybrid] [--json]` */
export async function searchCommand(
  vault: string,
  query: string,
  o: { k: number; mode: string; namespace?: string[]; json: boolean; out: Out; logger: Logger },
): Promise<number> {
  if (!MODES.includes(o.mode as SearchMode)) {
    throw new LithosError('invalid_argument', `--mode must be one of ${MODES.join(', ')} (got "${o.mode}").`);
  }
  const v = await openVault(vault, { write: false, logger: o.logger });
  try {
    await v.engine.reconcile();
    const filters = o.namespace?.length ? { namespaces: o.namespace } : undefined;
    const results = await v.engine.search(query, { k: o.k, mode: o.mode as SearchMode, filters });
    if (o.json) printJson(o.out, { query, mode: o.mode, results });
    else if (results.length === 0) o.out('No results.');
    else {
      o.out(table([['#', 'score', 'type', 'path'], ...results.map((r, i) => [String(i + 1), r.score.toFixed(3), r.note_type, r.path])]));
      o.out('');
      for (const [i, r] of results.slice(0, 3).entries()) o.out(`${i + 1}. ${r.title}\n   ${r.snippet.replace(/\s+/g, ' ')}`);
    }
    return 0;
  } finally {
    await v.close();
  }
}
