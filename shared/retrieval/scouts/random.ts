import type { Scout } from '../types';

/**
 * True serendipity: a few visible notes drawn at random (seeded, so a replayed query draws the same).
 * Its weight is tiny; it matters when the scan runs hot or under the explore intent.
 */
export const RANDOM_DRAWS = 5;

export const randomScout: Scout = {
  name: 'random',
  wave: 1,
  run({ corpus, visible, random }) {
    const ids: string[] = [];
    for (const n of corpus.notes()) ids.push(n.id);
    if (ids.length === 0) return [];
    ids.sort();
    const picked = new Set<string>();
    // Bounded attempts: in a mostly gated vault we may find fewer than RANDOM_DRAWS.
    for (let tries = 0; tries < RANDOM_DRAWS * 4 && picked.size < RANDOM_DRAWS; tries++) {
      const id = ids[Math.floor(random() * ids.length)];
      if (!picked.has(id) && visible(id)) picked.add(id);
    }
    return [...picked].map((id) => ({ id, score: 1, reasons: ['random draw (serendipity)'] }));
  },
};
