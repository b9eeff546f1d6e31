import { parseDocument, isMap } from 'yaml';
import type { VaultEvent, VaultFileStat, VaultPort } from '../../shared/ports';
import { isHiddenPath, isMarkdownPath, normalizeVaultPath } from '../../shared/model/paths';
import { LithosError } from '../../shared/errors';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** In-memory twin of VaultPort. Events are delivered synchronously to watchers. */
export class MemoryVault implements VaultPort {
  private files = new Map<string, { bytes: Uint8Array; mtime: number }>();
  private listeners = new Set<(e: VaultEvent) => void>();
  available = true;
  /**
   * Says whether the disk ignores case (VaultPort.caseInsensitive); storage stays case-sensitive, so a spec
   * setting it checks that the engine treats a case variant as the note already there.
   */
  caseInsensitive = false;
  private tick = 1_700_000_000_000;

  constructor(initial: Record<string, string | Uint8Array> = {}) {
    for (const [p, c] of Object.entries(initial)) this.put(p, c, false);
  }

  /** Test helper: set content without going through the port (and optionally emit an event). */
  put(path: string, content: string | Uint8Array, emit = true): void {
    const p = normalizeVaultPath(path);
    const existed = this.files.has(p);
    this.files.set(p, { bytes: typeof content === 'string' ? enc.encode(content) : content, mtime: this.nextMtime() });
    if (emit) this.emit({ kind: existed ? 'modify' : 'create', path: p });
  }

  text(path: string): string | undefined {
    const f = this.files.get(path);
    return f ? dec.decode(f.bytes) : undefined;
  }

  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  private nextMtime(): number {
    this.tick += 1000;
    return this.tick;
  }

  private emit(e: VaultEvent): void {
    for (const l of this.listeners) l(e);
  }

  private check(): void {
    if (!this.available) throw new LithosError('vault_unavailable', 'The vault folder is not available.');
  }

  async listMarkdown(): Promise<VaultFileStat[]> {
    this.check();
    return [...this.files.entries()]
      .filter(([p]) => isMarkdownPath(p) && !isHiddenPath(p))
      .map(([path, f]) => ({ path, mtime: f.mtime, size: f.bytes.byteLength }));
  }

  async stat(path: string): Promise<VaultFileStat | null> {
    this.check();
    const f = this.files.get(normalizeVaultPath(path));
    return f ? { path: normalizeVaultPath(path), mtime: f.mtime, size: f.bytes.byteLength } : null;
  }

  async readBytes(path: string): Promise<Uint8Array> {
    this.check();
    const f = this.files.get(normalizeVaultPath(path));
    if (!f) throw new LithosError('not_found', `No note at "${path}".`, { path });
    return f.bytes;
  }

  async write(path: string, content: string): Promise<void> {
    this.check();
    this.put(path, content, true);
  }

  async rename(from: string, to: string): Promise<void> {
    this.check();
    const a = normalizeVaultPath(from);
    const b = normalizeVaultPath(to);
    const f = this.files.get(a);
    if (!f) throw new LithosError('not_found', `No note at "${from}".`, { path: from });
    if (this.files.has(b)) throw new LithosError('conflict', `A note already exists at "${to}".`, { path: to });
    this.files.delete(a);
    this.files.set(b, f);
    this.emit({ kind: 'rename', path: b, oldPath: a });
  }

  async delete(path: string): Promise<void> {
    this.check();
    const p = normalizeVaultPath(path);
    if (!this.files.delete(p)) throw new LithosError('not_found', `No note at "${path}".`, { path });
    this.emit({ kind: 'delete', path: p });
  }

  async processFrontMatter(path: string, fn: (fm: Record<string, unknown>) => void): Promise<void> {
    const text = dec.decode(await this.readBytes(path));
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
    const doc = parseDocument(m ? m[1] : '');
    if (doc.errors.length) throw new LithosError('invalid_argument', `Frontmatter of "${path}" is not valid YAML.`);
    const data = (isMap(doc.contents) ? doc.toJSON() : {}) as Record<string, unknown>;
    fn(data);
    const { stringify } = await import('yaml');
    const body = m ? text.slice(m[0].length) : text;
    this.put(path, `---\n${stringify(data)}---\n${body}`, true);
  }

  watch(listener: (event: VaultEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async isAvailable(): Promise<boolean> {
    return this.available;
  }
}
