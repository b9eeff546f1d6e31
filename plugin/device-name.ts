import type * as Os from 'node:os';

/** The parts of Obsidian's Platform that name a device. */
export interface PlatformFlags {
  isIosApp?: boolean;
  isAndroidApp?: boolean;
  isTablet?: boolean;
  isMacOS?: boolean;
  isWin?: boolean;
  isLinux?: boolean;
}

/**
 * How this device is named to the others: "Obsidian on <computer>" on desktop (the name the person gave
 * it), else the kind of device. Nothing else about the person goes into the shared folder.
 */
export function obsidianDeviceName(p: PlatformFlags, hostname: string | null): string {
  const host = hostname?.trim().replace(/\.local$/i, '') ?? '';
  if (host && !p.isIosApp && !p.isAndroidApp) return `Obsidian on ${host}`;
  if (p.isIosApp) return `Obsidian on ${p.isTablet ? 'iPad' : 'iPhone'}`;
  if (p.isAndroidApp) return `Obsidian on Android ${p.isTablet ? 'tablet' : 'phone'}`;
  if (p.isMacOS) return 'Obsidian on macOS';
  if (p.isWin) return 'Obsidian on Windows';
  if (p.isLinux) return 'Obsidian on Linux';
  return 'Obsidian';
}

/** This computer's name on desktop (Electron offers Node's os module); null on mobile or when it cannot be read. */
export function desktopHostname(desktop: boolean): string | null {
  if (!desktop) return null;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- Electron's renderer hands Node modules to the plugin this way
    return (require('node:os') as typeof Os).hostname();
  } catch {
    return null;
  }
}
