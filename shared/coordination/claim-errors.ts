import { LithosError } from '../errors';
import type { ClaimRow } from './coordination-types';

/** The errors an agent meets around claims, worded so it knows what to do next. */

const iso = (ms: number): string => new Date(ms).toISOString();

/** The aspect is held by another agent: who, until when, and how long that is from now. */
export function claimConflict(held: ClaimRow, now: number): LithosError {
  const minutes = Math.ceil((held.expires_at - now) / 60_000);
  return new LithosError(
    'conflict',
    `Aspect "${held.aspect}" of task ${held.task_id} is held by agent "${held.agent_id}" until ${iso(held.expires_at)} ` +
      `(${minutes} min from now). Pick another aspect, or claim it after it is released or expires.`,
    {
      task_id: held.task_id,
      aspect: held.aspect,
      held_by: held.agent_id,
      expires_at: iso(held.expires_at),
      remaining_seconds: Math.ceil((held.expires_at - now) / 1000),
    },
  );
}

/** Renew or release by an agent that holds no live claim on the aspect (never claimed, released or expired). */
export function noLiveClaim(taskId: string, aspect: string, agent: string, row: ClaimRow | null): LithosError {
  const expired = row !== null && row.agent_id === agent;
  const why = expired ? `its claim expired at ${iso(row.expires_at)}` : 'it holds no claim on it';
  return new LithosError('not_found', `Agent "${agent}" does not hold aspect "${aspect}" of task ${taskId}: ${why}. Claim it again with lithos_task_claim.`, {
    task_id: taskId,
    aspect,
    agent,
    ...(expired ? { expired_at: iso(row.expires_at) } : {}),
  });
}
