/**
 * The parts of isomorphic-git that git history reads with (shared/learning/git-repository.ts), imported by
 * name so the bundle keeps only them (its default export holds every command: clone, push, http…).
 * Loaded with import() on desktop only (obsidian-git-log.ts).
 */
export { findRoot, listFiles, log, resolveRef, TREE, walk } from 'isomorphic-git';
