import type { CommandDef } from './command';
import { indexCmd } from './index-cmd';
import { searchCmd } from './search-cmd';
import { retrieveCmd } from './retrieve-cmd';
import { statsCmd } from './stats-cmd';
import { doctorCmd } from './doctor-cmd';
import { migrateCmd } from './migrate-cmd';
import { reembedCmd } from './reembed-cmd';
import { modelPullCmd } from './model-pull-cmd';
import { evalCmd } from './eval-cmd';
import { benchCmd } from './bench-cmd';
import { demoCmd } from './demo-cmd';
import { mcpCmd } from './mcp-cmd';
import { receiptsCmd } from './receipts-cmd';
import { eventsCmd } from './events-cmd';
import { gitCmd } from './git-cmd';
import { conflictsCmd } from './conflicts-cmd';
import { conflictsResolveCmd } from './conflicts-resolve-cmd';
import { conflictsScanCmd } from './conflicts-scan-cmd';
import { targetsCmd } from './targets-cmd';
import { driftCmd } from './drift-cmd';
import { devicesCmd } from './devices-cmd';
import { auditVerifyCmd } from './audit-cmd';
import { consolidateCmd } from './consolidate-cmd';
import { reflectCmd } from './reflect-cmd';
import { proposalsCmd } from './proposals-cmd';
import { proposalsAcceptCmd, proposalsRejectCmd } from './proposals-decide-cmd';
import { learningCmd } from './learning-cmd';
import { policyCmd } from './policy-cmd';
import { agentsKeyCmd } from './agents-key-cmd';

/** Every `lithos` command, in the order `lithos --help` and docs/cli.md list them. */
export const COMMANDS: readonly CommandDef[] = [
  indexCmd,
  searchCmd,
  retrieveCmd,
  statsCmd,
  doctorCmd,
  migrateCmd,
  reembedCmd,
  modelPullCmd,
  evalCmd,
  benchCmd,
  demoCmd,
  mcpCmd,
  receiptsCmd,
  eventsCmd,
  gitCmd,
  conflictsCmd,
  conflictsResolveCmd,
  conflictsScanCmd,
  targetsCmd,
  driftCmd,
  devicesCmd,
  auditVerifyCmd,
  consolidateCmd,
  reflectCmd,
  proposalsCmd,
  proposalsAcceptCmd,
  proposalsRejectCmd,
  learningCmd,
  policyCmd,
  agentsKeyCmd,
];

export type Lookup = { kind: 'command'; def: CommandDef; rest: string[] } | { kind: 'group'; group: string; rest: string[] } | { kind: 'unknown'; word: string };

/**
 * The command argv names: two words (`conflicts resolve`) before one (`conflicts`), so a subcommand wins; a word
 * that only groups subcommands (`audit`) is a group.
 */
export function lookup(argv: readonly string[], all: readonly CommandDef[] = COMMANDS): Lookup {
  const [first, second, ...more] = argv;
  const two = all.find((c) => c.name === `${first} ${second}`);
  if (two) return { kind: 'command', def: two, rest: more };
  const one = all.find((c) => c.name === first);
  if (one) return { kind: 'command', def: one, rest: argv.slice(1) };
  if (all.some((c) => c.name.startsWith(`${first} `))) return { kind: 'group', group: first, rest: argv.slice(1) };
  return { kind: 'unknown', word: first };
}
