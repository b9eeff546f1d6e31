/**
 * The allocator of ledger IDs (docs/ledger.md#stable-ids). The engine allocates, never an agent: the next
 * sequence of a prefix is one above the highest this vault has ever shown, on any device; the device's tag
 * keeps two devices that allocate at once from the same state apart.
 *
 * "Ever shown" is the maximum over every record that could remember an ID, so that no single loss (a
 * deleted note, a crash, memory.sqlite restored from an older copy, a journal lost) brings a number back:
 *   - every device's journal, `.lithos/ledger/<device fingerprint>.jsonl`: each allocation is appended and
 *     made durable before the ID is handed out (one file per device, so sync never merges two writers);
 *   - the high-water marks in memory.sqlite (`ledger:high`), raised by allocations and by every ID the index
 *     sees, so a note deleted (or moved to the trash) after it was indexed still counts;
 *   - every `ledger_id` of the notes in the vault now;
 *   - the audit trail's `ledger.id_allocate` entries (read once, at the first allocation after open).
 */
import type { AuditActor, AuditLog } from '../governance/audit';
import { AUDIT_FILE } from '../governance/audit';
import { LEDGER_PREFIX, type LedgerKind } from '../model/ledger';
import { formatLedgerId, parseLedgerId } from '../model/ledger-id';
import type { BlobStore, Clock, DeviceIdentityStore, Logger, SyncFolderPort } from '../ports';
import { classify, ledgerMirrorPath } from '../replica/device-files';
import { DeviceIdentity } from '../stores/device-identity';
import { Journal, parseJournal } from '../stores/journal';
import type { MemoryLearned } from '../stores/memory-learned';
import type { LiveNote } from './note-indexer';

/** Where each device's allocations are journaled, one file per device, under `.lithos/`. */
export const LEDGER_JOURNAL_DIR = 'ledger/';
/** memory.sqlite's learning mark holding the highest sequence seen per prefix. */
export const LEDGER_HIGH_MARK = 'ledger:high';
export const ID_ALLOCATE_ACTION = 'ledger.id_allocate';
export const TAG_REROLL_ACTION = 'ledger.device_tag';

export type LedgerJournalOp =
  | { kind: 'device'; tag: string; created: string }
  | { kind: 'allocate'; id: string; at: string; path: string | null };

export interface LedgerIdsDeps {
  blobs: BlobStore;
  device: DeviceIdentityStore;
  clock: Clock;
  logger: Logger;
  audit: AuditLog;
  marks: Pick<MemoryLearned, 'mark' | 'setMark'>;
  live: { readonly byPath: ReadonlyMap<string, LiveNote> };
  /** The devices folder (docs/devices.md), when on: each device mirrors its journal there, so the others count its IDs. */
  shared?: SyncFolderPort | null;
}

/** What another device's journal says of it. */
interface OtherDevice {
  fingerprint: string;
  tag: string | null;
  created: string | null;
}

interface Opened {
  device: DeviceIdentity;
  journal: Journal<LedgerJournalOp>;
  /** Lines in this device's journal so far (the journal's own sequence). */
  lines: number;
  /** IDs this device allocated (its journal, and its audit entries). */
  mine: Set<string>;
  /** Highest sequence per prefix from the journals, memory.sqlite and the audit trail (not the notes: read live). */
  high: Map<string, number>;
}

export class LedgerIds {
  private opened: Promise<Opened> | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: LedgerIdsDeps) {}

  /** The full ID of a live note (its frontmatter `ledger_id` when well-formed), else null. */
  static idOf(note: LiveNote): string | null {
    const id = note.cached.ledgerId ?? null;
    const p = id === null ? null : parseLedgerId(id);
    return p && p.tag !== null ? id : null;
  }

  /**
   * A new ID for an entry of `kind`, journaled durably and audited before it is returned. One at a time:
   * two calls never see the same high-water mark.
   */
  allocate(kind: LedgerKind, path: string | null, actor: AuditActor): Promise<string> {
    const run = this.chain.then(() => this.allocateNow(kind, path, actor));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Raises memory.sqlite's high-water marks to the IDs these notes hold (the index saw them). */
  async observe(notes: Iterable<LiveNote>): Promise<void> {
    const stored = storedHigh(this.d.marks.mark(LEDGER_HIGH_MARK));
    let raised = false;
    for (const n of notes) {
      const p = n.cached.ledgerId ? parseLedgerId(n.cached.ledgerId) : null;
      if (p && p.seq > (stored[p.prefix] ?? 0)) {
        stored[p.prefix] = p.seq;
        raised = true;
      }
    }
    if (raised) await this.d.marks.setMark(LEDGER_HIGH_MARK, stored);
  }

  /** This device's tag now (opens the device record and journals when not yet done). */
  async deviceTag(): Promise<string> {
    return (await this.open()).device.tag;
  }

  private async allocateNow(kind: LedgerKind, path: string | null, actor: AuditActor): Promise<string> {
    const o = await this.open();
    const others = await this.readOtherJournals(o);
    await this.keepTagUnique(o, others);
    const prefix = LEDGER_PREFIX[kind];
    const seq = this.highest(o, prefix) + 1;
    const id = formatLedgerId(prefix, seq, o.device.tag);
    const at = new Date(this.d.clock.now()).toISOString();
    // Durable before anyone sees it: a crash after this line leaves a gap, never a second E007.
    await o.journal.append(++o.lines, { kind: 'allocate', id, at, path });
    await this.mirror(o, [{ seq: o.lines, op: { kind: 'allocate', id, at, path } }]);
    o.mine.add(id);
    o.high.set(prefix, seq);
    const stored = storedHigh(this.d.marks.mark(LEDGER_HIGH_MARK));
    if (seq > (stored[prefix] ?? 0)) await this.d.marks.setMark(LEDGER_HIGH_MARK, { ...stored, [prefix]: seq });
    await this.d.audit.append({ action: ID_ALLOCATE_ACTION, actor, target: id, data: { id, kind, seq, tag: o.device.tag, device: o.device.fingerprint, path } });
    return id;
  }

  /** The highest sequence of `prefix` any record shows. */
  private highest(o: Opened, prefix: string): number {
    let max = o.high.get(prefix) ?? 0;
    const stored = storedHigh(this.d.marks.mark(LEDGER_HIGH_MARK))[prefix] ?? 0;
    if (stored > max) max = stored;
    for (const n of this.d.live.byPath.values()) {
      const id = n.cached.ledgerId;
      if (!id || id[0] !== prefix) continue;
      const p = parseLedgerId(id);
      if (p && p.seq > max) max = p.seq;
    }
    return max;
  }

  private open(): Promise<Opened> {
    if (!this.opened) {
      const opening = this.openNow();
      this.opened = opening;
      opening.catch(() => {
        if (this.opened === opening) this.opened = null; // the next allocation tries again (a store briefly unreadable)
      });
    }
    return this.opened;
  }

  private async openNow(): Promise<Opened> {
    const device = await DeviceIdentity.load(this.d.device, this.d.clock, this.d.logger);
    const name = journalName(device.fingerprint);
    const parsed = parseJournal<LedgerJournalOp>(await this.d.blobs.read(name));
    const journal = new Journal<LedgerJournalOp>(this.d.blobs, name, this.d.logger, parsed.entries);
    // A torn last line (a crash mid-append) or damage: rewrite the file so new lines never follow a partial one.
    if (parsed.torn || parsed.badLines > 0) await journal.rewrite();
    const o: Opened = { device, journal, lines: parsed.entries.reduce((m, e) => Math.max(m, e.seq), 0), mine: new Set(), high: new Map() };
    let headed = false;
    for (const e of parsed.entries) {
      if (e.op.kind === 'allocate') {
        o.mine.add(e.op.id);
        raise(o.high, e.op.id);
      } else if (e.op.kind === 'device' && e.op.tag === device.tag) headed = true;
    }
    // The journal's header says which tag this device uses, so other devices can tell who is newer.
    const entries = [...parsed.entries];
    if (!headed) {
      const header: LedgerJournalOp = { kind: 'device', tag: device.tag, created: device.created };
      await journal.append(++o.lines, header);
      entries.push({ seq: o.lines, op: header });
    }
    await this.mirrorAll(o, entries);
    for (const e of await this.auditedAllocations()) {
      raise(o.high, e.id);
      if (e.device === device.fingerprint) o.mine.add(e.id);
    }
    return o;
  }

  /**
   * Appends to this device's mirror in the devices folder. A failure is logged, not thrown: the journal in
   * `.lithos/` is the record; the mirror is written again whole at the next open.
   */
  private async mirror(o: Opened, lines: { seq: number; op: LedgerJournalOp }[]): Promise<void> {
    if (!this.d.shared || lines.length === 0) return;
    const text = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
    await this.d.shared.append(ledgerMirrorPath(o.device.fingerprint), new TextEncoder().encode(text)).catch((err: unknown) => {
      this.d.logger.warn('The ledger\'s allocation could not be copied to the devices folder; it is copied at the next open.', { error: String(err) });
    });
  }

  /** Makes the mirror hold the whole journal when it lacks lines (first use of the devices folder, a lost file). */
  private async mirrorAll(o: Opened, all: readonly { seq: number; op: LedgerJournalOp }[]): Promise<void> {
    if (!this.d.shared) return;
    const path = ledgerMirrorPath(o.device.fingerprint);
    const have = parseJournal<LedgerJournalOp>(await this.d.shared.read(path).catch(() => null)).entries.length;
    if (have >= all.length) return;
    const text = all.map((e) => `${JSON.stringify(e)}\n`).join('');
    await this.d.shared.writeAtomic(path, new TextEncoder().encode(text)).catch((err: unknown) => {
      this.d.logger.warn('The ledger\'s allocations could not be copied to the devices folder.', { error: String(err) });
    });
  }

  /** The other devices' journals: in `.lithos/ledger/` (a synced `.lithos/`) and mirrored in the devices folder. */
  private async otherJournals(own: string): Promise<{ fingerprint: string; bytes: Uint8Array | null }[]> {
    const out = new Map<string, Uint8Array | null>();
    for (const name of await this.d.blobs.list(LEDGER_JOURNAL_DIR)) {
      if (name === journalName(own) || !name.endsWith('.jsonl')) continue;
      out.set(name.slice(LEDGER_JOURNAL_DIR.length, -'.jsonl'.length), await this.d.blobs.read(name));
    }
    if (this.d.shared) {
      const files = await this.d.shared.list().catch(() => []);
      for (const f of files) {
        const c = classify(f.path);
        if (!c || c.device === own || f.path !== ledgerMirrorPath(c.device)) continue;
        const bytes = await this.d.shared.read(f.path).catch(() => null);
        const prev = out.get(c.device);
        // Both copies may exist (a synced .lithos/ too): the longer holds every allocation of the shorter.
        if (!prev || (bytes && bytes.byteLength > prev.byteLength)) out.set(c.device, bytes);
      }
    }
    return [...out].map(([fingerprint, bytes]) => ({ fingerprint, bytes }));
  }

  /** Every other device's journal: its allocations raise the marks; its header names its tag and age. */
  private async readOtherJournals(o: Opened): Promise<OtherDevice[]> {
    const out: OtherDevice[] = [];
    for (const j of await this.otherJournals(o.device.fingerprint)) {
      const other: OtherDevice = { fingerprint: j.fingerprint, tag: null, created: null };
      for (const e of parseJournal<LedgerJournalOp>(j.bytes).entries) {
        if (e.op.kind === 'allocate' && typeof e.op.id === 'string') raise(o.high, e.op.id);
        else if (e.op.kind === 'device' && typeof e.op.tag === 'string') {
          other.tag = e.op.tag;
          other.created = typeof e.op.created === 'string' ? e.op.created : null;
        }
      }
      out.push(other);
    }
    return out;
  }

  /**
   * Two devices with one tag could allocate the same ID at once: the newer one takes a new tag. Seen from
   * another device's journal header (the older keeps it; a tie goes to the smaller fingerprint), or from an
   * ID in the vault with this tag that this device never allocated (whose device is unknown: this one moves).
   */
  private async keepTagUnique(o: Opened, others: readonly OtherDevice[]): Promise<void> {
    const tag = o.device.tag;
    const mine = { created: o.device.created, fingerprint: o.device.fingerprint };
    let clash = others.some((x) => x.tag === tag && (x.created === null || older({ created: x.created, fingerprint: x.fingerprint }, mine)));
    const taken = new Set<string>(others.flatMap((x) => (x.tag ? [x.tag] : [])));
    for (const n of this.d.live.byPath.values()) {
      const p = n.cached.ledgerId ? parseLedgerId(n.cached.ledgerId) : null;
      if (!p || p.tag === null) continue;
      taken.add(p.tag);
      if (p.tag === tag && !o.mine.has(n.cached.ledgerId!) && !others.some((x) => x.tag === tag && !older({ created: x.created ?? '', fingerprint: x.fingerprint }, mine))) clash = true;
    }
    if (!clash) return;
    const next = await o.device.reroll(taken);
    await o.journal.append(++o.lines, { kind: 'device', tag: next, created: o.device.created });
    await this.mirror(o, [{ seq: o.lines, op: { kind: 'device', tag: next, created: o.device.created } }]);
    await this.d.audit.append({ action: TAG_REROLL_ACTION, actor: { kind: 'system', id: null }, target: o.device.fingerprint, data: { from: tag, to: next } });
    this.d.logger.info(`Another device in this vault used ledger tag "${tag}"; this device now tags its IDs "${next}".`);
  }

  /** `ledger.id_allocate` entries of the audit trail, read without parsing the lines that are not. */
  private async auditedAllocations(): Promise<{ id: string; device: string | null }[]> {
    const bytes = await this.d.blobs.read(AUDIT_FILE);
    if (!bytes) return [];
    const out: { id: string; device: string | null }[] = [];
    const needle = `"action":"${ID_ALLOCATE_ACTION}"`;
    for (const line of new TextDecoder().decode(bytes).split('\n')) {
      if (!line.includes(needle)) continue;
      try {
        const e = JSON.parse(line) as { data?: { id?: unknown; device?: unknown } };
        if (typeof e.data?.id === 'string') out.push({ id: e.data.id, device: typeof e.data.device === 'string' ? e.data.device : null });
      } catch {
        // a torn line: audit verify reports it
      }
    }
    return out;
  }
}

export function journalName(fingerprint: string): string {
  return `${LEDGER_JOURNAL_DIR}${fingerprint}.jsonl`;
}

/** Whether device `a` came to the vault before `b` (a tie: the smaller fingerprint). */
function older(a: { created: string; fingerprint: string }, b: { created: string; fingerprint: string }): boolean {
  const ta = Date.parse(a.created);
  const tb = Date.parse(b.created);
  if (Number.isFinite(ta) && Number.isFinite(tb) && ta !== tb) return ta < tb;
  return a.fingerprint < b.fingerprint;
}

function raise(high: Map<string, number>, id: string): void {
  const p = parseLedgerId(id);
  if (p && p.seq > (high.get(p.prefix) ?? 0)) high.set(p.prefix, p.seq);
}

function storedHigh(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, n] of Object.entries(v as Record<string, unknown>)) if (typeof n === 'number' && Number.isSafeInteger(n)) out[k] = n;
  }
  return out;
}
