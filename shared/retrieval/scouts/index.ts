/**
 * The scout registry: adding a scout is its file (defineScout: name, wave, weight, run) plus one line here.
 * ScoutName, SCOUT_NAMES (the CLI's --without choices) and SCOUT_WEIGHTS all derive from this list.
 */
import type { Scout } from '../scout-contract';
import { lexicalScout } from './lexical';
import { vectorScout } from './vector';
import { exactScout } from './exact';
import { tagsScout } from './tags';
import { recencyScout } from './recency';
import { randomScout } from './random';
import { graphScout } from './graph';
import { coactivationScout } from './coactivation';
import { noveltyScout } from './novelty';
import { contradictionsScout } from './contradictions';
import { centroidScout } from './centroid';
import { analogyScout } from './analogy';
import { precedentScout } from './precedent';
import { expansionScout } from './expansion';
import { associationScout } from './association';

/**
 * Every scout of terrace 0, wave 1 then wave 2. The order is the merge order of their hits (reasons are
 * listed in it), so a new scout goes at the end of its wave.
 */
const REGISTRY = [
  lexicalScout,
  vectorScout,
  exactScout,
  precedentScout,
  tagsScout,
  recencyScout,
  randomScout,
  expansionScout,
  associationScout,
  graphScout,
  coactivationScout,
  noveltyScout,
  contradictionsScout,
  centroidScout,
  analogyScout,
] as const;

export type ScoutName = (typeof REGISTRY)[number]['name'];
export const ALL_SCOUTS: readonly Scout<ScoutName>[] = REGISTRY;
export const SCOUT_NAMES: readonly ScoutName[] = ALL_SCOUTS.map((s) => s.name);
/**
 * Each scout's weight in a candidate's base score. lexical and vector carry relevance; the rest are
 * tie-breakers on the dev data and carry the ranking where lexical and vector are silent (links, learned edges).
 */
export const SCOUT_WEIGHTS = Object.fromEntries(ALL_SCOUTS.map((s) => [s.name, s.weight])) as Record<ScoutName, number>;
