import { parseArgs } from 'node:util';
import { BRIDGE_VERSION } from './version';
import { asLithosError } from '../shared/errors';
import { stderrLogger, writeFailure } from './log';
import { indexCommand } from './commands/index-cmd';
import { searchCommand } from './commands/search-cmd';
import { statsCommand } from './commands/stats-cmd';
import { doctorCommand } from './commands/doctor-cmd';
import { migrateCommand } from './commands/migrate-cmd';
import { reembedCommand } from './commands/reembed-cmd';
import { demoCommand } from './commands/demo-cmd';
import { receiptsCommand } from './commands/receipts-cmd';
import { auditVerifyCommand } from './commands/audit-cmd';
import { retrieveCommand } from './commands/retrieve-cmd';
import { consolidateCommand } from './commands/consolidate-cmd';
import { conflictsListCommand, conflictsResolveCommand, conflictsScanCommand } from './commands/conflicts-cmd';
import { proposalDecideCommand, proposalsListCommand } from './commands/proposals-cmd';
import { learningCommand } from './commands/learning-cmd';
import { policyCommand } from './commands/policy-cmd';
import { runEval, type EvalMode } from './eval/run-eval';
import type { ScoutName } from '../shared/retrieval/types';
import { runBench } from './bench/run-bench';
import { runMcp } from './mcp/run-mcp';
import type { Out } from './commands/output';

const VERSION = BRIDGE_VERSION;

const HELP = `lithos ${VERSION} — agent memory in an Obsidian vault (headless tools)

Usage:
  lithos index   <vault> [--json]                       index the vault (incremental: unchanged notes cost nothing)
  lithos search  <vault> <query> [--k N] [--mode lexical|vector|hybrid] [--namespace NS]… [--json]
  lithos retrieve <vault> <query> [--class c] [--intent i] [--namespace NS]… [--agent a] [--task t] [--k N] [--without scout]… [--json]
                                                        Parallel Terraced Scan: ranked memory with reasons, temperature, receipt
  lithos stats   <vault> [--json]                       counts: notes, chunks, spaces, stores
  lithos doctor  <vault> [--json]                       note problems, store warnings, broken links
  lithos migrate <vault> [--dry-run] [--json]           bring frontmatter to the current schema version
  lithos reembed <vault> --space <id> [--lazy] [--allow-remote] [--model-dir <folder>] [--json]
                                                        --model-dir: where all-MiniLM-L6-v2 is (saved as config.json's model_dir)
  lithos eval    <dataset-dir>... [--mode lexical|vector|hybrid|pts] [--without scout]… [--feedback-split F] [--json]
  lithos bench   [--notes N] [--seed S] [--json]
  lithos demo    <vault>                                index and show a few searches (npm start)
  lithos mcp     --vault <vault> [--agent <id>] [--tools core|full|<tool,tool,…>]
                                                        stdio MCP server: through Obsidian when it has the vault open,
                                                        headless on the folder otherwise; agent also from LITHOS_AGENT_ID;
                                                        --tools: the tools offered (default: the vault policy's, else core)
  lithos receipts <vault> [--agent a] [--task t] [--node id|path] [--since t] [--until t] [--limit N] [--json]
                                                        past retrievals, newest first (t: ISO time or 30m, 2h, 3d)
  lithos conflicts <vault> [--state s] [--json]         contradictions between notes (states: unreviewed, accepted_dual, superseded, refuted, merged)
  lithos conflicts resolve <vault> <edge_id> <superseded|refuted|accepted_dual|merged> [--winner id|path] [--json]
  lithos conflicts scan <vault> [--json]                rule detection over the whole vault; callouts brought up to date
  lithos audit verify <vault> [--json]                  check the audit trail's hash chain (exit 1 if tampered)
  lithos consolidate <vault> [--task t] [--agent a] [--json]
                                                        reinforce edges, promote hypotheses, maintain concepts, refresh summaries
  lithos proposals <vault> [--status pending|accepted|rejected] [--json]
                                                        agent writes waiting for a person (policy propose_namespaces)
  lithos proposals accept|reject <vault> <id> [--reason text] [--json]
  lithos learning <vault> [--set key=value]… [--reset] [--json]
                                                        the vault's learning constants (.lithos/learning.json); key=default undoes one
  lithos policy <vault> [--read-only on|off] [--disable tool]… [--enable tool]… [--hide folder]… [--unhide folder]… [--json]
                                                        what agents may see and call (.lithos/policy.json)

Every command: --verbose (info logs on stderr). lithos --version prints the version.
Exit codes: 0 ok, 1 failure (one-line message on stderr; also a value a command refuses, e.g. --mode fuzzy),
2 bad usage (unknown command or option, missing argument, malformed number).`;

/** `lithos <command> --help`: that command's usage lines from HELP (with their continuation lines), or null for an unknown command. */
export function helpFor(command: string): string | null {
  const lines = HELP.split('\n');
  const out: string[] = [];
  let inCommand = false;
  for (const line of lines) {
    if (/^ {2}lithos /.test(line)) inCommand = line.startsWith(`  lithos ${command} `);
    else if (!/^ {10,}\S/.test(line)) inCommand = false;
    if (inCommand) out.push(line);
  }
  const footer = HELP.slice(HELP.lastIndexOf('\n\n') + 2); // options every command takes, exit codes
  return out.length ? ['Usage:', ...out, '', footer].join('\n') : null;
}

export async function main(argv: string[], out: Out = (s) => process.stdout.write(s + '\n')): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    out(HELP);
    return command ? 0 : 2;
  }
  if (command === '--version' || command === '-v') {
    out(VERSION);
    return 0;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    out(helpFor(command) ?? HELP); // an unknown command's --help gets the whole list
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      k: { type: 'string', default: '10' },
      mode: { type: 'string' },
      namespace: { type: 'string', multiple: true },
      'dry-run': { type: 'boolean', default: false },
      space: { type: 'string' },
      lazy: { type: 'boolean', default: false },
      'allow-remote': { type: 'boolean', default: false },
      'model-dir': { type: 'string' },
      notes: { type: 'string', default: '10000' },
      seed: { type: 'string', default: '42' },
      verbose: { type: 'boolean', default: false },
      vault: { type: 'string' },
      class: { type: 'string' },
      agent: { type: 'string' },
      task: { type: 'string' },
      intent: { type: 'string' },
      without: { type: 'string', multiple: true },
      'feedback-split': { type: 'string' },
      node: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      limit: { type: 'string' },
      state: { type: 'string' },
      winner: { type: 'string' },
      status: { type: 'string' },
      reason: { type: 'string' },
      set: { type: 'string', multiple: true },
      reset: { type: 'boolean', default: false },
      'read-only': { type: 'string' },
      disable: { type: 'string', multiple: true },
      enable: { type: 'string', multiple: true },
      hide: { type: 'string', multiple: true },
      unhide: { type: 'string', multiple: true },
      tools: { type: 'string' },
    },
  });
  const logger = stderrLogger(values.verbose);
  const json = values.json;
  const vault = positionals[0];
  const need = (n: number, what: string) => {
    if (positionals.length < n) throw usage(`lithos ${command} needs ${what}.`);
  };
  // A stray word is most often a path with spaces left unquoted: say so rather than ignore it.
  const exactly = (n: number, what: string, sub = '') => {
    need(n, what);
    if (positionals.length > n) throw usage(`lithos ${command}${sub} takes ${what}; unexpected "${positionals[n]}" (quote a path that has spaces).`);
  };
  switch (command) {
    case 'index':
      exactly(1, '<vault>');
      return indexCommand(vault, { json, out, logger });
    case 'search': {
      need(2, '<vault> and <query>');
      const k = intArg(values.k, '--k', 1, 1000);
      return searchCommand(vault, positionals.slice(1).join(' '), { k, mode: values.mode ?? 'hybrid', namespace: values.namespace, json, out, logger });
    }
    case 'retrieve': {
      need(2, '<vault> and <query>');
      const k = intArg(values.k, '--k', 1, 50);
      return retrieveCommand(vault, positionals.slice(1).join(' '), {
        k,
        queryClass: values.class,
        intent: values.intent,
        namespace: values.namespace,
        agent: values.agent,
        task: values.task,
        without: values.without,
        json,
        out,
        logger,
      });
    }
    case 'stats':
      exactly(1, '<vault>');
      return statsCommand(vault, { json, out, logger });
    case 'doctor':
      exactly(1, '<vault>');
      return doctorCommand(vault, { json, out, logger });
    case 'migrate':
      exactly(1, '<vault>');
      return migrateCommand(vault, { dryRun: values['dry-run'], json, out, logger });
    case 'reembed':
      exactly(1, '<vault>');
      if (!values.space) throw usage('lithos reembed needs --space <id> (e.g. minilm-l6-v2).');
      return reembedCommand(vault, { space: values.space, lazy: values.lazy, allowRemote: values['allow-remote'], modelDir: values['model-dir'], json, out, logger });
    case 'eval': {
      need(1, 'at least one <dataset-dir>');
      const mode = values.mode ?? 'hybrid';
      if (!['lexical', 'vector', 'hybrid', 'pts'].includes(mode)) throw usage(`--mode must be lexical, vector, hybrid or pts (got "${mode}").`);
      const split = values['feedback-split'] === undefined ? undefined : Number(values['feedback-split']);
      if (split !== undefined && !(split > 0 && split < 1)) throw usage(`--feedback-split must be a number between 0 and 1, exclusive (got "${values['feedback-split']}").`);
      return runEval({ datasets: positionals, mode: mode as EvalMode, without: values.without as ScoutName[] | undefined, feedbackSplit: split, json, out });
    }
    case 'bench':
      return runBench({ notes: intArg(values.notes, '--notes', 1, 1_000_000), seed: intArg(values.seed, '--seed', 0, 2 ** 31), json, out });
    case 'demo':
      exactly(1, '<vault>');
      return demoCommand(vault, { out, logger });
    case 'receipts': {
      exactly(1, '<vault>');
      const limit = values.limit === undefined ? undefined : intArg(values.limit, '--limit', 1, 10_000);
      const { agent, task, node, since, until } = values;
      return receiptsCommand(vault, { agent, task, node, since, until, limit, json, out, logger });
    }
    case 'consolidate':
      exactly(1, '<vault>');
      return consolidateCommand(vault, { task: values.task, agent: values.agent, json, out, logger });
    case 'audit': {
      if (positionals[0] !== 'verify') throw usage('Usage: lithos audit verify <vault> [--json]');
      exactly(2, '<vault>', ' verify');
      return auditVerifyCommand(positionals[1], { json, out });
    }
    case 'proposals': {
      if (positionals[0] === 'accept' || positionals[0] === 'reject') {
        if (positionals.length < 3) throw usage(`Usage: lithos proposals ${positionals[0]} <vault> <id>${positionals[0] === 'reject' ? ' [--reason text]' : ''}`);
        exactly(3, '<vault> <id>', ` ${positionals[0]}`);
        return proposalDecideCommand(positionals[0], positionals[1], positionals[2], { reason: values.reason, json, out, logger });
      }
      exactly(1, '<vault>');
      return proposalsListCommand(vault, { status: values.status, json, out });
    }
    case 'conflicts': {
      if (positionals[0] === 'resolve') {
        if (positionals.length < 4) throw usage('Usage: lithos conflicts resolve <vault> <edge_id> <superseded|refuted|accepted_dual|merged> [--winner id|path]');
        exactly(4, '<vault> <edge_id> <resolution>', ' resolve');
        return conflictsResolveCommand(positionals[1], positionals[2], positionals[3], { winner: values.winner, json, out, logger });
      }
      if (positionals[0] === 'scan') {
        exactly(2, '<vault>', ' scan');
        return conflictsScanCommand(positionals[1], { json, out, logger });
      }
      exactly(1, '<vault>');
      return conflictsListCommand(vault, { state: values.state, json, out, logger });
    }
    case 'learning':
      exactly(1, '<vault>');
      return learningCommand(vault, { set: values.set ?? [], reset: values.reset, json, out, logger });
    case 'policy':
      exactly(1, '<vault>');
      return policyCommand(vault, {
        readOnly: values['read-only'],
        disable: values.disable ?? [],
        enable: values.enable ?? [],
        hide: values.hide ?? [],
        unhide: values.unhide ?? [],
        json,
        out,
        logger,
      });
    case 'mcp': {
      const root = values.vault ?? vault;
      if (!root) throw usage('lithos mcp needs --vault <path>.');
      if (positionals.length > (values.vault ? 0 : 1)) throw usage(`lithos mcp takes one vault; unexpected "${positionals[values.vault ? 0 : 1]}" (quote a path that has spaces).`);
      return runMcp({ vault: root, agent: values.agent ?? (process.env.LITHOS_AGENT_ID || null), tools: values.tools, version: VERSION, logger });
    }
    default:
      throw usage(`Unknown command "${command}".`);
  }
}

class UsageError extends Error {}

function usage(message: string): UsageError {
  return new UsageError(`${message} Run \`lithos --help\` for usage.`);
}

function intArg(raw: string, name: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw usage(`${name} must be a whole number from ${min} to ${max} (got "${raw}").`);
  return n;
}

/** Runs the CLI and maps every failure to a one-line message and an exit code. */
export async function run(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (err) {
    // node:util parseArgs: an unknown option, a missing or ambiguous value (`--k -1`): all bad usage.
    if (err instanceof UsageError || String((err as { code?: string }).code).startsWith('ERR_PARSE_ARGS_')) {
      process.stderr.write(`lithos: ${(err as Error).message.split('\n').join(' ')}\n`); // one line, like every failure
      return 2;
    }
    const e = asLithosError(err);
    writeFailure(e);
    if (process.env.LITHOS_DEBUG) process.stderr.write(`${(err as Error).stack ?? ''}\n`);
    return 1;
  }
}

if (require.main === module) {
  // `lithos search … | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  void run(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
