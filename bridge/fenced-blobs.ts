import type { BlobStore } from '../shared/ports';
import { LithosError } from '../shared/errors';
import type { VaultLock } from './lock';

const FRESH_MS = 1000;

/**
 * Checks, before a write, that lock.json still carries this process's token. A process that was suspended
 * while another took the lock over (or whose lock a synced copy replaced) then fails its writes with
 * vault_locked instead of writing notes and forking the stores and the audit chain beside the new writer.
 */
export class LockFence {
  private confirmedAt = -Infinity;

  constructor(
    private readonly lock: Pick<VaultLock, 'confirm' | 'path'>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A confirmation holds for a second: a takeover needs the holder silent for 15 s, so a process that was
   * suspended finds its confirmation expired by the wall clock when it resumes, and checks again.
   */
  async check(what: string): Promise<void> {
    const now = this.now();
    if (now - this.confirmedAt >= 0 && now - this.confirmedAt < FRESH_MS) return;
    if (await this.lock.confirm()) {
      this.confirmedAt = this.now();
      return;
    }
    throw new LithosError(
      'vault_locked',
      `This process no longer holds the vault's writer lock (${this.lock.path}): another process took it over, so ${what} was not saved. Restart this command or lithos mcp.`,
      { path: this.lock.path, what },
    );
  }
}

/** The stores of a vault this process holds the writer lock of: every write passes the fence first. Reads are unaffected. */
export class FencedBlobStore implements BlobStore {
  constructor(
    private readonly base: BlobStore,
    private readonly fence: LockFence,
  ) {}

  read(name: string): Promise<Uint8Array | null> {
    return this.base.read(name);
  }

  list(prefix?: string): Promise<string[]> {
    return this.base.list(prefix);
  }

  async writeAtomic(name: string, data: Uint8Array): Promise<void> {
    await this.fence.check(`"${name}"`);
    return this.base.writeAtomic(name, data);
  }

  async append(name: string, data: Uint8Array): Promise<void> {
    await this.fence.check(`"${name}"`);
    return this.base.append(name, data);
  }

  async remove(name: string): Promise<void> {
    await this.fence.check(`"${name}"`);
    return this.base.remove(name);
  }
}
