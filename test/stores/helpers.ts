import type { Logger } from '../../shared/ports';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';
import { loadSql } from '../twins/sql';
import type { StoreDeps } from '../../shared/stores/memory-store';

/** A Logger that keeps what it was told, so tests can assert on warnings. */
export class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string }[] = [];
  debug(message: string): void {
    this.lines.push({ level: 'debug', message });
  }
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string): void {
    this.lines.push({ level: 'error', message });
  }
  at(level: string): string[] {
    return this.lines.filter((l) => l.level === level).map((l) => l.message);
  }
}

export interface Env extends StoreDeps {
  blobs: MemoryBlobStore;
  clock: FakeClock;
  logger: RecordingLogger;
}

/** Fresh deps: in-memory blobs, a fake clock that is also the timers, a recording logger. */
export async function env(blobs = new MemoryBlobStore(), clock = new FakeClock()): Promise<Env> {
  return { sql: await loadSql(), blobs, clock, timers: clock, logger: new RecordingLogger() };
}

/** Lets queued promise callbacks and in-memory I/O run to completion. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A BlobStore whose appends wait until the test releases them (to observe when promises resolve). */
export class GatedBlobStore extends MemoryBlobStore {
  private gates: (() => void)[] = [];
  gated = true;

  override async append(name: string, data: Uint8Array): Promise<void> {
    if (this.gated) await new Promise<void>((resolve) => this.gates.push(resolve));
    return super.append(name, data);
  }

  release(): void {
    this.gated = false;
    for (const g of this.gates.splice(0)) g();
  }
}

/** A BlobStore that refuses chosen operations on chosen files, like a process dying at that step. */
export class FailingBlobStore extends MemoryBlobStore {
  failWrite = new Set<string>();
  failRemove = new Set<string>();

  override async writeAtomic(name: string, data: Uint8Array): Promise<void> {
    if (this.failWrite.has(name)) throw new Error(`simulated crash writing ${name}`);
    return super.writeAtomic(name, data);
  }

  override async remove(name: string): Promise<void> {
    if (this.failRemove.has(name)) throw new Error(`simulated crash removing ${name}`);
    return super.remove(name);
  }
}

export const DAY = 24 * 60 * 60 * 1000;
