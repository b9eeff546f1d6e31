/**
 * Whether text written into one note may name or quote another: every agent allowed to read `reader`
 * must also be allowed to read `target`. The engine writes such text itself — conflict callouts naming
 * the other note, concept notes listing their members, summaries quoting their material — and an agent
 * reading that note must not learn through it about a note the gate hides from it.
 *
 * Decided from the two notes and the policy in force, conservatively (false when unsure). The answer can
 * change with the policy, so the conflict callouts are brought up to date when it changes.
 * 1. no agent reads `reader` (user_private, or in a hidden folder): anything may be named;
 * 2. `target` is hidden from some agent by a hidden folder or user_private: no;
 * 3. every agent reads `target` (shared scope, a shared-pattern namespace, or a project namespace every
 *    allowlist covers — with the default policy, `*`, that is every project note): yes. Once agent keys are
 *    issued, an agent without its key reads `shared` notes only (viewer.ts), so then only those count;
 * 4. every agent reads `reader` (and not `target`): no;
 * 5. `reader` is a project note: `target` must be a project note whose namespace every allowlist that
 *    covers `reader`'s also covers (never project/ab for project/a unless every such allowlist says so);
 * 6. `reader` is a task note: `target` must be a task note of the same task, readable by `reader`'s author;
 * 7. `reader` is agent_private: its owner (and author) must be able to read `target` (the gate decides).
 * Anything else (project notes of different namespaces, a task note quoting a project note, …): no.
 */
import { canSee, inHiddenFolder, type GatedNote, type Viewer } from './gate';
import { agentOfNamespace, coveredBy } from './namespace-patterns';
import type { Policy } from './policy';

export interface AudienceContext {
  policy: Pick<Policy, 'hidden_folders' | 'shared_patterns' | 'default_namespaces' | 'agents'>;
  /** The resolved viewer of one agent (its allowlist and tasks), for rule 6. */
  viewerOf(agentId: string): Viewer;
  /** Whether agent keys are issued (agent-keys.ts): then an unverified agent may read, and it reads `shared` notes only. */
  keysInUse: boolean;
}

/** No agent may read it: the person's alone. */
export function noAgentReads(policy: AudienceContext['policy'], note: GatedNote): boolean {
  return note.access_scope === 'user_private' || inHiddenFolder(policy.hidden_folders, note.path);
}

/** Every namespace allowlist in force: the default one (any agent without its own) and each agent's own. */
function allowlists(policy: AudienceContext['policy']): (readonly string[])[] {
  return [policy.default_namespaces, ...Object.values(policy.agents).map((a) => a.namespaces)];
}

/**
 * Every agent may read it: shared, a shared-pattern namespace, or a project namespace every allowlist covers
 * (the default `*`). With keys in use, an agent without its key is one of "every agent": `shared` only.
 */
export function everyAgentReads(policy: AudienceContext['policy'], note: GatedNote, keysInUse: boolean): boolean {
  if (noAgentReads(policy, note)) return false;
  if (note.access_scope === 'shared') return true;
  if (keysInUse) return false;
  if (coveredBy(policy.shared_patterns, note.namespace)) return true;
  return note.access_scope === 'project' && allowlists(policy).every((l) => coveredBy(l, note.namespace));
}

/** The agents the gate lets read a note because they own or wrote it (agent_private and task notes). */
function ownersOf(note: GatedNote): string[] {
  return [...new Set([agentOfNamespace(note.namespace), note.author].filter((a): a is string => a !== null))];
}

export function readersMaySee(ctx: AudienceContext, reader: GatedNote, target: GatedNote): boolean {
  const { policy } = ctx;
  if (noAgentReads(policy, reader)) return true;
  if (noAgentReads(policy, target)) return false;
  if (everyAgentReads(policy, target, ctx.keysInUse)) return true;
  if (everyAgentReads(policy, reader, ctx.keysInUse)) return false;
  const ownersSee = () => ownersOf(reader).every((a) => canSee(ctx.viewerOf(a), target));
  switch (reader.access_scope) {
    case 'project':
      // Readers are the agents whose allowlist covers the namespace: each allowlist covering this one must cover the target's.
      return target.access_scope === 'project' && allowlists(policy).every((l) => !coveredBy(l, reader.namespace) || coveredBy(l, target.namespace));
    case 'task':
      // The agents on the task read every note of its namespace; the note's author must read the target too.
      return target.access_scope === 'task' && target.namespace === reader.namespace && ownersSee();
    case 'agent_private':
      return ownersOf(reader).length > 0 && ownersSee();
    default:
      return false;
  }
}
