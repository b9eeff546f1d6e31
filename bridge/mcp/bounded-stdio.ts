import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * One JSON-RPC message on stdio may not exceed this. A note is at most 2 MB (MAX_NOTE_BYTES) and JSON
 * escaping can double it, so 10 MB (the SDK's own limit) leaves room for any call we can carry out.
 */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * How much of each end of an oversized message is kept to find its id, so the error answers the right call
 * (the id may come first, or last: the SDK's client writes it after the params).
 */
const END_BYTES = 4096;

/**
 * The MCP stdio transport (newline-delimited JSON-RPC), with a bounded buffer: a line longer than the
 * limit is skipped to its end and answered with an error, and the session goes on. (The SDK's own
 * transport closes the whole session then, failing every call in flight.) A line that is not JSON or
 * not JSON-RPC is answered with the JSON-RPC parse / invalid-request error when it names an id.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** While skipping an oversized line: its first and last bytes (for the id) and its length so far. */
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | null = null;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream & { pause(): unknown },
    private readonly stdout: NodeJS.WritableStream,
    private readonly maxBytes = MAX_STDIO_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = null;
    this.onclose?.();
  }

  private readonly onStreamError = (err: Error): void => this.onerror?.(err);

  private readonly onData = (chunk: Buffer | string): void => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (rest.length > 0) {
      const nl = rest.indexOf(0x0a);
      const part = nl === -1 ? rest : rest.subarray(0, nl);
      rest = nl === -1 ? Buffer.alloc(0) : rest.subarray(nl + 1);
      if (this.skipping) {
        this.skipping.bytes += part.length;
        this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, part.subarray(-END_BYTES)]));
        if (nl !== -1) this.refuseOversized();
        continue;
      }
      if (this.pendingBytes + part.length > this.maxBytes) {
        const head = Buffer.concat([...this.pending.slice(0, 2), part.subarray(0, END_BYTES)]).subarray(0, END_BYTES);
        this.skipping = { head, tail: lastBytes(part), bytes: this.pendingBytes + part.length };
        this.pending = [];
        this.pendingBytes = 0;
        if (nl !== -1) this.refuseOversized();
        continue;
      }
      if (nl === -1) {
        this.pending.push(part);
        this.pendingBytes += part.length;
        continue;
      }
      const line = this.pending.length ? Buffer.concat([...this.pending, part]) : part;
      this.pending = [];
      this.pendingBytes = 0;
      this.handleLine(line.toString('utf8').replace(/\r$/, ''));
    }
  };

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      this.onerror?.(new Error(`a line on stdin is not JSON: ${(err as Error).message}`));
      void this.answerError(null, -32700, 'Parse error: the message is not valid JSON.');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.onerror?.(new Error('a message on stdin is not JSON-RPC 2.0'));
      void this.answerError(idOf(raw), -32600, 'Invalid request: not a JSON-RPC 2.0 message.');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private refuseOversized(): void {
    const { head, tail, bytes } = this.skipping!;
    this.skipping = null;
    const id = idAtEnds(head.toString('utf8'), tail.toString('utf8'));
    this.onerror?.(new Error(`a message of ${bytes} bytes on stdin was skipped (limit ${this.maxBytes})`));
    void this.answerError(id, -32600, `Message too large: ${bytes} bytes, over the ${this.maxBytes}-byte limit; it was skipped. Send large content in smaller pieces (several notes, or sections).`, {
      code: 'payload_too_large',
      bytes,
      max_bytes: this.maxBytes,
    });
  }

  /** Errors answer the request's id; null where it cannot be told (JSON-RPC 2.0, section 5). */
  private async answerError(id: string | number | null, code: number, message: string, data?: Record<string, unknown>): Promise<void> {
    await this.send({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } } as unknown as JSONRPCMessage);
  }
}

function idOf(raw: unknown): string | number | null {
  const id = raw !== null && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function lastBytes(b: Buffer): Buffer {
  return b.length > END_BYTES ? b.subarray(b.length - END_BYTES) : b;
}

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** The top-level id when it opens the message (after "jsonrpc" at most)… */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE);
/** …or closes it: an "id" nested in the params is neither first nor last. */
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`);

/** The request id of a message too large to parse, from its first or last bytes; null when neither holds it. */
function idAtEnds(head: string, tail: string): string | number | null {
  const m = ID_FIRST.exec(head) ?? ID_LAST.exec(tail.replace(/\r$/, ''));
  if (!m) return null;
  try {
    return JSON.parse(m[1]) as string | number;
  } catch {
    return null;
  }
}
