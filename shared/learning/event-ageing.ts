/**
 * The lifecycle of episodic events, run with decay on the learning pass (LearningService.decay: at open, then
 * every DECAY.interval_ms). An active event older than events.ttl_days is archived; an archived one is pruned
 * events.archive_days after it was archived. Kept forever: an event linked to a note the registry holds (the
 * evidence of a claim, the origin of a decision: any link to a live note, or to a deleted one whose tombstone is
 * still kept) and an event of a kind in events.immortal_kinds. The vault's learning.json sets the three.
 */
import { DAY_MS } from './constants';
import type { LearningPorts } from './learning-ports';

export interface EventAgeing {
  archived: number;
  pruned: number;
}

export async function ageEvents(d: Pick<LearningPorts, 'memory' | 'tunables' | 'audit'>, now: number): Promise<EventAgeing> {
  await d.tunables.refresh();
  const k = d.tunables.get().events;
  const events = d.memory.events;
  // Chosen before anything moves: an event archived by this run is not also pruned by it.
  const { archive, prune } = events.expired(now - k.ttl_days * DAY_MS, now - k.archive_days * DAY_MS, k.immortal_kinds);
  if (archive.length + prune.length === 0) return { archived: 0, pruned: 0 };
  await d.memory.batch(async () => {
    await events.setStatus(archive, 'archived', now);
    await events.delete(prune);
  });
  await d.audit.append({
    action: 'events.age',
    actor: { kind: 'system', id: null },
    target: null,
    data: { archived: archive.length, pruned: prune.length, ttl_days: k.ttl_days, archive_days: k.archive_days, immortal_kinds: [...k.immortal_kinds] },
  });
  return { archived: archive.length, pruned: prune.length };
}
