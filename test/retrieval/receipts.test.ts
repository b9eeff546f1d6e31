import { ReceiptLog, RECEIPTS_FILE, parseTimeArg, parseReceiptLines } from '../../shared/retrieval/receipts';
import type { Receipt } from '../../shared/retrieval/types';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { FakeClock } from '../twins/fake-clock';
import { codeOf, failure } from '../twins/error-code';
import { HOUR, T0, TERMS, receipt } from './receipt-fixture';

const enc = new TextEncoder();
const dec = new TextDecoder();

const ids = (rs: Receipt[]): string[] => rs.map((r) => r.receipt_id);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Bytes of one receipt's line, to size rotation thresholds in whole lines. */
/** A line's bytes as written: `{"seq":N,` (here a two-digit N) before the receipt's own fields. */
const lineBytes = (n: number, seq = 10): number => enc.encode(`{"seq":${seq},${JSON.stringify(receipt(n)).slice(1)}\n`).byteLength;

/** MemoryBlobStore whose operations can be made to fail, as a process dying at that step would. */
class FailingBlobStore extends MemoryBlobStore {
  failOn: ((op: 'append' | 'writeAtomic' | 'remove', name: string) => boolean) | null = null;
  /** Bytes of a failing append that still land (a torn write). */
  tornBytes = 0;

  override async append(name: string, data: Uint8Array): Promise<void> {
    if (this.failOn?.('append', name)) {
      if (this.tornBytes) await super.append(name, data.slice(0, this.tornBytes));
      throw new Error('disk gone during append');
    }
    return super.append(name, data);
  }

  override async writeAtomic(name: string, data: Uint8Array): Promise<void> {
    if (this.failOn?.('writeAtomic', name)) throw new Error('crash during writeAtomic');
    return super.writeAtomic(name, data);
  }

  override async remove(name: string): Promise<void> {
    if (this.failOn?.('remove', name)) throw new Error('crash during remove');
    return super.remove(name);
  }
}

let blobs: MemoryBlobStore;
let clock: FakeClock;

beforeEach(() => {
  blobs = new MemoryBlobStore();
  clock = new FakeClock(T0 + 100 * HOUR);
});

async function appendAll(log: ReceiptLog, ns: number[]): Promise<void> {
  for (const n of ns) await log.append(receipt(n));
}

describe('append and query', () => {
  it('writes one JSON line per receipt and returns them newest first', async () => {
    const log = new ReceiptLog(blobs, clock);
    await appendAll(log, [1, 2, 3]);
    const text = dec.decode((await blobs.read(RECEIPTS_FILE))!);
    expect(text.split('\n')).toHaveLength(4); // three lines and the empty string after the last newline
    expect(JSON.parse(text.split('\n')[0])).toEqual({ seq: 1, ...receipt(1) }); // seq: see ReceiptLog.check
    const r = await log.query();
    expect(ids(r.receipts)).toEqual(['r3', 'r2', 'r1']);
    expect(r.receipts[0]).toEqual(receipt(3));
    expect(r.skipped_lines).toBe(0);
  });

  it('an empty log answers with nothing', async () => {
    expect(await new ReceiptLog(blobs, clock).query()).toEqual({ receipts: [], skipped_lines: 0 });
    expect(await new ReceiptLog(blobs, clock).get('r1')).toBeNull();
  });

  it('filters by agent, task, node and receipt id, each alone and combined', async () => {
    const log = new ReceiptLog(blobs, clock);
    await log.append(receipt(1, { agent_id: 'a', task_id: 't1', final_nodes: [{ id: 'x', score: 1, scouts: ['exact'], terms: TERMS }] }));
    await log.append(receipt(2, { agent_id: 'b', task_id: 't1' }));
    await log.append(receipt(3, { agent_id: 'a', task_id: 't2', final_nodes: [{ id: 'n1', score: 1, scouts: [], terms: TERMS }, { id: 'x', score: 0.5, scouts: [], terms: TERMS }] }));
    await log.append(receipt(4, { agent_id: null }));

    expect(ids((await log.query({ agent: 'a' })).receipts)).toEqual(['r3', 'r1']);
    expect(ids((await log.query({ task: 't1' })).receipts)).toEqual(['r2', 'r1']);
    expect(ids((await log.query({ node: 'x' })).receipts)).toEqual(['r3', 'r1']);
    expect(ids((await log.query({ node: 'n1' })).receipts)).toEqual(['r4', 'r3', 'r2']);
    expect(ids((await log.query({ agent: 'a', task: 't1' })).receipts)).toEqual(['r1']);
    expect(ids((await log.query({ receipt_id: 'r2' })).receipts)).toEqual(['r2']);
    expect(ids((await log.query({ agent: 'nobody' })).receipts)).toEqual([]);
    expect((await log.get('r3'))?.task_id).toBe('t2');
    expect(await log.get('r99')).toBeNull();
  });

  it('filters by time: since is inclusive, until exclusive; ISO, time-ago and ms forms agree', async () => {
    const log = new ReceiptLog(blobs, clock);
    await appendAll(log, range(1, 10));
    const iso = (n: number) => new Date(T0 + n * HOUR).toISOString();
    expect(ids((await log.query({ since: iso(8) })).receipts)).toEqual(['r10', 'r9', 'r8']);
    expect(ids((await log.query({ until: iso(3) })).receipts)).toEqual(['r2', 'r1']);
    expect(ids((await log.query({ since: iso(4), until: iso(6) })).receipts)).toEqual(['r5', 'r4']);
    expect(ids((await log.query({ since: T0 + 9 * HOUR })).receipts)).toEqual(['r10', 'r9']);
    // the clock stands at hour 100: 92h ago is hour 8
    expect(ids((await log.query({ since: '92h' })).receipts)).toEqual(['r10', 'r9', 'r8']);
    expect(ids((await log.query({ since: '5d' })).receipts)).toHaveLength(10);
    expect(ids((await log.query({ since: '2026-01-01' })).receipts)).toHaveLength(10);
    expect(ids((await log.query({ since: '1h' })).receipts)).toEqual([]);
  });

  it('limit keeps the newest matches', async () => {
    const log = new ReceiptLog(blobs, clock);
    await appendAll(log, range(1, 60));
    expect(ids((await log.query({ limit: 2 })).receipts)).toEqual(['r60', 'r59']);
    expect((await log.query()).receipts).toHaveLength(50); // the default limit
    expect((await log.query({ limit: 10_000 })).receipts).toHaveLength(60);
    expect(ids((await log.query({ limit: 1, until: new Date(T0 + 30 * HOUR).toISOString() })).receipts)).toEqual(['r29']);
  });

  it('concurrent appends never interleave and share appends', async () => {
    const log = new ReceiptLog(blobs, clock);
    await Promise.all(range(1, 40).map((n) => log.append(receipt(n))));
    const parsed = parseReceiptLines((await blobs.read(RECEIPTS_FILE))!);
    expect(parsed.skipped).toBe(0);
    expect(ids(parsed.receipts)).toEqual(range(1, 40).map((n) => `r${n}`));
    expect(blobs.appends).toBeLessThan(40);
  });

  it('a restarted process reads everything back without having appended anything', async () => {
    await appendAll(new ReceiptLog(blobs, clock), [1, 2, 3]);
    const again = new ReceiptLog(blobs.clone(), clock);
    expect(ids((await again.query()).receipts)).toEqual(['r3', 'r2', 'r1']);
  });
});

describe('rotation', () => {
  it('rotates past maxBytes, keeps every kept receipt queryable and drops only the oldest files', async () => {
    // Rotation follows the append that takes the live file past two lines, so each segment holds three.
    const log = new ReceiptLog(blobs, clock, { maxBytes: 2 * lineBytes(10) + 1, keepFiles: 3 });
    await appendAll(log, range(10, 29));
    const names = await blobs.list();
    expect(names).toEqual(['receipts.000005.jsonl', 'receipts.000006.jsonl', 'receipts.jsonl']);
    // 20 receipts: segments 1-6 took 18, the live file holds the last 2; segments 1-4 were dropped.
    const r = await log.query({ limit: 100 });
    expect(ids(r.receipts)).toEqual(range(22, 29).reverse().map((n) => `r${n}`));
    expect(r.skipped_lines).toBe(0);
    expect(await log.get('r21')).toBeNull();
    expect((await log.get('r22'))?.query_text).toBe('query 22');
  });

  it('with enough files kept, nothing is lost across many rotations', async () => {
    const log = new ReceiptLog(blobs, clock, { maxBytes: 3 * lineBytes(10), keepFiles: 100 });
    // pairs of concurrent appends: a group commit may take the live file past maxBytes before it rotates
    for (let n = 10; n < 70; n += 2) await Promise.all([log.append(receipt(n)), log.append(receipt(n + 1))]);
    await log.idle();
    expect((await blobs.list()).length).toBeGreaterThan(10);
    expect(ids((await log.query({ limit: 1000 })).receipts)).toEqual(range(10, 69).reverse().map((n) => `r${n}`));
    expect(ids((await log.query({ agent: 'agent-a', since: new Date(T0 + 67 * HOUR).toISOString() })).receipts)).toEqual(['r69', 'r68', 'r67']);
    const restarted = new ReceiptLog(blobs.clone(), clock, { maxBytes: 3 * lineBytes(10), keepFiles: 100 });
    expect((await restarted.query({ limit: 1000 })).receipts).toHaveLength(60);
  });
});

describe('reading only what a time filter needs', () => {
  it('a since query stops at the first file that starts a day before it: older segments are not read, nothing newer is missed', async () => {
    const log = new ReceiptLog(blobs, clock, { maxBytes: 3 * lineBytes(10), keepFiles: 100 });
    for (let n = 10; n < 200; n++) await log.append(receipt(n)); // one an hour: about eight days
    await log.idle();
    const segments = (await blobs.list()).filter((n) => n !== RECEIPTS_FILE);
    const read: string[] = [];
    const base = blobs.read.bind(blobs);
    blobs.read = (name: string) => (read.push(name), base(name));
    const since = new Date(T0 + 190 * HOUR).toISOString();
    expect(ids((await log.query({ since, limit: 1000 })).receipts)).toEqual(range(190, 199).reverse().map((n) => `r${n}`));
    const segmentsRead = read.filter((n) => n !== RECEIPTS_FILE).length;
    expect(segmentsRead).toBeGreaterThan(0);
    expect(segmentsRead).toBeLessThan(segments.length / 4);
  });
});

describe('crashes and damage', () => {
  it('a torn last line is skipped and counted; the next append starts a fresh line', async () => {
    await appendAll(new ReceiptLog(blobs, clock), [1, 2]);
    // the process died while writing receipt 3
    const line3 = JSON.stringify(receipt(3));
    await blobs.append(RECEIPTS_FILE, enc.encode(line3.slice(0, 40)));

    const restarted = new ReceiptLog(blobs, clock);
    expect(await restarted.query()).toEqual({ receipts: [receipt(2), receipt(1)], skipped_lines: 1 });
    await restarted.append(receipt(4));
    const r = await restarted.query();
    expect(ids(r.receipts)).toEqual(['r4', 'r2', 'r1']);
    expect(r.skipped_lines).toBe(1);
  });

  it('garbled lines anywhere are skipped and counted, never thrown', async () => {
    await appendAll(new ReceiptLog(blobs, clock), [1]);
    await blobs.append(RECEIPTS_FILE, enc.encode('not json\n{"receipt_id":"x"}\n[1,2]\n\n'));
    await appendAll(new ReceiptLog(blobs, clock), [2]);
    const r = await new ReceiptLog(blobs, clock).query();
    expect(ids(r.receipts)).toEqual(['r2', 'r1']);
    expect(r.skipped_lines).toBe(3);
  });

  it('an append that fails rejects; one that tore its line leaves later appends intact', async () => {
    const store = new FailingBlobStore();
    const log = new ReceiptLog(store, clock);
    await log.append(receipt(1));
    store.failOn = (op) => op === 'append';
    store.tornBytes = 25;
    await expect(log.append(receipt(2))).rejects.toThrow('disk gone during append');
    store.failOn = null;
    await log.append(receipt(3));
    const r = await log.query();
    expect(ids(r.receipts)).toEqual(['r3', 'r1']);
    expect(r.skipped_lines).toBe(1);
  });

  it('a crash between copying the live file and removing it neither loses nor duplicates', async () => {
    const store = new FailingBlobStore();
    const opts = { maxBytes: 2 * lineBytes(10) + 1, keepFiles: 3 };
    const log = new ReceiptLog(store, clock, opts);
    await appendAll(log, [10, 11]);
    store.failOn = (op, name) => op === 'remove' && name === RECEIPTS_FILE;
    await log.append(receipt(12)); // acknowledged: it is durable before rotation starts
    await log.idle();
    const disk = store.clone(); // the process died here
    expect(await disk.list()).toEqual(['receipts.000001.jsonl', 'receipts.jsonl']);

    const restarted = new ReceiptLog(disk, clock, opts);
    expect(await restarted.query()).toEqual({ receipts: [receipt(12), receipt(11), receipt(10)], skipped_lines: 0 });
    // the next writer finishes the interrupted step instead of copying the same lines again
    await restarted.append(receipt(13));
    expect(await disk.list()).toEqual(['receipts.000001.jsonl', 'receipts.jsonl']);
    expect(ids(parseReceiptLines((await disk.read(RECEIPTS_FILE))!).receipts)).toEqual(['r13']);
    expect(ids((await restarted.query()).receipts)).toEqual(['r13', 'r12', 'r11', 'r10']);
  });

  it('a crash while writing the rotated copy leaves the live file whole; the next writer rotates it', async () => {
    const store = new FailingBlobStore();
    const opts = { maxBytes: 2 * lineBytes(10) + 1, keepFiles: 3 };
    const log = new ReceiptLog(store, clock, opts);
    store.failOn = (op) => op === 'writeAtomic';
    await appendAll(log, [10, 11, 12]);
    await log.idle();
    const disk = store.clone();
    expect(await disk.list()).toEqual(['receipts.jsonl']);
    const restarted = new ReceiptLog(disk, clock, opts);
    await restarted.append(receipt(13));
    expect(await disk.list()).toEqual(['receipts.000001.jsonl', 'receipts.jsonl']);
    expect(ids((await restarted.query()).receipts)).toEqual(['r13', 'r12', 'r11', 'r10']);
  });

  it('a crash while pruning leaves extra old files that the next writer removes', async () => {
    const store = new FailingBlobStore();
    const opts = { maxBytes: 2 * lineBytes(10) + 1, keepFiles: 2 };
    const log = new ReceiptLog(store, clock, opts);
    await appendAll(log, [10, 11, 12]); // → segment 1
    store.failOn = (op, name) => op === 'remove' && name !== RECEIPTS_FILE;
    await appendAll(log, [13, 14, 15]); // → segment 2; pruning segment 1 fails
    await log.idle();
    const disk = store.clone();
    expect(await disk.list()).toEqual(['receipts.000001.jsonl', 'receipts.000002.jsonl']);
    const restarted = new ReceiptLog(disk, clock, opts);
    expect((await restarted.query()).receipts).toHaveLength(6); // still there, still readable
    await restarted.append(receipt(16));
    expect(await disk.list()).toEqual(['receipts.000002.jsonl', 'receipts.jsonl']);
    expect(ids((await restarted.query()).receipts)).toEqual(['r16', 'r15', 'r14', 'r13']);
  });

  it('duplicate copies of a receipt in two files are returned once', async () => {
    await appendAll(new ReceiptLog(blobs, clock), [1, 2]);
    await blobs.writeAtomic('receipts.000001.jsonl', (await blobs.read(RECEIPTS_FILE))!);
    const r = await new ReceiptLog(blobs, clock).query();
    expect(ids(r.receipts)).toEqual(['r2', 'r1']);
  });
});

describe('bad arguments', () => {
  it('query refuses bad filters with invalid_argument and a message naming the filter', async () => {
    const log = new ReceiptLog(blobs, clock);
    const since = await failure(log.query({ since: 'yesterday' }));
    expect(since.code).toBe('invalid_argument');
    expect(since.message).toMatch(/^since must be an ISO time .* or a time ago such as 30m, 2h, 3d or 1w \(got "yesterday"\)\.$/);
    expect((await failure(log.query({ until: '2026-13-45' }))).message).toMatch(/^until must be an ISO time/);
    expect((await failure(log.query({ since: '2h', until: '3h' }))).message).toMatch(/since .* must be before until/);
    expect((await failure(log.query({ limit: 0 }))).message).toMatch(/limit must be a whole number from 1 to 10000/);
    expect((await failure(log.query({ limit: 2.5 }))).code).toBe('invalid_argument');
    expect((await failure(log.query({ agent: '' }))).message).toMatch(/agent must be a non-empty string/);
    expect((await failure(log.query({ node: 7 as unknown as string }))).message).toMatch(/node must be a non-empty string/);
    expect((await failure(log.query({ agnet: 'a' } as unknown as object))).message).toMatch(/Unknown receipts filter "agnet"/);
    expect((await failure(log.get(''))).code).toBe('invalid_argument');
  });

  it('append refuses a malformed receipt and writes nothing', async () => {
    const log = new ReceiptLog(blobs, clock);
    const noId = await failure(log.append(receipt(1, { receipt_id: '' })));
    expect(noId.message).toBe('Invalid receipt: receipt_id must not be empty.');
    expect((await failure(log.append(receipt(1, { ts: 'now' })))).message).toBe('Invalid receipt: ts must be an ISO time.');
    expect((await failure(log.append({ ...receipt(1), final_nodes: 'n1' } as unknown as Receipt))).message).toBe('Invalid receipt: final_nodes must be array.');
    expect(await codeOf(log.append(null as unknown as Receipt))).toBe('invalid_argument');
    const circular = receipt(1) as Receipt & { self?: unknown };
    circular.self = circular;
    expect((await failure(log.append(circular))).message).toMatch(/cannot be written as JSON/);
    expect(await blobs.list()).toEqual([]);
    await log.append(receipt(2));
    expect(ids((await log.query()).receipts)).toEqual(['r2']);
  });

  it('refuses rotation settings that would lose acknowledged receipts or make no sense', () => {
    expect(() => new ReceiptLog(blobs, clock, { keepFiles: 1 })).toThrow(/keepFiles must be a whole number ≥ 2/);
    expect(() => new ReceiptLog(blobs, clock, { maxBytes: 0 })).toThrow(/maxBytes must be a whole number of bytes ≥ 1/);
  });
});

describe('parseTimeArg', () => {
  const now = Date.UTC(2026, 5, 1, 12);
  it('reads ISO times, times ago and ms', () => {
    expect(parseTimeArg('2026-05-31', now, 'since')).toBe(Date.UTC(2026, 4, 31));
    expect(parseTimeArg('2026-05-31T10:30:00Z', now, 'since')).toBe(Date.UTC(2026, 4, 31, 10, 30));
    expect(parseTimeArg('2026-05-31T10:30:00.250+02:00', now, 'since')).toBe(Date.UTC(2026, 4, 31, 8, 30, 0, 250));
    expect(parseTimeArg('2h', now, 'since')).toBe(now - 2 * HOUR);
    expect(parseTimeArg('30m', now, 'since')).toBe(now - 30 * 60_000);
    expect(parseTimeArg('3d', now, 'since')).toBe(now - 72 * HOUR);
    expect(parseTimeArg('1w', now, 'since')).toBe(now - 168 * HOUR);
    expect(parseTimeArg(12345, now, 'since')).toBe(12345);
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'May', '1', '2h ago', '-2h', '2026-02-30x', 'soon']) {
      expect(() => parseTimeArg(bad, now, 'since')).toThrow(/since must be an ISO time/);
    }
    expect(() => parseTimeArg(Number.NaN, now, 'until')).toThrow(/until must be an ISO time/);
  });
});

describe('a cut, emptied or deleted log is found out', () => {
  it('check() compares the newest seq on file with the one recorded elsewhere and counts the receipts lost', async () => {
    await appendAll(new ReceiptLog(blobs, clock), [1, 2, 3, 4]);
    expect(await new ReceiptLog(blobs.clone(), clock).check(4)).toBeNull();
    expect(await new ReceiptLog(blobs.clone(), clock).check(null)).toBeNull(); // nothing recorded elsewhere: nothing to compare

    const cut = blobs.clone();
    cut.truncate(RECEIPTS_FILE, 0.5);
    const again = new ReceiptLog(cut, clock);
    expect(await again.check(4)).toEqual({
      file: RECEIPTS_FILE,
      counts: { lost_receipts: 2 },
      message: expect.stringMatching(/^receipts\.jsonl ends at receipt #2 but receipt #4 was recorded: 2 receipt\(s\)/),
    });
    // Numbering goes on above the lost receipts, so a later check is not fooled by new lines.
    expect(await again.append(receipt(5))).toBe(5);

    const gone = blobs.clone();
    gone.files.delete(RECEIPTS_FILE);
    expect((await new ReceiptLog(gone, clock).check(4))?.counts).toEqual({ lost_receipts: 4 });
  });

  it('reads back receipts as they were given: the seq stays in the file', async () => {
    const log = new ReceiptLog(blobs, clock);
    expect(await log.append(receipt(1))).toBe(1);
    expect(await log.append(receipt(2))).toBe(2);
    expect((await log.get('r1'))).toEqual(receipt(1));
  });
});
