// `npm run docs:cli`: regenerates the per-command reference in docs/cli.md from the command declarations
// (bridge/commands/registry.ts), between the markers of bridge/commands/reference.ts.
// test/bridge/cli-reference.test.ts fails when docs/cli.md is out of date.
import { regenerateDoc } from './regenerate-doc.mjs';

await regenerateDoc(
  'cli.md',
  `
import { COMMANDS } from './bridge/commands/registry';
import { cliReference, withCliReference } from './bridge/commands/reference';
module.exports = (doc) => withCliReference(doc, cliReference(COMMANDS));
`,
  'CLI reference',
);
