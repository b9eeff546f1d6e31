/* eslint-disable @typescript-eslint/no-require-imports -- Node modules are loaded on desktop only, see below */
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import type { GitSource } from '../shared/learning/git-indexer';
import { openGitRepository } from '../shared/learning/git-repository';

/** Where Obsidian keeps the vault: FileSystemAdapter's folder on desktop; none on mobile. */
export interface GitAdapter {
  getBasePath?: () => string;
}

export type ObsidianGitSource = { source: GitSource; vaultFolder: string } | { source: null; reason: string };

/**
 * Git history in Obsidian (shared/learning/git-history.ts): isomorphic-git, the pure-JavaScript library
 * `lithos mcp` uses, never a `git` process. On desktop the vault is a folder on disk (FileSystemAdapter's
 * base path) and Electron's renderer has Node's fs, which the library reads the repository with — the vault's
 * own, or the one the setting git.repository names, which may lie outside the vault, where the adapter's
 * vault-relative API cannot reach. On mobile there is no such folder: git history is skipped, with the reason.
 *
 * The library and the Node modules are loaded when the first index runs, never when the bundle is evaluated:
 * the same main.js runs on mobile, where they do not exist (esbuild turns the import() into a lazy require).
 */
export function obsidianGitSource(adapter: GitAdapter, desktop: boolean): ObsidianGitSource {
  if (!desktop || typeof adapter.getBasePath !== 'function') {
    return { source: null, reason: 'Git history is not indexed on Obsidian mobile: the vault is not a folder a git library can read there.' };
  }
  const vaultFolder = adapter.getBasePath();
  return {
    vaultFolder,
    source: async (repository) => {
      const fs = require('node:fs') as typeof Fs;
      const path = require('node:path') as typeof Path;
      // isomorphic-git reads its objects into Buffers; Electron's renderer has them, a plain page would not.
      const g = globalThis as { Buffer?: unknown };
      g.Buffer ??= (require('node:buffer') as { Buffer: unknown }).Buffer;
      const git = await import('./git-lib');
      return openGitRepository({ git, fs, path }, path.resolve(vaultFolder), repository);
    },
  };
}

/** What Settings → Learning shows and does about git history. */
export interface GitHistoryControl {
  /** One line: what the last run found, or why git history is skipped here. */
  state(): string;
  /** Indexes now (also after a change of git.repository); the line says how it went. */
  indexNow(): Promise<void>;
}

interface GitLearning {
  setGitSource(source: GitSource | null): void;
  indexGit(): Promise<{ indexed: number; repository: string | null }>;
}

/**
 * Hands the engine the desktop's git source (or none on mobile) and runs the first index; later runs follow
 * each decay run (LearningService). Never fails the memory's opening: a failure is the state line and a log warning.
 */
export function startGitHistory(learning: GitLearning, src: ObsidianGitSource, logger: { info(m: string): void; warn(m: string): void }): GitHistoryControl {
  let line = 'Git history: not indexed yet.';
  learning.setGitSource(src.source);
  const indexNow = async (): Promise<void> => {
    if (!src.source) {
      line = src.reason;
      logger.info(line);
      return;
    }
    try {
      const r = await learning.indexGit();
      line =
        r.repository === null
          ? 'Git history: the vault is in no git repository, so no commits are indexed. Name one below to index it.'
          : `Git history: ${r.repository} — ${r.indexed === 0 ? 'up to date' : `${r.indexed} new commit${r.indexed === 1 ? '' : 's'} indexed`} (${new Date().toLocaleTimeString()}).`;
      logger.info(line);
    } catch (err) {
      line = `Git history not indexed: ${err instanceof Error ? err.message : String(err)}`;
      logger.warn(line);
    }
  };
  return { state: () => line, indexNow };
}
