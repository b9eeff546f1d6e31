import type { Logger } from '../shared/ports';

/**
 * The plugin's logger: warnings and errors go to the developer console (Obsidian's guidelines ask
 * plugins not to log routine activity there), debug and info are dropped.
 */
export function createConsoleLogger(prefix = '[Lithos]'): Logger {
  const withData = (message: string, data?: Record<string, unknown>): unknown[] =>
    data === undefined ? [prefix, message] : [prefix, message, data];
  return {
    debug() {},
    info() {},
    warn: (message, data) => console.warn(...withData(message, data)),
    error: (message, data) => console.error(...withData(message, data)),
  };
}
