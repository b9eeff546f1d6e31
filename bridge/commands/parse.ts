import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, listText, type CommandDef, type OptionSpec } from './command';

/** Options every command takes, besides its own; `--json` only where the command declares JSON output. */
export const GLOBAL_OPTIONS = {
  verbose: { type: 'boolean', help: 'info logs on stderr' },
  help: { type: 'boolean', help: 'this help' },
} as const satisfies Record<string, OptionSpec>;
export const JSON_OPTION = { type: 'boolean', help: 'machine output: JSON on stdout, its shape stable' } as const satisfies OptionSpec;

export interface ParsedCommand {
  values: Record<string, unknown>;
  args: string[];
  json: boolean;
  verbose: boolean;
}

/** The options a command accepts on the command line: its own, then the global ones. */
export function acceptedOptions(def: CommandDef): Record<string, OptionSpec> {
  return { ...def.options, ...(def.json === false ? {} : { json: JSON_OPTION }), ...GLOBAL_OPTIONS };
}

/** `--k <N>`, `--json`, `-h, --help`. */
export function optionLabel(name: string, spec: OptionSpec): string {
  const flag = name === 'help' ? '-h, --help' : `--${name}`;
  return spec.type === 'boolean' ? flag : `${flag} <${spec.value ?? (spec.type === 'int' ? 'N' : name)}>`;
}

/** `lithos search <vault> <query…> [options]`. */
export function usageLine(def: CommandDef): string {
  const pos = def.positionals.map((p) => {
    const word = p.choices ? p.choices.join('|') : p.name;
    const w = `<${word}${p.rest ? '…' : ''}>`;
    return p.optional ? `[${w}]` : w;
  });
  return ['lithos', def.name, ...pos, '[options]'].join(' ');
}

const see = (def: CommandDef) => ` See lithos ${def.name} --help.`;

/**
 * Parses argv (the words after the command's name) against one command's declaration. Every problem is a
 * UsageError (exit 2) whose one line names the command, what was wrong and what it takes instead.
 *
 * parseArgs runs with strict: false and tokens: true, and the tokens are then checked here with the same
 * rules strict mode applies (unknown option, string option without a value or with one that looks like an
 * option, boolean option given a value): strict mode only throws Node's own multi-clause text, which would
 * have to be taken apart with patterns that change between Node versions; the tokens say exactly which
 * option it was, so the message can name the command's options and the command that has it.
 */
export function parseCommandArgs(def: CommandDef, argv: readonly string[], all: readonly CommandDef[]): ParsedCommand {
  const accepted = acceptedOptions(def);
  const config: ParseArgsConfig['options'] = {};
  for (const [name, spec] of Object.entries(accepted)) {
    config[name] = { type: spec.type === 'boolean' ? 'boolean' : 'string', multiple: spec.multiple ?? false, ...(name === 'help' ? { short: 'h' } : {}) };
  }
  const { values, positionals, tokens } = parseArgs({ args: [...argv], options: config, allowPositionals: true, strict: false, tokens: true });
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const spec = Object.hasOwn(accepted, t.name) ? accepted[t.name] : undefined;
    if (!spec || (t.rawName.startsWith('-') && !t.rawName.startsWith('--') && t.name !== 'help')) throw unknownOption(def, t.rawName, all);
    const label = optionLabel(t.name, spec);
    if (spec.type === 'boolean') {
      if (t.value !== undefined) throw new UsageError(`lithos ${def.name}: ${t.rawName} takes no value (got ${t.rawName}=${t.value}).${see(def)}`, { option: t.name });
    } else if (t.value === undefined) {
      throw new UsageError(`lithos ${def.name}: ${t.rawName} needs a value: ${label}.${see(def)}`, { option: t.name });
    } else if (!t.inlineValue && t.value.startsWith('-')) {
      // `--k -1`: a forgotten value followed by another option, or a value that starts with a dash.
      throw new UsageError(`lithos ${def.name}: ${t.rawName} needs a value, got the option-like "${t.value}"; for a value that starts with a dash write ${t.rawName}=${t.value}.${see(def)}`, { option: t.name });
    }
  }
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(def.options)) out[name] = converted(def, name, spec, values[name]);
  checkPositionals(def, positionals);
  return { values: out, args: positionals, json: values.json === true, verbose: values.verbose === true };
}

function converted(def: CommandDef, name: string, spec: OptionSpec, raw: string | boolean | (string | boolean)[] | undefined): unknown {
  if (spec.type === 'boolean') return raw === true;
  const one = (v: string): string | number => {
    if (spec.type === 'int') {
      const n = Number(v);
      if (v.trim() === '' || !Number.isInteger(n) || n < spec.min || n > spec.max) {
        throw new UsageError(`lithos ${def.name}: --${name} must be a whole number from ${spec.min} to ${spec.max} (got "${v}").${see(def)}`, { option: name });
      }
      return n;
    }
    if (spec.choices && !spec.choices.includes(v)) {
      throw new UsageError(`lithos ${def.name}: --${name} must be one of ${spec.choices.join(', ')} (got "${v}").${see(def)}`, { option: name, choices: spec.choices });
    }
    return v;
  };
  if (spec.multiple) return ((raw ?? []) as string[]).map(one);
  if (raw === undefined) return spec.default;
  return one(raw as string);
}

function checkPositionals(def: CommandDef, given: readonly string[]): void {
  const ps = def.positionals;
  const required = ps.filter((p) => !p.optional);
  if (given.length < required.length) {
    const missing = required.slice(given.length).map((p) => `<${p.name}>`);
    throw new UsageError(`lithos ${def.name}: missing ${listText(missing, 'and')}. Usage: ${usageLine(def)}.${see(def)}`, { missing });
  }
  const max = ps.length > 0 && ps[ps.length - 1].rest ? Infinity : ps.length;
  if (given.length > max) {
    const takes = ps.length ? `it takes ${ps.map((p) => `<${p.name}>`).join(' ')}` : 'it takes no arguments';
    throw new UsageError(`lithos ${def.name}: unexpected "${given[max]}"; ${takes} (quote a path that has spaces).${see(def)}`, { unexpected: given[max] });
  }
  given.forEach((g, i) => {
    const p = ps[Math.min(i, ps.length - 1)];
    if (p.choices && !p.choices.includes(g)) {
      throw new UsageError(`lithos ${def.name}: <${p.name}> must be one of ${p.choices.join(', ')} (got "${g}").${see(def)}`, { argument: p.name, choices: p.choices });
    }
  });
}

/** The option list a message shows: the command's own options and --json (the global ones are in every help). */
export function ownOptionsText(def: CommandDef): string {
  const names = [...Object.keys(def.options), ...(def.json === false ? [] : ['json'])].map((n) => `--${n}`);
  return names.length ? `options: ${names.join(', ')}` : 'it takes no options';
}

function unknownOption(def: CommandDef, raw: string, all: readonly CommandDef[]): UsageError {
  const name = raw.replace(/^-+/, '');
  const owners = raw.startsWith('--') ? all.filter((c) => c !== def && Object.hasOwn(c.options, name)).map((c) => `lithos ${c.name}`) : [];
  if (name === 'json' && def.json === false) return new UsageError(`lithos ${def.name}: it has no JSON output, so no --json (${ownOptionsText(def)}).${see(def)}`, { option: name, owners });
  const what = owners.length ? `${raw} is an option of ${listText(owners, 'and')}, not of lithos ${def.name}` : `unknown option ${raw}`;
  return new UsageError(`lithos ${def.name}: ${what} (${ownOptionsText(def)}).${see(def)}`, { option: name, owners });
}
