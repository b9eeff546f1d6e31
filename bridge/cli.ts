import { BRIDGE_VERSION } from './version';
import { asLithosError } from '../shared/errors';
import { stderrLogger, writeFailure } from './log';
import { COMMANDS, lookup } from './commands/registry';
import { UsageError, type CommandDef, type OptionValues } from './commands/command';
import { parseCommandArgs } from './commands/parse';
import { commandHelp, groupHelp, mainHelp } from './commands/help';
import type { Out } from './commands/output';

/** `--help` or `-h` among a command's words, before any `--` (after it, words are arguments). */
function asksHelp(words: readonly string[]): boolean {
  const end = words.indexOf('--');
  return (end === -1 ? words : words.slice(0, end)).some((w) => w === '--help' || w === '-h');
}

/**
 * Dispatch only: the command's own file (bridge/commands/*-cmd.ts) declares its arguments, options, help and
 * handler; parse.ts checks argv against that declaration. Exit codes: 0 ok, 1 failure, 2 bad usage.
 */
export async function main(argv: string[], out: Out = (s) => process.stdout.write(s + '\n')): Promise<number> {
  const [first] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    out(mainHelp(BRIDGE_VERSION, COMMANDS));
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    out(BRIDGE_VERSION);
    return 0;
  }
  const found = lookup(argv);
  if (found.kind === 'unknown') {
    if (asksHelp(argv)) {
      out(mainHelp(BRIDGE_VERSION, COMMANDS)); // an unknown command's --help gets the whole list
      return 0;
    }
    throw new UsageError(`lithos: unknown command "${found.word}" (commands: ${[...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))].join(', ')}). See lithos --help.`, { command: found.word });
  }
  if (found.kind === 'group') {
    if (asksHelp(found.rest)) {
      out(groupHelp(found.group, COMMANDS));
      return 0;
    }
    const subs = COMMANDS.filter((c) => c.name.startsWith(`${found.group} `)).map((c) => c.name.slice(found.group.length + 1));
    const got = found.rest[0] === undefined ? 'none given' : `got "${found.rest[0]}"`;
    throw new UsageError(`lithos ${found.group}: name a subcommand: ${subs.join(', ')} (${got}). See lithos ${found.group} --help.`, { command: found.group });
  }
  const def: CommandDef = found.def;
  if (asksHelp(found.rest)) {
    out(commandHelp(def, COMMANDS));
    return 0;
  }
  const parsed = parseCommandArgs(def, found.rest, COMMANDS);
  return def.run({
    values: parsed.values as OptionValues<typeof def.options>,
    args: parsed.args,
    json: parsed.json,
    out,
    logger: stderrLogger(parsed.verbose),
    usage: (message) => new UsageError(`lithos ${def.name}: ${message} See lithos ${def.name} --help.`),
  });
}

/** Runs the CLI and maps every failure to a one-line message and an exit code. */
export async function run(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message.split('\n').join(' ')}\n`); // the message names the command: `lithos search: …`
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
