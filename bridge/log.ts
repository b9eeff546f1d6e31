import type { LithosError } from '../shared/errors';
import type { Logger } from '../shared/ports';

/** Logs go to stderr only: stdout carries results (and, for `lithos mcp`, the protocol). */
export function stderrLogger(verbose = false): Logger {
  const line = (level: string, message: string, data?: Record<string, unknown>) =>
    process.stderr.write(`[lithos] ${level}: ${message}${data && Object.keys(data).length ? ' ' + JSON.stringify(data) : ''}\n`);
  return {
    debug: (m, d) => verbose && line('debug', m, d),
    info: (m, d) => verbose && line('info', m, d),
    warn: (m, d) => line('warning', m, d),
    error: (m, d) => line('error', m, d),
  };
}

/** How every `lithos` command reports a failure: one line on stderr, with the error's code unless it is `internal`. */
export function writeFailure(e: LithosError): void {
  process.stderr.write(`lithos: ${e.message}${e.code !== 'internal' ? ` [${e.code}]` : ''}\n`);
}
