import { LithosError } from '../errors';
import type { MemoryTables } from './memory-tables';
import type { TargetAliasRow } from './memory-types';

/**
 * The ledger's target aliases in memory.sqlite: when two targets are merged, the merged one's normalised
 * name becomes an alias of the other (shared/ledger/target-registry.ts). The targets themselves are not
 * stored: they are read from the decisions' frontmatter (the Markdown is the truth).
 */
export class MemoryTargets {
  constructor(private readonly t: MemoryTables) {}

  /** Every alias, in name order. */
  aliases(): TargetAliasRow[] {
    return this.t.db
      .all('SELECT alias, target, at, actor FROM target_aliases ORDER BY alias')
      .map((r) => ({ alias: String(r[0]), target: String(r[1]), at: Number(r[2]), actor: String(r[3]) }));
  }

  /** Makes `alias` mean `target` (both normalised names); replaces an earlier alias of that name. */
  setAlias(alias: string, target: string, actor: string): Promise<void> {
    return this.t.mutate(() => {
      if (alias === '' || target === '') throw new LithosError('invalid_argument', 'A target alias needs a name and a target.', { alias, target });
      if (alias === target) throw new LithosError('invalid_argument', `"${alias}" cannot be an alias of itself.`, { alias });
      return [{ kind: 'target_alias', row: { alias, target, at: this.t.clock.now(), actor } }];
    });
  }

  removeAlias(alias: string): Promise<void> {
    return this.t.mutate(() => [{ kind: 'target_alias', row: { alias, target: null } }]);
  }
}
