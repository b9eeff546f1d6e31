import { AUDIT_FILE, AuditLog } from '../../shared/governance/audit';
import { auditSegmentName, auditSegments } from '../../shared/governance/audit-files';
import { FakeClock } from '../twins/fake-clock';
import { MemoryBlobStore } from '../twins/memory-blobs';

/**
 * Audit rotation: past a size the live file is sealed into a segment and the chain goes on in a new file.
 * Nothing is pruned; verify walks the chain across every file, so a removed or edited segment shows.
 */

const agent = { kind: 'agent', id: 'agent-a' } as const;
/** Small enough that a handful of entries seal a segment (each line is about 250 bytes). */
const MAX = 600;

async function logWith(n: number, blobs = new MemoryBlobStore(), clock = new FakeClock()): Promise<{ blobs: MemoryBlobStore; log: AuditLog; clock: FakeClock }> {
  const log = await AuditLog.open({ blobs, clock, maxBytes: MAX });
  for (let i = 0; i < n; i++) {
    clock.advance(1000);
    await log.append({ action: 'note.write', actor: agent, target: `note-${i}`, data: { version: `v${i}` } });
  }
  return { blobs, log, clock };
}

test('the live file is sealed into segments named by their first entry; the chain verifies across them', async () => {
  const { blobs, log } = await logWith(12);
  const segments = await auditSegments(blobs);
  expect(segments.length).toBeGreaterThanOrEqual(3);
  expect(segments[0]).toBe(auditSegmentName(1));
  for (const name of segments) expect(blobs.files.get(name)!.byteLength).toBeGreaterThan(MAX);
  const report = await log.verify();
  expect(report).toMatchObject({ ok: true, entries: 12, head: { seq: 12 }, problems: [] });
  // recent() reads across files, newest first
  expect((await log.recent({ limit: 12 })).map((e) => e.seq)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
});

test('a reopened log continues the chain from the newest segment when the live file was just sealed', async () => {
  const { blobs, clock, log } = await logWith(1);
  while (blobs.files.has(AUDIT_FILE)) await log.append({ action: 'note.write', actor: agent }); // until a seal has just happened
  const again = await AuditLog.open({ blobs, clock, maxBytes: MAX });
  const last = (await again.recent({ limit: 1 }))[0];
  const e = await again.append({ action: 'decay', actor: { kind: 'system', id: null } });
  expect(e.seq).toBe(last.seq + 1);
  expect(e.prev).toBe(last.hash);
  expect((await again.verify()).ok).toBe(true);
});

test('a seal cut short by a crash (segment written, live file not yet removed) is finished at open, nothing doubled', async () => {
  const { blobs, clock, log } = await logWith(3);
  const live = blobs.files.get(AUDIT_FILE)!;
  const entries = (await log.verify()).entries;
  blobs.files.set(auditSegmentName(99), new Uint8Array(live)); // the newest segment holds the very bytes
  const again = await AuditLog.open({ blobs, clock, maxBytes: 1e9 });
  expect(blobs.files.has(AUDIT_FILE)).toBe(false);
  expect((await again.verify()).entries).toBe(entries);
  const e = await again.append({ action: 'decay', actor: { kind: 'system', id: null } });
  expect(e.seq).toBe(entries + 1);
  expect((await again.verify()).ok).toBe(true);
});

test('a removed or edited segment breaks the chain, and verify names the file', async () => {
  const { blobs, log } = await logWith(12);
  const segments = await auditSegments(blobs);

  const removed = blobs.files.get(segments[1])!;
  blobs.files.delete(segments[1]);
  const gap = await log.verify();
  expect(gap.ok).toBe(false);
  expect(gap.problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'chain_broken', file: segments[2], line: 1, message: expect.stringContaining('a segment before it was removed or replaced') })]));
  blobs.files.set(segments[1], removed);
  expect((await log.verify()).ok).toBe(true);

  const text = new TextDecoder().decode(blobs.files.get(segments[0])).replace('"v0"', '"v9"');
  blobs.files.set(segments[0], new TextEncoder().encode(text));
  const edited = await log.verify();
  expect(edited.ok).toBe(false);
  expect(edited.problems).toEqual([expect.objectContaining({ kind: 'hash_mismatch', file: segments[0], line: 1 })]);
});

test('dropping the oldest segment is seen: the chain no longer starts at entry 1', async () => {
  const { blobs, log } = await logWith(12);
  blobs.files.delete((await auditSegments(blobs))[0]);
  const r = await log.verify();
  expect(r.ok).toBe(false);
  expect(r.problems.map((p) => p.kind)).toEqual(expect.arrayContaining(['chain_broken', 'seq_gap']));
});
