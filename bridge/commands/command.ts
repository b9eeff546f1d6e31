import { LithosError } from '../../shared/errors';
import type { Logger } from '../../shared/ports';
import type { Out } from './output';

/**
 * One CLI command as data: its words, arguments, options, help and handler. The registry (registry.ts) lists
 * them; cli.ts parses argv against the one command it names (parse.ts), so an option of another command is
 * refused instead of ignored, and the help and docs/cli.md are generated from the same declaration.
 */

interface OptionBase {
  /** One line for `--help` and docs/cli.md; the choices and the default are appended there, not written here. */
  help: string;
  /** The value's name in help (`--k <N>`); booleans take none. */
  value?: string;
  /** Repeatable (`--namespace a --namespace b`): the handler gets a list, [] when absent. */
  multiple?: boolean;
}

export interface StringOption extends OptionBase {
  type: 'string';
  /** A closed set, taken from the code's own constants: anything else is bad usage (exit 2) naming these. */
  choices?: readonly string[];
  /** false for a long set (the tool names): help leaves the list out; a wrong value's message still gives it. */
  listChoices?: boolean;
  /** Shown in help; the handler receives it when the option is absent. */
  default?: string;
}

export interface IntOption extends OptionBase {
  type: 'int';
  min: number;
  max: number;
  default?: number;
}

export interface BooleanOption extends OptionBase {
  type: 'boolean';
}

export type OptionSpec = StringOption | IntOption | BooleanOption;
export type OptionSpecs = Record<string, OptionSpec>;

export interface PositionalSpec {
  name: string;
  help: string;
  /** May be left out (the handler checks what it needs instead). */
  optional?: boolean;
  /** The last positional may take the rest of the words (a query, several dataset folders). */
  rest?: boolean;
  /** A closed set, like an option's. */
  choices?: readonly string[];
}

/** The value a handler gets for one option spec. */
export type OptionValue<S extends OptionSpec> = S extends BooleanOption
  ? boolean
  : S extends { multiple: true }
    ? S extends { choices: readonly (infer C)[] }
      ? C[]
      : S extends IntOption
        ? number[]
        : string[]
    : S extends IntOption
      ? S extends { default: number }
        ? number
        : number | undefined
      : S extends { choices: readonly (infer C)[] }
        ? S extends { default: string }
          ? C
          : C | undefined
        : S extends { default: string }
          ? string
          : string | undefined;

export type OptionValues<O extends OptionSpecs> = { -readonly [K in keyof O]: OptionValue<O[K]> };

export interface RunContext<O extends OptionSpecs> {
  values: OptionValues<O>;
  /** The positionals, already checked against the declaration (count and choices). */
  args: string[];
  /** `--json` (false for a command without JSON output). */
  json: boolean;
  out: Out;
  logger: Logger;
  /** A bad-usage error (exit 2) for what only the handler can check, e.g. two options that exclude each other. */
  usage: (message: string) => UsageError;
}

export interface CommandDef<O extends OptionSpecs = OptionSpecs> {
  /** The words after `lithos`: 'search', 'conflicts resolve'. */
  name: string;
  /** One line for `lithos --help`. */
  summary: string;
  positionals: readonly PositionalSpec[];
  options: O;
  /** Whether `--json` is accepted (stable machine output). Default true. */
  json?: boolean;
  /** One or two command lines a person can copy. */
  examples: readonly string[];
  /** Anything more the help should say (a line or two). */
  notes?: readonly string[];
  run(ctx: RunContext<O>): Promise<number>;
}

/** Declares a command; `const` keeps each option's literal shape, so the handler's values are typed. */
export function defineCommand<const O extends OptionSpecs>(def: CommandDef<O>): CommandDef<O> {
  return def;
}

/**
 * Bad usage: exit code 2 and a one-line message that names the command. A LithosError with code
 * invalid_argument, so in-process callers can branch on the code like on any other refusal.
 */
export class UsageError extends LithosError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('invalid_argument', message, { ...data, usage: true });
    this.name = 'UsageError';
  }
}

/** `a, b or c`. */
export function listText(xs: readonly string[], last = 'or'): string {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} ${last} ${xs[xs.length - 1]}`;
}
