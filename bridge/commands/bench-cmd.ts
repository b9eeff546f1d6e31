import { runBench } from '../bench/run-bench';
import { defineCommand } from './command';

export const benchCmd = defineCommand({
  name: 'bench',
  summary: 'generate a synthetic vault and measure indexing, search and retrieval',
  positionals: [],
  options: {
    notes: { type: 'int', help: 'how many notes to generate', min: 1, max: 1_000_000, default: 10_000 },
    seed: { type: 'int', help: 'the generator\'s seed (same seed, same vault)', value: 'S', min: 0, max: 2 ** 31, default: 42 },
  },
  examples: ['lithos bench --notes 2000', 'lithos bench --notes 10000 --seed 7 --json'],
  run: ({ values, json, out }) => runBench({ ...values, json, out }),
});
