/**
 * The git repository holding a vault, read with isomorphic-git (pure JavaScript, no `git` binary, no shelling
 * out): the GitLog port of shared/learning/git-history.ts for `lithos mcp` headless. The same library runs on
 * Obsidian desktop and, with a Buffer polyfill, on mobile, which is why it was chosen over spawning git.
 */
import * as fs from 'node:fs';
import { relative, sep } from 'node:path';
import git from 'isomorphic-git';
import type { GitCommit, GitLog } from '../shared/learning/git-history';

/** Commits walked back looking for the last one indexed; older history is not reached from one HEAD. */
const MAX_WALK = 20_000;

/** The repository holding `vaultRoot` (the vault or a folder above it), or null when there is none. */
export async function nodeGitLog(vaultRoot: string): Promise<GitLog | null> {
  let dir: string;
  try {
    dir = await git.findRoot({ fs, filepath: vaultRoot });
  } catch {
    return null;
  }
  const prefix = relative(dir, vaultRoot).split(sep).join('/');
  const inVault = (p: string): string | null => (prefix === '' ? p : p.startsWith(`${prefix}/`) ? p.slice(prefix.length + 1) : null);

  const changedPaths = async (oid: string, parent: string | undefined): Promise<string[]> => {
    if (parent === undefined) return git.listFiles({ fs, dir, ref: oid });
    const paths: string[] = [];
    await git.walk({
      fs,
      dir,
      trees: [git.TREE({ ref: parent }), git.TREE({ ref: oid })],
      map: async (filepath, [a, b]) => {
        if (filepath === '.') return undefined;
        const [oa, ob] = [await a?.oid(), await b?.oid()];
        if (oa === ob) return null; // the same blob, or the same subtree: nothing below it changed
        if ((await a?.type()) === 'tree' || (await b?.type()) === 'tree') return undefined; // look inside
        paths.push(filepath);
        return undefined;
      },
    });
    return paths;
  };

  return {
    async head() {
      try {
        return await git.resolveRef({ fs, dir, ref: 'HEAD' });
      } catch {
        return null; // no commit yet
      }
    },
    async commits(since, limit) {
      let log: Awaited<ReturnType<typeof git.log>>;
      try {
        log = await git.log({ fs, dir, ref: 'HEAD', depth: MAX_WALK });
      } catch {
        return [];
      }
      const stop = since === null ? -1 : log.findIndex((c) => c.oid === since);
      // Newer than `since` (all of them when it is not in this history), the oldest `limit` of those.
      const newer = stop === -1 ? log : log.slice(0, stop);
      const picked = newer.slice(Math.max(0, newer.length - limit));
      const out: GitCommit[] = [];
      for (const c of picked) {
        const paths = await changedPaths(c.oid, c.commit.parent[0]);
        out.push({
          oid: c.oid,
          message: c.commit.message,
          author: { name: c.commit.author.name, email: c.commit.author.email || null },
          at: c.commit.author.timestamp * 1000,
          paths: paths.map(inVault),
        });
      }
      return out;
    },
  };
}
