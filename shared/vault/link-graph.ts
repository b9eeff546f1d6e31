import type { LinkResolver } from '../model/resolve';
import type { NoteLink } from '../model/types';
import type { LiveNote } from './note-indexer';
import { Backlinks } from './backlinks';
import { ledgerRefOfTarget } from '../model/ledger-id';

export interface ResolvedLink {
  link: NoteLink;
  /** Target note path, or null for a broken link (kept, as Obsidian keeps unresolved links). */
  targetPath: string | null;
}

/**
 * Wiki-link graph derived from the notes' parsed links. Links are resolved on demand rather than stored,
 * because a link's target can appear, move or vanish after the linking note was indexed.
 */
export class LinkGraph {
  private readonly backlinks: Backlinks;

  constructor(
    private readonly notes: ReadonlyMap<string, LiveNote>,
    private readonly resolver: LinkResolver,
  ) {
    this.backlinks = new Backlinks(notes, resolver);
  }

  /** Resolves every note's links for the backlinks now, `slice` notes between yields (at open, not at the first read). */
  build(yieldFn: () => Promise<void>, slice?: number): Promise<void> {
    return this.backlinks.build(yieldFn, slice);
  }

  outgoing(path: string): ResolvedLink[] {
    const note = this.notes.get(path);
    if (!note) return [];
    return note.cached.links.map((link) => ({
      link,
      targetPath: link.target === '' ? path : this.resolver.resolve(link.target, path),
    }));
  }

  incoming(path: string): string[] {
    return this.backlinks.of(path);
  }

  broken(): { from: string; target: string; raw: string }[] {
    const out: { from: string; target: string; raw: string }[] = [];
    for (const from of [...this.notes.keys()].sort()) {
      for (const r of this.outgoing(from)) {
        // Embeds of attachments (images, PDFs) are not notes: only Markdown targets can be broken here.
        // ID references are doctor's `ledger_ids` (with their line, and the candidates of a short form).
        if (r.targetPath === null && r.link.kind !== 'ledger' && ledgerRefOfTarget(r.link.target) === null && (!r.link.embed || !/\.[a-z0-9]+$/i.test(r.link.target) || /\.md$/i.test(r.link.target))) {
          out.push({ from, target: r.link.target, raw: r.link.raw });
        }
      }
    }
    return out;
  }
}
