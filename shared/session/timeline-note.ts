/**
 * The person's timeline note (docs/ledger.md → Timeline): at learning.json's `timeline.path` (`Lithos/Timeline.md`
 * by default), kept like every page the engine writes for the person (digest-note.ts). Agents call lithos_timeline
 * instead. A vault with nothing on its timeline gets no note.
 */
import type { AuditActor } from '../governance/audit';
import { TIMELINE_TAG, renderTimeline } from '../ledger/timeline';
import { DigestNote, type DigestNoteDeps } from './digest-note';

/** Who writes the timeline note, in the audit trail. */
export const TIMELINE_RULE: AuditActor = { kind: 'rule', id: 'timeline' };

export type TimelineNote = DigestNote;

export function timelineNote(d: DigestNoteDeps): TimelineNote {
  return new DigestNote(d, {
    name: 'timeline',
    rule: TIMELINE_RULE,
    tag: TIMELINE_TAG,
    async render(session, services) {
      const events = await session.timeline.events();
      return { text: renderTimeline({ now: services.clock.now(), events }), empty: events.length === 0 };
    },
  });
}
