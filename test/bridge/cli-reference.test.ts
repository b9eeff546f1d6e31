import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../bridge/commands/registry';
import { CLI_REFERENCE_BEGIN, CLI_REFERENCE_END, cliReference, withCliReference } from '../../bridge/commands/reference';
import { optionLabel } from '../../bridge/commands/parse';

/** docs/cli.md's reference is generated from the command declarations; this fails when someone forgot `npm run docs:cli`. */

const doc = readFileSync(join(__dirname, '../../docs/cli.md'), 'utf8');

test('docs/cli.md holds the current CLI reference (run `npm run docs:cli` to regenerate it)', () => {
  expect(withCliReference(doc, cliReference(COMMANDS))).toBe(doc);
});

test('the reference has a section per command with its usage, a row per option and its examples', () => {
  const ref = cliReference(COMMANDS);
  const sections = ref.split('\n### ').slice(1);
  expect(sections.map((s) => /^`lithos ([a-z ]+)`/.exec(s)?.[1])).toEqual(COMMANDS.map((c) => c.name));
  sections.forEach((section, i) => {
    const def = COMMANDS[i];
    for (const [name, spec] of Object.entries(def.options)) expect(section).toContain(`| \`${optionLabel(name, spec).replace(/\|/g, '\\|')}\` | ${spec.help}`);
    for (const e of def.examples) expect(section).toContain(`\n${e}\n`);
  });
});

test('regenerating is refused, not guessed, when the markers are missing', () => {
  expect(() => withCliReference('# no markers', 'x')).toThrow(CLI_REFERENCE_BEGIN);
  expect(doc.indexOf(CLI_REFERENCE_BEGIN)).toBeLessThan(doc.indexOf(CLI_REFERENCE_END));
});
