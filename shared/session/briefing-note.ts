/**
 * The person's briefing note (docs/ledger.md → Briefing): the briefing as the person reads it, at learning.json's
 * `briefing.path` (`Lithos/Briefing.md` by default), kept like every page the engine writes for the person
 * (digest-note.ts). Agents read their own briefing instead (lithos_briefing, lithos://briefing). A vault with nothing
 * to brief (no ledger entry, no open conflict) gets no note.
 */
import type { AuditActor } from '../governance/audit';
import { BRIEFING_TAG, renderBriefing } from '../ledger/briefing';
import { DIGEST_DEBOUNCE_MS, DigestNote, type DigestNoteDeps } from './digest-note';

/** Who writes the briefing note, in the audit trail. */
export const BRIEFING_RULE: AuditActor = { kind: 'rule', id: 'briefing' };
export const BRIEFING_DEBOUNCE_MS = DIGEST_DEBOUNCE_MS;

export type BriefingNote = DigestNote;

export function briefingNote(d: DigestNoteDeps): BriefingNote {
  return new DigestNote(d, {
    name: 'briefing',
    rule: BRIEFING_RULE,
    tag: BRIEFING_TAG,
    async render(session) {
      const input = await session.briefing.input();
      return { text: renderBriefing(input), empty: input.entries.length === 0 && input.conflicts.length === 0 };
    },
  });
}
