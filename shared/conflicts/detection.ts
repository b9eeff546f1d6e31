/**
 * Rule detection, part 3: which notes one note is compared with, and what the rules find between them
 * (claims.ts reads the claims, rules.ts compares two notes' claims). Opening the conflicts is the
 * service's (conflicts.ts).
 */
import type { ConflictPorts } from './conflict-ports';
import type { LiveNote } from '../vault/note-indexer';
import { noteClaims, type Claim } from './claims';
import { compareClaims } from './rules';
import type { RuleFinding } from '../stores/conflict-edges';
import { DETECTION_LIMITS } from './constants';

type DetectionPorts = Pick<ConflictPorts, 'notes' | 'search'>;

/** The findings between `note` and each candidate that disagrees with it; `skip` leaves out pairs already settled. */
export async function ruleFindings(d: DetectionPorts, note: LiveNote, skip: (otherId: string) => boolean): Promise<{ other: LiveNote; findings: RuleFinding[] }[]> {
  const claims = noteClaims((await d.notes.parse(note.path)).body, DETECTION_LIMITS.sentences);
  if (claims.length === 0) return [];
  const out: { other: LiveNote; findings: RuleFinding[] }[] = [];
  for (const other of await candidates(d, note, [...new Set(claims.map(lookupPhrase))])) {
    if (skip(other.nodeId)) continue;
    const theirs = noteClaims((await d.notes.parse(other.path)).body, DETECTION_LIMITS.sentences);
    const findings = compareClaims(claims, theirs, DETECTION_LIMITS.findings);
    if (findings.length > 0) out.push({ other, findings });
  }
  return out;
}

/** What to search the vault for: a claim's subject; a causal claim's subject key is shared by all of them, so what it is about. */
function lookupPhrase(c: Claim): string {
  return c.kind === 'cause' ? c.about.slice(0, 4).join(' ') : c.subject;
}

/**
 * Notes worth comparing, bounded: direct links either way, notes sharing a frontmatter entity (most
 * shared first), lexical neighbours on the claims' subjects, then notes linking to the same targets.
 */
async function candidates(d: DetectionPorts, note: LiveNote, subjects: readonly string[]): Promise<LiveNote[]> {
  const out = new Map<string, LiveNote>();
  const add = (n: LiveNote | null): void => {
    if (n && n.nodeId !== note.nodeId && out.size < DETECTION_LIMITS.candidates) out.set(n.nodeId, n);
  };
  const targets = [...new Set(d.notes.links(note.path).flatMap((l) => (l.targetPath ? [l.targetPath] : [])))];
  for (const t of targets) add(d.notes.note(t));
  for (const p of d.notes.backlinks(note.path)) add(d.notes.note(p));
  const mine = new Set(note.cached.meta.entities.map((e) => e.toLowerCase()));
  if (mine.size > 0) {
    const sharing: [LiveNote, number][] = [];
    for (const n of d.notes.notes()) {
      if (n.nodeId === note.nodeId) continue;
      let k = 0;
      for (const e of n.cached.meta.entities) if (mine.has(e.toLowerCase())) k++;
      if (k > 0) sharing.push([n, k]);
    }
    sharing.sort((x, y) => y[1] - x[1] || (x[0].path < y[0].path ? -1 : 1));
    for (const [n] of sharing) add(n);
  }
  if (subjects.length > 0 && out.size < DETECTION_LIMITS.candidates) {
    const hits = await d.search.search(subjects.slice(0, 10).join(' '), { mode: 'lexical', k: DETECTION_LIMITS.lexical + 1 });
    for (const h of hits) add(d.notes.note(h.id));
  }
  for (const t of targets) {
    if (out.size >= DETECTION_LIMITS.candidates) break;
    for (const p of d.notes.backlinks(t)) add(d.notes.note(p));
  }
  return [...out.values()];
}
