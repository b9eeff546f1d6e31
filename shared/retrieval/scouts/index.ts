import type { Scout } from '../types';
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

/** Every scout of terrace 0, wave 1 then wave 2. */
export const ALL_SCOUTS: readonly Scout[] = [
  lexicalScout,
  vectorScout,
  exactScout,
  precedentScout,
  tagsScout,
  recencyScout,
  randomScout,
  graphScout,
  coactivationScout,
  noveltyScout,
  contradictionsScout,
  centroidScout,
  analogyScout,
];
