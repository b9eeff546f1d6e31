import { SCOUT_NAMES } from '../../shared/retrieval/scouts';
import { EVAL_MODES, runEval } from '../eval/run-eval';
import { EVAL_SPACES } from '../eval/eval-spaces';
import { defineCommand } from './command';

export const evalCmd = defineCommand({
  name: 'eval',
  summary: 'retrieval quality on BEIR-style datasets (nDCG@10, recall@10, MRR@10)',
  positionals: [{ name: 'dataset-dir', help: 'a folder with corpus.jsonl, queries.jsonl and qrels/; several are macro-averaged', rest: true }],
  options: {
    mode: { type: 'string', help: 'what ranks: one search mode, or the full scan (pts)', value: 'mode', choices: EVAL_MODES, default: 'hybrid' },
    without: { type: 'string', help: 'pts only: switch a scout off (ablation)', value: 'scout', choices: SCOUT_NAMES, multiple: true },
    space: { type: 'string', help: 'embedding spaces searched: the hashing default, the vault-learned space, or both', value: 'space', choices: EVAL_SPACES, default: 'hash' },
    'feedback-split': { type: 'string', help: 'pts only: share of each dataset\'s queries that give feedback first, between 0 and 1', value: 'F' },
    cv: { type: 'string', help: 'with --feedback-split: cross-validate the gain over a grid of constants (JSON file; or an earlier --cv --json output, reused)', value: 'grid.json', multiple: true },
  },
  examples: ['lithos eval datasets/scifact datasets/nfcorpus --mode pts --without random --json', 'lithos eval datasets/locomo datasets/scifact --mode pts --feedback-split 0.5 --cv grid.json'],
  run: ({ args, values, json, out, usage }) => {
    const raw = values['feedback-split'];
    const split = raw === undefined ? undefined : Number(raw);
    if (split !== undefined && !(split > 0 && split < 1)) throw usage(`--feedback-split must be a number between 0 and 1, exclusive (got "${raw}").`);
    return runEval({ datasets: args, mode: values.mode, without: values.without.length ? values.without : undefined, feedbackSplit: split, space: values.space, cv: values.cv.length ? values.cv : undefined, json, out, progress: (line) => process.stderr.write(`${line}\n`) });
  },
});
