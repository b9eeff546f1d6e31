import type { DevicesReport } from '../replica/device-sync';
import type { SyncReport } from '../replica/replicator';
import type { Services } from './services';

/**
 * The devices that share this vault's learning (docs/devices.md), as `lithos devices` and the plugin's status
 * show them. It names devices and counts rows; it shows no note, so every viewer gets the same report.
 */
export class DevicesRoom {
  constructor(private readonly services: Services) {}

  report(): DevicesReport {
    return this.services.devices.report();
  }

  /** A round now: publish this device's learning and take in the others'; null when the exchange is off. */
  sync(): Promise<SyncReport | null> {
    return this.services.devices.sync();
  }
}
