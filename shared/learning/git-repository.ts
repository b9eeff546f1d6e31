/**
 * The git repository whose commits become `commit` events (git-history.ts), read with isomorphic-git (pure
 * JavaScript, no `git` binary, no shelling out) over a file system the host hands in: Node's fs for `lithos`
 * (bridge/git-log.ts), and on Obsidian desktop the same through the plugin's port (plugin/obsidian-git-log.ts).
 * The library is handed in as well, so the plugin loads it only on desktop and only when it indexes.
 *
 * Which repository: the setting `git.repository` of `.lithos/learning.json` (tunables.ts) names a directory,
 * absolute or relative to the vault folder; unset, the repository holding the vault (the vault folder or a
 * folder above it). A named directory must be a repository's top folder, or the run fails with a clear error.
 */
import type * as IsoGit from 'isomorphic-git';
import type { PromiseFsClient } from 'isomorphic-git';
import { LithosError } from '../errors';
import type { GitCommit, GitLog } from './git-history';

type Git = Pick<typeof IsoGit, 'findRoot' | 'resolveRef' | 'log' | 'listFiles' | 'walk' | 'TREE'>;

/** The path functions of the host (node:path), so Windows and POSIX folders both work. */
export interface GitPaths {
  resolve(...parts: string[]): string;
  relative(from: string, to: string): string;
  sep: string;
}

export interface GitHost {
  git: Git;
  fs: PromiseFsClient;
  path: GitPaths;
}

/** Commits walked back looking for the last one indexed; older history is not reached from one HEAD. */
const MAX_WALK = 20_000;

/**
 * The repository to index for the vault at `vaultRoot`: the one `repository` names (relative to the vault
 * folder), or the one holding the vault. Null when the setting is unset and the vault is in no repository;
 * invalid_argument when a named directory is not a repository's top folder.
 */
export async function openGitRepository(h: GitHost, vaultRoot: string, repository: string | null): Promise<GitLog | null> {
  if (repository === null) {
    let dir: string;
    try {
      dir = await h.git.findRoot({ fs: h.fs, filepath: vaultRoot });
    } catch {
      return null;
    }
    return gitLogAt(h, dir, vaultRoot, true);
  }
  const dir = h.path.resolve(vaultRoot, repository);
  const root = await h.git.findRoot({ fs: h.fs, filepath: dir }).catch(() => null);
  if (root === null || h.path.resolve(root) !== dir) {
    throw new LithosError(
      'invalid_argument',
      `git.repository in .lithos/learning.json names "${repository}" (${dir}), which is not a git repository: no .git folder there${root ? ` (it lies inside the repository at ${root}; name that folder)` : ''}. Fix the setting, or remove it to index the repository holding the vault.`,
      { field: 'git.repository', repository, dir, inside: root },
    );
  }
  const vaultInside = !h.path.relative(dir, vaultRoot).startsWith('..');
  return gitLogAt(h, dir, vaultRoot, vaultInside);
}

function gitLogAt(h: GitHost, dir: string, vaultRoot: string, holdsVault: boolean): GitLog {
  const { git, fs } = h;
  const prefix = holdsVault ? h.path.relative(dir, vaultRoot).split(h.path.sep).join('/') : null;
  const inVault = (p: string): string | null => (prefix === null ? null : prefix === '' ? p : p.startsWith(`${prefix}/`) ? p.slice(prefix.length + 1) : null);

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
    dir,
    holdsVault,
    async head() {
      try {
        return await git.resolveRef({ fs, dir, ref: 'HEAD' });
      } catch {
        return null; // no commit yet
      }
    },
    async commits(since, limit) {
      let log: Awaited<ReturnType<Git['log']>>;
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
        const files = await changedPaths(c.oid, c.commit.parent[0]);
        out.push({
          oid: c.oid,
          message: c.commit.message,
          author: { name: c.commit.author.name, email: c.commit.author.email || null },
          at: c.commit.author.timestamp * 1000,
          paths: files.map(inVault),
          files,
        });
      }
      return out;
    },
  };
}
