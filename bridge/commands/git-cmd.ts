import { openJobVault } from '../open-vault';
import { nodeGitSource } from '../git-log';
import type { Logger } from '../../shared/ports';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

export interface GitCmdOptions {
  json: boolean;
  out: Out;
  logger: Logger;
}

/**
 * `lithos git <vault> [--json]`: indexes the commits made since the last run as `commit` events
 * (shared/learning/git-history.ts) — of the repository the setting `git.repository` names, or of the one
 * holding the vault — and prints what it added. It records events, so it takes the writer lock; while
 * Obsidian or `lithos mcp` holds the vault, they index it themselves.
 */
export async function gitCommand(vault: string, o: GitCmdOptions): Promise<number> {
  const v = await openJobVault(vault, 'git', { write: true, logger: o.logger });
  try {
    await v.engine.reconcile(); // a commit links the notes it changed: the index must know them
    const learning = v.engine.services.learning;
    learning.setGitSource(nodeGitSource(v.root));
    const r = await learning.indexGit();
    if (o.json) {
      printJson(o.out, { ...r, added: r.added.map((c) => ({ ...c, at: new Date(c.at).toISOString() })) });
      return 0;
    }
    if (r.repository === null) {
      o.out('No git repository holds this vault, so there is nothing to index. To index another repository, set git.repository in .lithos/learning.json.');
      return 0;
    }
    o.out(`Repository: ${r.repository}`);
    if (r.added.length === 0) o.out(r.head === null ? 'No commits yet.' : `Up to date: no new commits (HEAD ${r.head.slice(0, 7)}).`);
    else {
      o.out(table([['commit', 'time', 'author', 'notes', 'summary'], ...r.added.map((c) => [c.oid.slice(0, 7), new Date(c.at).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'), c.author, String(c.links), c.summary])]));
      o.out(`${r.indexed} commit${r.indexed === 1 ? '' : 's'} added as events (see \`lithos events <vault> --kind commit\`).`);
    }
    return 0;
  } finally {
    await v.close();
  }
}

export const gitCmd = defineCommand({
  name: 'git',
  summary: 'index the git commits made since the last run as episodic events, and list them',
  positionals: [VAULT],
  options: {},
  examples: ['lithos git ~/vault', 'lithos git ~/vault --json'],
  notes: ['The repository is the one holding the vault, or the one git.repository names in .lithos/learning.json.'],
  run: ({ args: [vault], json, out, logger }) => gitCommand(vault, { json, out, logger }),
});
