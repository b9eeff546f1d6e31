import type { DeviceIdentityStore } from '../../shared/ports';

/** In-memory twin of DeviceIdentityStore: one device's record, kept across engine opens for as long as the test holds it. */
export class MemoryDeviceStore implements DeviceIdentityStore {
  text: string | null = null;
  writes = 0;

  async read(): Promise<string | null> {
    return this.text;
  }

  async write(text: string): Promise<void> {
    this.writes++;
    this.text = text;
  }

  /** The record's fields (id, tag, created), or null before the first open. */
  record(): { id: string; tag: string; created: string } | null {
    return this.text === null ? null : (JSON.parse(this.text) as { id: string; tag: string; created: string });
  }
}
