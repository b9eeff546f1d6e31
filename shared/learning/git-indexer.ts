/**
 * When and from which repository git history is indexed (git-history.ts): a host that can read repositories
 * hands in a GitSource (bridge/git-log.ts, plugin/obsidian-git-log.ts); each run reads the setting
 * `git.repository` (learning.json) and opens the repository it names, or the one holding the vault, again
 * only when the setting changed. Runs one at a time.
 */
import { LithosError } from '../errors';
import type { Logger } from '../ports';
import { indexGitHistory, type GitIndexReport, type GitLog } from './git-history';
import type { LearningPorts } from './learning-ports';

/** Opens the repository named by the setting (null: the one holding the vault); null when there is none. */
export type GitSource = (repository: string | null) => Promise<GitLog | null>;

type Deps = Pick<LearningPorts, 'memory' | 'notes' | 'audit' | 'tunables'> & { logger: Logger };

export class GitIndexer {
  private source: GitSource | null = null;
  private opened: { setting: string | null; log: Promise<GitLog | null> } | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  /** The setting last said to name no repository, so the log says it once, not at every decay run. */
  private saidNone: string | null | undefined = undefined;

  constructor(
    private readonly d: Deps,
    private readonly events: Parameters<typeof indexGitHistory>[0]['events'],
  ) {}

  /** A host that can read repositories sets its source; null: this host cannot (mobile). */
  setSource(source: GitSource | null): void {
    this.source = source;
    this.opened = null;
    this.saidNone = undefined;
  }

  get available(): boolean {
    return this.source !== null;
  }

  /**
   * Indexes the commits made since the last run. Unsupported when the host cannot read repositories; with
   * no repository (none holds the vault and the setting names none) it indexes nothing and says so in
   * `repository: null`; a setting naming a folder that is not a repository is invalid_argument.
   */
  run(): Promise<GitIndexReport> {
    const source = this.source;
    if (!source) return Promise.reject(new LithosError('unsupported', 'Git history cannot be read here: this host reads no git repository (Obsidian on mobile, or a read-only session).'));
    const run = this.chain.catch(() => undefined).then(async () => {
      await this.d.tunables.refresh();
      const setting = this.d.tunables.get().git.repository;
      if (this.opened?.setting !== setting) this.opened = { setting, log: source(setting) };
      const log = await this.opened.log.catch((err: unknown) => {
        this.opened = null; // a fixed folder is tried again next run
        throw err;
      });
      if (!log) {
        this.opened = null; // a repository made later (git init) is found at the next run
        if (this.saidNone !== setting) this.d.logger.info('git history: the vault is in no git repository, so no commits are indexed (git.repository in .lithos/learning.json names another one).');
        this.saidNone = setting;
        return { indexed: 0, head: null, repository: null, added: [] };
      }
      return indexGitHistory({ events: this.events, memory: this.d.memory, notes: this.d.notes, audit: this.d.audit }, log);
    });
    this.chain = run;
    return run;
  }

  /** Waits for a run in progress. */
  async stop(): Promise<void> {
    await this.chain.catch(() => undefined);
  }
}
