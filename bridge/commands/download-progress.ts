import type { DownloadProgress } from '../../shared/index/embedders/model-download';

/** `90.4 MB`, `650 B`: decimal units, as the hub shows sizes. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** One line of the terminal bar: `[#####·····]  42%  38.0 MB / 90.4 MB  onnx/model.onnx (4/4)`. */
export function barLine(p: DownloadProgress, width = 24): string {
  const where = `${p.file} (${Math.min(p.filesDone + 1, p.files)}/${p.files})`;
  if (p.total === null || p.total === 0) return `${sizeText(p.loaded)}  ${where}`;
  const frac = Math.min(1, p.loaded / p.total);
  const filled = Math.round(frac * width);
  const pct = String(Math.floor(frac * 100)).padStart(3);
  return `[${'#'.repeat(filled)}${'·'.repeat(width - filled)}] ${pct}%  ${sizeText(p.loaded)} / ${sizeText(p.total)}  ${where}`;
}

/**
 * Download progress on stderr (stdout carries the result): a bar redrawn in place on a terminal (at most every
 * 100 ms), one line per finished file otherwise (logs, CI), nothing when `enabled` is false (--json).
 */
export function downloadProgress(enabled: boolean, stream: NodeJS.WriteStream = process.stderr): ((p: DownloadProgress) => void) | undefined {
  if (!enabled) return undefined;
  if (stream.isTTY) {
    let last = 0;
    let shown = '';
    return (p) => {
      const done = p.filesDone === p.files;
      const now = Date.now();
      if (!done && now - last < 100) return;
      last = now;
      const line = barLine(p);
      // Pad over the previous line's tail: a shorter file name must not leave characters behind.
      stream.write(`\r${line.padEnd(shown.length)}${done ? '\n' : ''}`);
      shown = done ? '' : line;
    };
  }
  let filesDone = 0;
  return (p) => {
    // filesDone grows only as a file is placed (fetched, or already there), in the event naming that file.
    if (p.filesDone <= filesDone) return;
    filesDone = p.filesDone;
    stream.write(`${p.file}: ${sizeText(p.fileLoaded)} in place, ${p.filesDone}/${p.files} files, ${sizeText(p.loaded)}${p.total === null ? '' : ` of ${sizeText(p.total)}`}\n`);
  };
}
