/**
 * Git history as episodic events (issue 21 item 7): each commit of the repository holding the vault becomes a
 * `commit` event (message, author, time, changed notes), indexed incrementally from the last commit seen (the
 * learning mark GIT_MARK). The repository is read through the GitLog port, which the hosts implement with a
 * pure-JS library (git-repository.ts: isomorphic-git), so nothing shells out. It is the repository holding
 * the vault, or another one named by the setting `git.repository` (a code repository the notes are about).
 *
 * Who may read a commit: its changed notes are its links, so the events room shows it to an agent only when the
 * agent may see every one of them; a commit that changed anything else (a deleted note, an attachment, a file
 * outside the vault, .lithos/) is the person's only (user_private), since its paths could name what an agent may
 * not see. A commit linking a note is kept for good, like every linked event (event-ageing.ts).
 */
import { EVENT_LIMITS } from '../model/events';
import type { AuditLog } from '../governance/audit';
import type { MemoryStore } from '../stores/memory-store';
import type { NotesService } from '../vault/notes-service';
import type { EventLog } from './event-log';

export interface GitCommit {
  oid: string;
  message: string;
  author: { name: string; email: string | null };
  /** ms since epoch (the author's time). */
  at: number;
  /** Changed paths, relative to the vault (null: outside it). */
  paths: (string | null)[];
  /** The same paths, relative to the repository's top folder. */
  files: string[];
}

/** The repository to index, as the git indexer reads it (git-repository.ts). */
export interface GitLog {
  /** Its top folder, on the host's file system. */
  readonly dir: string;
  /** Whether the vault lies in it; otherwise it is another repository, named by the setting `git.repository`. */
  readonly holdsVault: boolean;
  /** The commit HEAD points at; null in a repository without commits. */
  head(): Promise<string | null>;
  /** Commits reachable from HEAD, newest first, stopping before `since` (exclusive; null: from the first), at most `limit`. */
  commits(since: string | null, limit: number): Promise<GitCommit[]>;
}

export const GIT_MARK = 'git:last';
/** Commits indexed per run; a longer history is taken over the next runs, oldest first. */
export const GIT_BATCH = 500;
/** What of a commit's body and changed paths its event keeps, within EVENT_LIMITS.data_chars. */
const BODY_CHARS = 600;
const PATHS_CHARS = 1_000;

export interface GitIndexReport {
  indexed: number;
  head: string | null;
  /** The repository's top folder; null: there is none to index (git-indexer.ts). */
  repository: string | null;
  /** The commits this run added, oldest first (a commit already an event is not listed). */
  added: Array<{ event_id: string; oid: string; summary: string; author: string; at: number; links: number }>;
}

export async function indexGitHistory(
  d: { events: EventLog; memory: Pick<MemoryStore, 'batch' | 'learned' | 'events'>; notes: Pick<NotesService, 'note'>; audit: Pick<AuditLog, 'append'> },
  git: GitLog,
): Promise<GitIndexReport> {
  const head = await git.head();
  const last = (d.memory.learned.mark(GIT_MARK) as { oid?: unknown } | null)?.oid;
  const since = typeof last === 'string' ? last : null;
  const report: GitIndexReport = { indexed: 0, head, repository: git.dir, added: [] };
  if (head === null || head === since) return report;
  // Newest first from the port; indexed oldest first so the mark always names a commit whose past is indexed.
  const commits = (await git.commits(since, GIT_BATCH)).reverse();
  // One durable write for the run (a first run may bring hundreds of commits), each commit's mark after its event.
  await d.memory.batch(async () => {
    for (const c of commits) {
      const id = `git-${c.oid}`;
      if (d.memory.events.get(id) === null) {
        const e = commitEvent(c, id, git, d.notes);
        await d.events.record(e);
        report.added.push({ event_id: id, oid: c.oid, summary: e.summary, author: e.actor, at: e.at, links: e.links.length });
      }
      await d.memory.learned.setMark(GIT_MARK, { oid: c.oid });
    }
  });
  report.indexed = report.added.length;
  const other = git.holdsVault ? {} : { repository: git.dir };
  if (report.indexed > 0) await d.audit.append({ action: 'events.git', actor: { kind: 'system', id: null }, target: null, data: { indexed: report.indexed, head, since, ...other } });
  return report;
}

function commitEvent(c: GitCommit, id: string, git: GitLog, notes: Pick<NotesService, 'note'>) {
  const links: string[] = [];
  let onlyNotes = true;
  for (const p of git.holdsVault ? c.paths : []) {
    const n = p === null || !/\.md$/i.test(p) ? null : notes.note(p);
    if (n && n.path === p) links.push(n.nodeId);
    else onlyNotes = false;
  }
  const [subject, ...rest] = c.message.trim().split('\n');
  const body = rest.join('\n').trim();
  // Another repository's commit names none of the vault's notes: its paths are the person's to read.
  const shared = git.holdsVault && onlyNotes && links.length > 0 && links.length <= EVENT_LIMITS.links;
  return {
    event_id: id,
    kind: 'commit' as const,
    at: c.at,
    actor: c.author.name || c.author.email || 'unknown author',
    actor_kind: 'human' as const,
    // Visible to an agent only through its links (the room's gate); anything else stays the person's.
    access_scope: shared ? 'shared' : 'user_private',
    namespace: '',
    summary: subject?.trim() || `commit ${c.oid.slice(0, 7)}`,
    data: {
      oid: c.oid,
      ...(body ? { body: body.length > BODY_CHARS ? `${body.slice(0, BODY_CHARS - 1)}…` : body } : {}),
      ...(git.holdsVault ? {} : { repository: git.dir }),
      ...(shared ? {} : { paths: keptPaths(git.holdsVault ? c.paths : c.files) }),
      changed: c.paths.length,
    },
    links: links.slice(0, EVENT_LIMITS.links),
  };
}

/** The first changed paths, as many as fit in PATHS_CHARS. */
function keptPaths(paths: readonly (string | null)[]): string[] {
  const out: string[] = [];
  let used = 0;
  for (const p of paths) {
    const s = p ?? '(outside the vault)';
    used += s.length + 3;
    if (used > PATHS_CHARS) break;
    out.push(s);
  }
  return out;
}
