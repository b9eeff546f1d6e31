/**
 * Git repositories for `lithos mcp` headless and `lithos git`: isomorphic-git (pure JavaScript, no `git` binary,
 * no shelling out) over Node's fs (shared/learning/git-repository.ts). The same library runs on Obsidian
 * desktop (plugin/obsidian-git-log.ts), which is why it was chosen over spawning git.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import git from 'isomorphic-git';
import type { GitLog } from '../shared/learning/git-history';
import type { GitSource } from '../shared/learning/git-indexer';
import { openGitRepository } from '../shared/learning/git-repository';

/**
 * The repository `repository` names (absolute, or relative to the vault folder), or the one holding `vaultRoot`
 * (the vault or a folder above it) when it is null; null when there is none.
 */
export function nodeGitLog(vaultRoot: string, repository: string | null = null): Promise<GitLog | null> {
  return openGitRepository({ git, fs, path }, path.resolve(vaultRoot), repository);
}

/** The GitSource of a vault at `vaultRoot` (LearningService.setGitSource). */
export function nodeGitSource(vaultRoot: string): GitSource {
  return (repository) => nodeGitLog(vaultRoot, repository);
}
