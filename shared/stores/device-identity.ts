/**
 * This device's identity for one vault (docs/ledger.md#stable-ids): chosen once, at random, and kept by the
 * host outside the vault (ports.ts DeviceIdentityStore), so a synced copy of the vault never hands two
 * devices the same one. The plugin and a headless process on one machine are two devices (they keep their
 * records apart), which is right: they may write the vault at different times.
 *
 * - `id`: 26 random base32 characters (130 bits), never shown in the vault; other per-device work keys on it.
 * - `fingerprint`: 16 base32 characters of SHA-256 over the id: names this device's files in `.lithos/`
 *   (e.g. its ledger journal) without revealing the id.
 * - `tag`: 4 base32 characters, derived from the id at first and written into every ledger ID this device
 *   allocates (`E007-k3xq`). Should another device in the vault's history show the same tag, the newer
 *   device takes a fresh random one (`reroll`); the old IDs keep theirs.
 */
import type { Clock, DeviceIdentityStore, Logger } from '../ports';
import { TAG_ALPHABET, TAG_LENGTH } from '../model/ledger-id';
import { LithosError } from '../errors';

export interface DeviceRecord {
  id: string;
  tag: string;
  /** When this device first opened the vault (ISO): the older of two devices with one tag keeps it. */
  created: string;
}

const ID_LENGTH = 26;
const ID_RE = new RegExp(`^[${TAG_ALPHABET}]{${ID_LENGTH}}$`);
const TAG_RE = new RegExp(`^[${TAG_ALPHABET}]{${TAG_LENGTH}}$`);

export class DeviceIdentity {
  private constructor(
    private readonly store: DeviceIdentityStore,
    private record: DeviceRecord,
    readonly fingerprint: string,
  ) {}

  /** The record the store holds, or a new one (saved at once) when it has none or cannot be read. */
  static async load(store: DeviceIdentityStore, clock: Clock, logger?: Logger): Promise<DeviceIdentity> {
    const text = await store.read();
    let record = text === null ? null : parseRecord(text);
    if (text !== null && record === null) logger?.warn('This device\'s identity record could not be read; it starts as a new device (its ledger IDs get a new tag).');
    if (record === null) {
      const id = randomBase32(ID_LENGTH);
      record = { id, tag: (await digestBase32(`lithos-device-tag:${id}`)).slice(0, TAG_LENGTH), created: new Date(clock.now()).toISOString() };
      await store.write(JSON.stringify(record));
    }
    return new DeviceIdentity(store, record, (await digestBase32(`lithos-device:${record.id}`)).slice(0, 16));
  }

  get id(): string {
    return this.record.id;
  }

  get tag(): string {
    return this.record.tag;
  }

  get created(): string {
    return this.record.created;
  }

  /** Takes a new random tag none of `taken` holds, and keeps it. */
  async reroll(taken: ReadonlySet<string>): Promise<string> {
    let tag = randomBase32(TAG_LENGTH);
    for (let i = 0; taken.has(tag) || tag === this.record.tag; i++) {
      if (i > 1000) throw new LithosError('internal', 'No free device tag was found for ledger IDs.'); // 2^20 tags: unreachable in a real vault
      tag = randomBase32(TAG_LENGTH);
    }
    const next = { ...this.record, tag };
    await this.store.write(JSON.stringify(next));
    this.record = next;
    return tag;
  }
}

function parseRecord(text: string): DeviceRecord | null {
  try {
    const v = JSON.parse(text) as Partial<DeviceRecord>;
    if (typeof v.id === 'string' && ID_RE.test(v.id) && typeof v.tag === 'string' && TAG_RE.test(v.tag) && typeof v.created === 'string' && Number.isFinite(Date.parse(v.created))) {
      return { id: v.id, tag: v.tag, created: v.created };
    }
  } catch {
    // not JSON: treated as no record
  }
  return null;
}

/** `n` characters of TAG_ALPHABET from the host's Web Crypto (uniform: 256 is a multiple of 32). */
export function randomBase32(n: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(n));
  let out = '';
  for (const b of bytes) out += TAG_ALPHABET[b & 31];
  return out;
}

async function digestBase32(text: string): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let out = '';
  for (const b of digest) out += TAG_ALPHABET[b & 31];
  return out;
}

/** A store that forgets at close: a host that keeps no record is a new device at every open (tests, tools). */
export function ephemeralDeviceStore(): DeviceIdentityStore {
  let text: string | null = null;
  return {
    read: async () => text,
    write: async (t) => {
      text = t;
    },
  };
}
