import type { Scout } from '../scout-contract';

/**
 * Declares a scout. The `const` type parameter keeps its name a literal, so the registry (index.ts) can
 * derive ScoutName from the scouts it lists instead of a second list of names.
 */
export function defineScout<const N extends string>(scout: Scout<N>): Scout<N> {
  return scout;
}
