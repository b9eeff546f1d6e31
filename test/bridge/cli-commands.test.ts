import { run } from '../../bridge/cli';
import { COMMANDS } from '../../bridge/commands/registry';
import type { CommandDef, OptionSpec } from '../../bridge/commands/command';
import { optionLabel } from '../../bridge/commands/parse';
import { cli } from './run-cli';

/**
 * Every command's contract, generated from the registry: no command accepts another's option, every closed set
 * is checked with its choices named, every declared option is in the help. Parsing fails before any vault is
 * opened, so the arguments here are placeholders.
 */

/** Positionals that pass the declaration: a placeholder, or the first choice of a closed set (optional ones too, so their set is checked). */
function argsFor(def: CommandDef): string[] {
  return def.positionals.filter((p) => !p.optional || p.choices).map((p) => p.choices?.[0] ?? `${p.name}-placeholder`);
}

function flag(name: string, spec: OptionSpec, value: string): string[] {
  return spec.type === 'boolean' ? [`--${name}`] : [`--${name}`, value];
}

async function runCaptured(argv: string[]): Promise<{ code: number; err: string }> {
  const errs: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((s) => (errs.push(String(s)), true));
  try {
    return { code: await run(argv), err: errs.join('') };
  } finally {
    spy.mockRestore();
  }
}

/** For each command, one option that some other command declares and it does not. */
const foreign = COMMANDS.flatMap((def) => {
  const other = COMMANDS.flatMap((c) => Object.entries(c.options).map(([name, spec]) => ({ name, spec, owner: c }))).find((o) => !Object.hasOwn(def.options, o.name));
  return other ? [[def.name, def, other] as const] : [];
});

test.each(foreign)('lithos %s refuses another command\'s option with exit 2, naming its own options', async (_name, def, other) => {
  const { code, err } = await runCaptured([...def.name.split(' '), ...argsFor(def), ...flag(other.name, other.spec, '1')]);
  expect(code).toBe(2);
  expect(err.trimEnd().split('\n')).toHaveLength(1);
  expect(err).toMatch(new RegExp(`^lithos ${def.name}: --${other.name} is an option of [^(]*lithos ${other.owner.name}[ ,(]`));
  const own = [...Object.keys(def.options), ...(def.json === false ? [] : ['json'])];
  expect(err).toContain(own.length ? `(options: ${own.map((n) => `--${n}`).join(', ')})` : '(it takes no options)');
  expect(err).toContain(`See lithos ${def.name} --help.`);
});

const closedSets = COMMANDS.flatMap((def) =>
  Object.entries(def.options).flatMap(([name, spec]) => (spec.type === 'string' && spec.choices ? [[`${def.name} --${name}`, def, name, spec.choices] as const] : [])),
);

test('the closed sets this table checks include the ones the CLI promises', () => {
  expect(closedSets.map(([label]) => label)).toEqual(expect.arrayContaining(['retrieve --class', 'retrieve --intent', 'search --mode', 'eval --mode', 'conflicts --state', 'proposals --status', 'retrieve --without', 'policy --read-only']));
});

test.each(closedSets)('lithos %s rejects a value outside its set with exit 2, listing the set', async (_label, def, name, choices) => {
  const { code, err } = await runCaptured([...def.name.split(' '), ...argsFor(def), `--${name}`, 'nonsense']);
  expect(code).toBe(2);
  expect(err).toBe(`lithos ${def.name}: --${name} must be one of ${choices.join(', ')} (got "nonsense"). See lithos ${def.name} --help.\n`);
});

const closedPositionals = COMMANDS.flatMap((def) => def.positionals.filter((p) => p.choices).map((p) => [`${def.name} <${p.name}>`, def, p.name] as const));

test.each(closedPositionals)('lithos %s rejects a value outside its set with exit 2', async (_label, def, name) => {
  const args = argsFor(def).map((a, i) => (def.positionals[i].name === name ? 'nonsense' : a));
  const { code, err } = await runCaptured([...def.name.split(' '), ...args]);
  expect(code).toBe(2);
  expect(err).toMatch(new RegExp(`^lithos ${def.name}: <${name}> must be one of .* \\(got "nonsense"\\)`));
});

test.each(COMMANDS.map((def) => [def.name, def] as const))('lithos %s --help names each option on one line, with examples', async (_name, def) => {
  const { code, out } = await cli(...def.name.split(' '), '--help');
  expect(code).toBe(0);
  expect(out).toMatch(new RegExp(`^lithos ${def.name} — \\S`));
  const lines = out.split('\n');
  for (const [name, spec] of Object.entries(def.options)) {
    const line = lines.filter((l) => l.startsWith(`  ${optionLabel(name, spec)} `));
    expect(line).toHaveLength(1);
    expect(line[0]).toContain(spec.help);
    if (spec.type === 'string' && spec.choices && spec.listChoices !== false) expect(line[0]).toContain(spec.choices.join(', '));
  }
  expect(lines.some((l) => l.startsWith('  --json '))).toBe(def.json !== false);
  const examples = lines.slice(lines.indexOf('Examples:') + 1).filter((l) => l.startsWith('  lithos '));
  expect(examples.length).toBeGreaterThanOrEqual(1);
  expect(examples.length).toBeLessThanOrEqual(2);
  for (const e of examples) expect(e).toMatch(new RegExp(`^ {2}lithos ${def.name}( |$)`));
});

test('an unknown option that no command has is named as unknown', async () => {
  const { code, err } = await runCaptured(['stats', 'v', '--frobnicate']);
  expect(code).toBe(2);
  expect(err).toBe('lithos stats: unknown option --frobnicate (options: --json). See lithos stats --help.\n');
});

test('lithos --help lists every command with its summary, aligned', async () => {
  const { code, out } = await cli('--help');
  expect(code).toBe(0);
  const columns = COMMANDS.map((def) => {
    const row = out.split('\n').find((l) => l.startsWith(`  ${def.name} `) && l.endsWith(`  ${def.summary}`));
    return row === undefined ? -1 : row.length - def.summary.length;
  });
  expect(columns).not.toContain(-1);
  expect(new Set(columns).size).toBe(1); // every summary starts in the same column
});
