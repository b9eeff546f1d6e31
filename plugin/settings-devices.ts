import { Setting } from 'obsidian';
import { LEARNING_FILE } from '../shared/learning/learning-store';
import type { EngineControls } from './engine-controls';
import { deviceDesc, deviceLabel } from './devices-status';

/**
 * Settings → Learning → Devices: the devices folder this vault's learning travels through (docs/devices.md)
 * and every device that wrote to it, with what it contributed and when its learning was last merged here.
 * Names and counts only, set as text (a device's name comes from another device's file).
 */
export function devicesSection(el: HTMLElement, controls: Pick<EngineControls, 'devices'> | null, now: number = Date.now()): void {
  const heading = new Setting(el).setName('Devices').setHeading();
  if (!controls) {
    heading.setDesc('Open the memory first: the devices that share this vault’s learning are listed then.');
    return;
  }
  const report = controls.devices.report();
  if (report.folder === null) {
    heading.setDesc(`Learning stays on each device: devices.folder in .lithos/${LEARNING_FILE} is off (null).`);
    return;
  }
  heading.setDesc(
    `Each device writes what it learned into ${report.folder} and merges what the others wrote (devices.folder in .lithos/${LEARNING_FILE}; ` +
      'a change applies when the memory next opens). Obsidian Sync carries the folder only with “Sync all other types” on.',
  );
  for (const d of report.devices) {
    new Setting(el).setName(d.this_device ? `${deviceLabel(d)} (this device)` : deviceLabel(d)).setDesc(deviceDesc(d, now));
  }
  if (report.unpublished > 0) new Setting(el).setName('Not yet shared').setDesc(`${report.unpublished} learned ${report.unpublished === 1 ? 'row' : 'rows'} changed here go out with the next exchange.`);
}
