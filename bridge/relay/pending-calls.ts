import type { LithosError } from '../../shared/errors';

interface Pending {
  tool: string;
  resolve(value: unknown): void;
  reject(err: LithosError): void;
  timer: ReturnType<typeof setTimeout>;
}

/** Calls sent and not yet answered, by request id. Each settles exactly once. */
export class PendingCalls {
  private readonly calls = new Map<string, Pending>();

  get size(): number {
    return this.calls.size;
  }

  add(id: string, tool: string, deadlineMs: number, onDeadline: () => LithosError): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(id, onDeadline()), deadlineMs);
      this.calls.set(id, { tool, resolve, reject, timer });
    });
  }

  tool(id: string): string | undefined {
    return this.calls.get(id)?.tool;
  }

  resolve(id: string, value: unknown): boolean {
    const p = this.take(id);
    p?.resolve(value);
    return p !== undefined;
  }

  fail(id: string, err: LithosError): boolean {
    const p = this.take(id);
    p?.reject(err);
    return p !== undefined;
  }

  /** Fails every pending call at once; `errorFor` may name the call's tool. */
  failAll(errorFor: (tool: string) => LithosError): void {
    const all = [...this.calls.values()];
    for (const p of all) clearTimeout(p.timer);
    this.calls.clear();
    for (const p of all) p.reject(errorFor(p.tool));
  }

  private take(id: string): Pending | undefined {
    const p = this.calls.get(id);
    if (!p) return undefined;
    clearTimeout(p.timer);
    this.calls.delete(id);
    return p;
  }
}
