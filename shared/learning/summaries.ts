/**
 * Summary refresh: `summaries.short/long` of the notes whose type the engine may edit on its own
 * (`auto_edit` in model/note-types.ts: summary and concept notes), recomputed only when their material
 * changed. Material = the notes a concept gathers (`is_example_of` sources) or a summary note
 * links to (wiki-links out), limited to notes at least as visible as the note itself (shared/project, or
 * the note's own namespace and scope), so a summary never carries a private note's text.
 *
 * The material's digest (member ids and content hashes) is kept in frontmatter `summary_source_hash`:
 * same digest → no write. Summaries a person wrote (present without that field) are never overwritten.
 */
import type { LearningPorts } from './learning-ports';
import type { AuditActor } from '../governance/audit';
import { contentHash } from '../model/hash';
import type { LiveNote } from '../vault/note-indexer';
import { conceptMembers } from './concepts';
import { noteTypeRow } from '../model/note-types';
import type { Summarizer } from './summarizer';

export const SUMMARY_HASH_FIELD = 'summary_source_hash';
export const SUMMARY_RULE: AuditActor = { kind: 'rule', id: 'summaries' };

function materialOf(d: Pick<LearningPorts, 'notes' | 'memory' | 'governance'>, note: LiveNote): LiveNote[] {
  const m = note.cached.meta;
  const ids = m.note_type === 'concept' ? conceptMembers(d, note.nodeId) : d.notes.links(note.path).flatMap((l) => (l.targetPath ? [d.notes.note(l.targetPath)?.nodeId ?? ''] : []));
  const out = new Map<string, LiveNote>();
  for (const id of ids) {
    const n = id ? d.notes.note(id) : null;
    if (!n || n.nodeId === note.nodeId) continue;
    // The summary is text in this note: only material every agent reading it may read (governance/audience.ts).
    if (d.governance.readersMaySee(note, n)) out.set(n.nodeId, n);
  }
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Refreshes what changed; returns the ids of the notes whose summaries were rewritten. */
export async function refreshSummaries(d: Pick<LearningPorts, 'notes' | 'memory' | 'governance' | 'audit'>, summarizer: Summarizer): Promise<string[]> {
  const refreshed: string[] = [];
  for (const note of d.notes.notes()) {
    // Only where the note type lets the engine edit on its own (auto_edit: summaries and concepts); evidence is its author's.
    if (!noteTypeRow(note.cached.meta.note_type).auto_edit) continue;
    const material = materialOf(d, note);
    if (material.length === 0) continue;
    const digest = contentHash(material.map((n) => `${n.nodeId}:${n.contentHash}`).join('\n'));
    const parsed = await d.notes.parse(note.path);
    const stored = parsed.frontmatter[SUMMARY_HASH_FIELD];
    const hasSummaries = !!(parsed.meta.summaries.short || parsed.meta.summaries.long);
    if (stored === digest || (stored === undefined && hasSummaries)) continue;
    const texts = [];
    for (const n of material) texts.push({ title: n.cached.meta.title, body: (await d.notes.parse(n.path)).body });
    const s = await summarizer.summarize({ title: note.cached.meta.title, texts });
    await d.notes.updateFrontmatter(note.path, (fm) => {
      fm.summaries = { short: s.short, long: s.long };
      fm[SUMMARY_HASH_FIELD] = digest;
    });
    refreshed.push(note.nodeId);
    await d.audit.append({ action: 'summary.refresh', actor: SUMMARY_RULE, target: note.nodeId, data: { path: note.path, members: material.length, digest } });
  }
  return refreshed;
}
