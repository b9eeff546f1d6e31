import type { CommandDef, OptionSpec } from './command';
import { table } from './output';
import { acceptedOptions, optionLabel, usageLine } from './parse';

export const EXIT_CODES = 'Exit codes: 0 ok, 1 failure (one-line message on stderr), 2 bad usage (unknown command or option, missing argument, a value outside its set).';

/** An option's one line: its help, then what it accepts, its default and whether it repeats. */
export function optionText(spec: OptionSpec): string {
  const extra: string[] = [];
  if (spec.type === 'string' && spec.choices && spec.listChoices !== false) extra.push(`one of: ${spec.choices.join(', ')}`);
  if (spec.type === 'int') extra.push(`${spec.min}–${spec.max}`);
  if (spec.type !== 'boolean' && spec.default !== undefined) extra.push(`default ${spec.default}`);
  if (spec.multiple) extra.push('repeatable');
  return extra.length ? `${spec.help} (${extra.join('; ')})` : spec.help;
}

/** `lithos <command> --help`. */
export function commandHelp(def: CommandDef, all: readonly CommandDef[]): string {
  const lines = [`lithos ${def.name} — ${def.summary}`, '', `Usage: ${usageLine(def)}`];
  if (def.positionals.length) {
    lines.push('', 'Arguments:');
    lines.push(indent(table(def.positionals.map((p) => [`<${p.name}${p.rest ? '…' : ''}>`, p.choices ? `${p.help} (one of: ${p.choices.join(', ')})` : p.help]))));
  }
  lines.push('', 'Options:');
  lines.push(indent(table(Object.entries(acceptedOptions(def)).map(([name, spec]) => [optionLabel(name, spec), optionText(spec)]))));
  const subs = all.filter((c) => c.name.startsWith(`${def.name} `));
  if (subs.length) {
    lines.push('', 'Subcommands:');
    lines.push(indent(table(subs.map((c) => [`lithos ${c.name}`, c.summary]))));
  }
  if (def.notes?.length) lines.push('', ...def.notes);
  lines.push('', 'Examples:', ...def.examples.map((e) => `  ${e}`), '', EXIT_CODES);
  return lines.join('\n');
}

/** `lithos audit --help` for a word that only groups subcommands. */
export function groupHelp(group: string, all: readonly CommandDef[]): string {
  const subs = all.filter((c) => c.name.startsWith(`${group} `));
  return [`lithos ${group}: ${subs.length === 1 ? 'one subcommand' : 'subcommands'}`, '', indent(table(subs.map((c) => [`lithos ${c.name}`, c.summary]))), '', `lithos ${subs[0].name} --help shows its options.`].join('\n');
}

/** `lithos --help`: every command with its summary, aligned. */
export function mainHelp(version: string, all: readonly CommandDef[]): string {
  return [
    `lithos ${version} — agent memory in an Obsidian vault (headless tools)`,
    '',
    'Usage: lithos <command> [arguments] [options]',
    '',
    'Commands:',
    indent(table(all.map((c) => [c.name, c.summary]))),
    '',
    'lithos <command> --help lists a command\'s options, with examples.',
    'Every command: --verbose (info logs on stderr); most: --json (stable machine output). lithos --version prints the version.',
    EXIT_CODES,
  ].join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
