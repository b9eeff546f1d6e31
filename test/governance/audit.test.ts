import { AUDIT_FILE, AUDIT_HEAD_FILE, AuditLog, GENESIS_HASH, verifyAudit } from '../../shared/governance/audit';
import { FakeClock } from '../twins/fake-clock';
import { MemoryBlobStore } from '../twins/memory-blobs';

/** The audit chain: every write and learning action, tamper-evident (issue 5 "Write policy and audit"). */

const agent = { kind: 'agent', id: 'agent-a' } as const;
const dec = new TextDecoder();
const enc = new TextEncoder();

async function logWith(n: number): Promise<{ blobs: MemoryBlobStore; log: AuditLog; clock: FakeClock }> {
  const blobs = new MemoryBlobStore();
  const clock = new FakeClock();
  const log = await AuditLog.open({ blobs, clock });
  for (let i = 0; i < n; i++) {
    clock.advance(1000);
    await log.append({ action: 'note.write', actor: agent, target: `note-${i}`, data: { version: `v${i}` } });
  }
  return { blobs, log, clock };
}

const lines = (b: MemoryBlobStore): string[] => dec.decode(b.files.get(AUDIT_FILE)).split('\n').filter((l) => l !== '');
const setLines = (b: MemoryBlobStore, ls: string[]): void => void b.files.set(AUDIT_FILE, enc.encode(ls.join('\n') + '\n'));

test('entries chain: seq counts from 1, each prev is the hash before it, the head file names the newest', async () => {
  const { blobs, log } = await logWith(3);
  const entries = lines(blobs).map((l) => JSON.parse(l));
  expect(entries.map((e) => e.seq)).toEqual([1, 2, 3]);
  expect(entries[0].prev).toBe(GENESIS_HASH);
  expect(entries[1].prev).toBe(entries[0].hash);
  expect(entries[2].prev).toBe(entries[1].hash);
  expect(entries[2]).toMatchObject({ action: 'note.write', actor: agent, target: 'note-2', data: { version: 'v2' }, ts: '2026-01-01T00:00:03.000Z' });
  expect(JSON.parse(dec.decode(blobs.files.get(AUDIT_HEAD_FILE)))).toEqual({ seq: 3, hash: entries[2].hash });
  expect(await log.verify()).toEqual({ ok: true, entries: 3, head: { seq: 3, hash: entries[2].hash }, problems: [] });
});

test('a reopened log continues the chain', async () => {
  const { blobs, clock } = await logWith(2);
  const again = await AuditLog.open({ blobs, clock });
  const e = await again.append({ action: 'decay', actor: { kind: 'system', id: null } });
  expect(e.seq).toBe(3);
  expect((await verifyAudit(blobs)).ok).toBe(true);
  expect((await again.recent({ limit: 2 })).map((x) => x.seq)).toEqual([3, 2]);
  expect((await again.recent({ action: 'decay' })).map((x) => x.seq)).toEqual([3]);
});

test('concurrent appends never interleave and keep call order', async () => {
  const { blobs, log } = await logWith(0);
  await Promise.all(Array.from({ length: 20 }, (_, i) => log.append({ action: 'feedback', actor: agent, target: `r${i}` })));
  expect(lines(blobs).map((l) => JSON.parse(l).target)).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}`));
  expect((await log.verify()).ok).toBe(true);
});

describe('verify catches tampering', () => {
  test('an edited line (a value changed, even keeping valid JSON)', async () => {
    const { blobs } = await logWith(4);
    const ls = lines(blobs);
    ls[1] = ls[1].replace('"v1"', '"v9"');
    setLines(blobs, ls);
    const r = await verifyAudit(blobs);
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([expect.objectContaining({ line: 2, kind: 'hash_mismatch' })]);
  });

  test('an edited line whose hash was recomputed breaks the link to the next one', async () => {
    const { blobs } = await logWith(4);
    const ls = lines(blobs);
    const e = JSON.parse(ls[1]);
    ls[1] = ls[1].replace(e.hash, 'f'.repeat(64));
    setLines(blobs, ls);
    const r = await verifyAudit(blobs);
    expect(r.ok).toBe(false);
    expect(r.problems.map((p) => [p.line, p.kind])).toEqual([
      [2, 'hash_mismatch'],
      [3, 'chain_broken'],
    ]);
  });

  test('a removed line', async () => {
    const { blobs } = await logWith(4);
    const ls = lines(blobs);
    ls.splice(1, 1);
    setLines(blobs, ls);
    const r = await verifyAudit(blobs);
    expect(r.ok).toBe(false);
    expect(r.problems.map((p) => p.kind)).toEqual(['chain_broken', 'seq_gap']);
  });

  test('reordered lines', async () => {
    const { blobs } = await logWith(4);
    const ls = lines(blobs);
    [ls[1], ls[2]] = [ls[2], ls[1]];
    setLines(blobs, ls);
    const r = await verifyAudit(blobs);
    expect(r.ok).toBe(false);
    expect(r.problems.some((p) => p.kind === 'chain_broken')).toBe(true);
  });

  test('lines removed from the end (the head remembers the newest entry)', async () => {
    const { blobs } = await logWith(4);
    setLines(blobs, lines(blobs).slice(0, 2));
    const r = await verifyAudit(blobs);
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([expect.objectContaining({ kind: 'truncated' })]);
  });

  test.each([
    ['lines removed from the end', (b: MemoryBlobStore) => setLines(b, lines(b).slice(0, 2))],
    ['the log emptied', (b: MemoryBlobStore) => void b.files.set(AUDIT_FILE, new Uint8Array(0))],
    ['the log deleted', (b: MemoryBlobStore) => void b.files.delete(AUDIT_FILE)],
    ['the log cut in the middle of a line', (b: MemoryBlobStore) => void b.files.set(AUDIT_FILE, b.files.get(AUDIT_FILE)!.slice(0, Math.floor(b.files.get(AUDIT_FILE)!.length / 2)))],
  ])('%s: later appends (a reopened engine going on) never make the damage disappear', async (_what, damage) => {
    const { blobs, clock } = await logWith(4);
    damage(blobs);
    const warnings: string[] = [];
    const again = await AuditLog.open({ blobs, clock, logger: { debug: () => undefined, info: () => undefined, warn: (m) => void warnings.push(m), error: () => undefined } });
    expect(warnings.join('\n')).toMatch(/records entry 4: \d+ audit entr(y was|ies were) removed, cut or replaced/);
    const e = await again.append({ action: 'note.write', actor: agent });
    expect(e.seq).toBe(5); // the chain goes on from what the head recorded, not from a fresh entry 1
    await again.append({ action: 'note.write', actor: agent });
    const r = await verifyAudit(blobs);
    expect(r.ok).toBe(false);
    expect(r.problems.map((p) => p.kind)).toEqual(expect.arrayContaining([expect.stringMatching(/chain_broken|seq_gap/)]));
  });

  test('the head file removed while entries exist', async () => {
    const { blobs } = await logWith(2);
    blobs.files.delete(AUDIT_HEAD_FILE);
    expect((await verifyAudit(blobs)).problems).toEqual([expect.objectContaining({ kind: 'truncated' })]);
  });
});

describe('crashes are not tampering', () => {
  test('a torn last line is reported, the chain stands, and the next append starts on a fresh line', async () => {
    const { blobs, clock } = await logWith(3);
    const prev = blobs.files.get(AUDIT_FILE) ?? new Uint8Array(0);
    blobs.files.set(AUDIT_FILE, new Uint8Array([...prev, ...enc.encode('{"hash":"abc')]));
    let r = await verifyAudit(blobs);
    expect(r.ok).toBe(true);
    expect(r.problems).toEqual([expect.objectContaining({ line: 4, kind: 'torn_line' })]);

    const again = await AuditLog.open({ blobs, clock });
    expect((await again.append({ action: 'note.delete', actor: agent })).seq).toBe(4);
    r = await verifyAudit(blobs);
    expect(r).toMatchObject({ ok: true, entries: 4 });
    expect(r.problems.map((p) => p.kind)).toEqual(['torn_line']);
  });

  test('a crash between the append and the head write leaves the log one ahead: accepted', async () => {
    const { blobs } = await logWith(3);
    const ls = lines(blobs);
    blobs.files.set(AUDIT_HEAD_FILE, enc.encode(JSON.stringify({ seq: 2, hash: JSON.parse(ls[1]).hash })));
    expect((await verifyAudit(blobs)).ok).toBe(true);
  });

  test('an empty vault verifies as an empty log', async () => {
    expect(await verifyAudit(new MemoryBlobStore())).toEqual({ ok: true, entries: 0, head: null, problems: [] });
  });
});

// `lithos audit verify` beside a live writer: entries appended between reading the log and reading the
// head made the head look ahead of the log, reported as "entries were removed from the end".
test('verify beside a writer that appends between its reads of the log and of the head: intact, no false alarm', async () => {
  const { blobs, log, clock } = await logWith(3);
  let appendsLeft = 3;
  const racing = {
    read: async (name: string) => {
      const bytes = await blobs.read(name);
      if (name === AUDIT_FILE && appendsLeft-- > 0) {
        clock.advance(1000);
        await log.append({ action: 'note.write', actor: agent, target: 'racing' });
      }
      return bytes;
    },
    writeAtomic: blobs.writeAtomic.bind(blobs),
    append: blobs.append.bind(blobs),
    remove: blobs.remove.bind(blobs),
    list: blobs.list.bind(blobs),
  };
  const report = await verifyAudit(racing);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
  // A log really cut short is still reported, after the re-reads.
  setLines(blobs, lines(blobs).slice(0, 2));
  expect(await verifyAudit(blobs)).toMatchObject({ ok: false, problems: [expect.objectContaining({ kind: 'truncated' })] });
});

// Cutting the log and deleting the head left nothing to compare once the next entry rewrote the head:
// verify said intact. The loss is now written into the chain before that entry.
test('a head found missing at open is recorded in the chain before the next entry: verify keeps reporting it, as a notice', async () => {
  const { blobs, clock } = await logWith(5);
  setLines(blobs, lines(blobs).slice(0, 3));
  blobs.files.delete(AUDIT_HEAD_FILE);
  const reopened = await AuditLog.open({ blobs, clock });
  expect(await verifyAudit(blobs)).toMatchObject({ ok: false }); // before any append: the head is missing
  clock.advance(1000);
  const e = await reopened.append({ action: 'note.write', actor: agent, target: 'after' });
  expect(e.seq).toBe(5);
  const entries = lines(blobs).map((l) => JSON.parse(l));
  expect(entries[3]).toMatchObject({ seq: 4, action: 'audit.head_lost', data: { found: 'missing', log_seq: 3 } });
  const report = await verifyAudit(blobs);
  // A notice, not a failure: a crash or a sync client can lose the head too; the fact stays in the chain.
  expect(report.ok).toBe(true);
  expect(report.problems).toEqual([expect.objectContaining({ line: 4, kind: 'head_lost', message: expect.stringContaining('missing while the log ended at entry 3') })]);
  // A fresh log (no entries yet) has no head to lose: nothing is recorded.
  const fresh = await logWith(0);
  await fresh.log.append({ action: 'note.write', actor: agent });
  expect(lines(fresh.blobs).map((l) => JSON.parse(l).action)).toEqual(['note.write']);
});

test('the head_lost entry is written by the first append that succeeds, even if the first one failed', async () => {
  const { blobs, clock } = await logWith(5);
  setLines(blobs, lines(blobs).slice(0, 3));
  blobs.files.delete(AUDIT_HEAD_FILE);
  const reopened = await AuditLog.open({ blobs, clock });
  const append = blobs.append.bind(blobs);
  blobs.append = () => Promise.reject(new Error('ENOSPC: no space left on device'));
  await expect(reopened.append({ action: 'note.write', actor: agent })).rejects.toThrow(/ENOSPC/);
  blobs.append = append;
  await reopened.append({ action: 'note.write', actor: agent });
  expect(lines(blobs).map((l) => JSON.parse(l).action)).toEqual(['note.write', 'note.write', 'note.write', 'audit.head_lost', 'note.write']);
  expect((await verifyAudit(blobs)).problems.map((p) => p.kind)).toEqual(['head_lost']);
});
