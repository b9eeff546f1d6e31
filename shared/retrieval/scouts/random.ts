import { defineScout } from './define';

/**
 * True serendipity: a few visible notes drawn at random (seeded, so a replayed query draws the same).
 * Its weight is tiny; it matters when the scan runs hot or under the explore intent.
 */
export const RANDOM_DRAWS = 5;

export const randomScout = defineScout({
  name: 'random',
  wave: 1,
  weight: 0.01,
  run({ corpus, visible, random }) {
    // Sorted, so the same seed draws the same notes however the index was built.
    const ids = corpus.ids ? corpus.ids() : [...corpus.notes()].map((n) => n.id).sort();
    if (ids.length === 0) return [];
    const picked = new Set<string>();
    // Bounded attempts: in a mostly gated vault we may find fewer than RANDOM_DRAWS.
    for (let tries = 0; tries < RANDOM_DRAWS * 4 && picked.size < RANDOM_DRAWS; tries++) {
      const id = ids[Math.floor(random() * ids.length)];
      if (!picked.has(id) && visible(id)) picked.add(id);
    }
    return [...picked].map((id) => ({ id, score: 1, reasons: ['random draw (serendipity)'] }));
  },
});
