/**
 * What `lithos doctor` says about ledger IDs (docs/ledger.md#stable-ids): IDs that are malformed, of another
 * kind's prefix, missing, or held by two notes; and every ID reference (`E999`, `[[E999]]`, a property value)
 * that names no note, or a short form that names several. Nothing here changes a note: each entry says how
 * to fix it.
 */
import { LEDGER_PREFIX, isLedgerKind } from '../model/ledger';
import { ledgerRefOfTarget, parseLedgerId } from '../model/ledger-id';
import type { ResolvedLink } from './link-graph';
import type { LiveNote } from './note-indexer';
import type { VaultPort } from '../ports';
import { splitFrontmatter } from '../model/frontmatter';

export type LedgerIdProblemCode = 'malformed_ledger_id' | 'ledger_prefix_mismatch' | 'missing_ledger_id' | 'duplicate_ledger_id' | 'unresolved_ledger_ref' | 'ambiguous_ledger_ref';

export interface LedgerIdProblem {
  code: LedgerIdProblemCode;
  path: string;
  /** 1-based line in the file, for a reference in the body. */
  line?: number;
  /** The frontmatter property holding the reference or the ID. */
  field?: string;
  /** The reference or ID concerned. */
  ref?: string;
  /** For a duplicate or an ambiguous reference: the notes (path and ID) it could mean. */
  candidates?: { path: string; ledger_id: string }[];
  message: string;
}

export interface LedgerReportSources {
  notes: readonly LiveNote[];
  links(path: string): ResolvedLink[];
  /** The notes a ledger reference names (NotesService.byLedgerId). */
  byLedgerId(ref: string): LiveNote[];
  /** Lines before the body in the file (the frontmatter block), to turn a body line into a file line. */
  bodyOffset(path: string): Promise<number>;
}

/** Lines before the body of the note at `path` as it is on disk (0 when it cannot be read). */
export function bodyOffsetReader(vault: VaultPort): (path: string) => Promise<number> {
  return async (path) => {
    try {
      return splitFrontmatter(new TextDecoder().decode(await vault.readBytes(path))).bodyStartLine;
    } catch {
      return 0;
    }
  };
}

export async function ledgerIdProblems(s: LedgerReportSources): Promise<LedgerIdProblem[]> {
  const out: LedgerIdProblem[] = [];
  const holders = new Map<string, LiveNote[]>();
  for (const n of [...s.notes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const raw = n.cached.ledgerId ?? null;
    const type = n.cached.meta.note_type;
    if (raw !== null) {
      const p = parseLedgerId(raw);
      if (!p || p.tag === null || raw !== raw.trim()) {
        out.push({ code: 'malformed_ledger_id', path: n.path, field: 'ledger_id', ref: raw, message: `ledger_id "${raw}" is not a full ledger ID (like E007-k3xq). Remove the ledger_id line and Lithos allocates one when it next indexes the note.` });
      } else {
        const list = holders.get(raw);
        if (list) list.push(n);
        else holders.set(raw, [n]);
        if (isLedgerKind(type) && LEDGER_PREFIX[type] !== p.prefix) {
          out.push({ code: 'ledger_prefix_mismatch', path: n.path, field: 'ledger_id', ref: raw, message: `${raw} is an ID of another kind (${p.kind}) but the note is a ${type}. Set note_type back to ${p.kind}, or record the ${type} as a new note that links to ${raw}.` });
        }
      }
    } else if (isLedgerKind(type)) {
      out.push({ code: 'missing_ledger_id', path: n.path, field: 'ledger_id', message: `This ${type} has no ledger_id yet; Lithos gives it one when it next indexes the vault with write access (Obsidian, lithos index, lithos mcp).` });
    }
  }
  for (const [id, list] of holders) {
    if (list.length < 2) continue;
    const candidates = list.map((n) => ({ path: n.path, ledger_id: id }));
    for (const n of list) {
      out.push({
        code: 'duplicate_ledger_id',
        path: n.path,
        field: 'ledger_id',
        ref: id,
        candidates,
        message: `${id} is the ledger_id of ${list.length} notes (${list.map((x) => x.path).join(', ')}), e.g. a copied file. Keep it on the original; remove ledger_id from the others and Lithos gives each its own.`,
      });
    }
  }
  for (const n of s.notes) {
    for (const r of s.links(n.path)) {
      if (r.targetPath !== null || ledgerRefOfTarget(r.link.target) === null) continue;
      const ref = r.link.target.trim();
      const named = s.byLedgerId(ref);
      const where = r.link.line >= 0 ? { line: (await s.bodyOffset(n.path)) + r.link.line + 1 } : r.link.property ? { field: r.link.property } : {};
      if (named.length > 1) {
        out.push({
          code: 'ambiguous_ledger_ref',
          path: n.path,
          ...where,
          ref,
          candidates: named.map((c) => ({ path: c.path, ledger_id: c.cached.ledgerId ?? '' })),
          message: `${ref} names ${named.length} entries (${named.map((c) => c.cached.ledgerId).join(', ')}): write the full ID you mean.`,
        });
      } else {
        out.push({ code: 'unresolved_ledger_ref', path: n.path, ...where, ref, message: `${ref} names no note in this vault: correct the ID, or remove the reference.` });
      }
    }
  }
  // By note, then line: what a person fixing them walks through.
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.line ?? 0) - (b.line ?? 0)));
}
