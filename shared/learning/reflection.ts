/**
 * Reflection (docs/ledger.md, "Reflection"): a deterministic, rule-based pass that finds procedures agents
 * repeat and proposes each as a `workflow` note for the person to accept: the same trajectories always give
 * the same candidates, and each one can be explained. Where an MCP client offers sampling, its model words
 * each new candidate or rejects it (reflection-wording.ts); without it, the rule-based text.
 *
 * A completed task's trajectory is its agents' (creator, completer, finding posters) successful tool calls
 * between its creation and its completion that name it (`task_id`) or no task (a read, a write), oldest
 * first, ending with the agent's lithos_task_complete (taken from the task's outcome; a task the person
 * completed is not learned from). Its signature is the ordered list of tool names, a write's note type
 * added (`lithos_write(claim)`), repeats in a row collapsed. Tasks are grouped by their target
 * (`metadata.target`), else their first tag (alphabetical), else `untagged`. A signature seen in
 * REFLECTION.min_tasks completed tasks of one group is a procedure; one a current workflow's `method` already
 * spells is covered. Each other one becomes one proposal at a path derived from the group and the signature,
 * so a second run (or a rejected proposal) proposes nothing again.
 *
 * The note is `shared` (any agent may read it), so a task counts only when every note its trajectory names
 * (cited in its outcome, linked by its findings, linked by its tool calls) is one every agent may see; any
 * other task is left out entirely, never named.
 */
import type { TaskRow } from '../coordination/coordination-types';
import type { AuditActor } from '../governance/audit';
import { canSee, gatedNote, type Viewer } from '../governance/gate';
import { contentHash } from '../model/hash';
import type { EventRow } from '../stores/memory-store';
import type { Timers } from '../ports';
import type { LearningPorts } from './learning-ports';
import { PROMPT, wordProcedure, type Sampler, type Wording, type WordingOutcome } from './reflection-wording';

export const REFLECTION = {
  /** Completed tasks of one group that must share a signature before it is proposed. */
  min_tasks: 3,
  /** Completed tasks read per run (newest first). */
  tasks_scanned: 1000,
  /** Tool-call events read per task (pages of 500, newest first): a longer trajectory loses its start. */
  events_per_task: 5000,
  /** Steps kept per signature: a longer one keeps its first max_steps − 1 and its last. */
  max_steps: 20,
  /** Where proposed workflow notes go. */
  folder: 'workflows/reflected',
  /** The proposing agent, the notes' author once accepted. */
  agent: 'lithos-reflection',
} as const;

export type ReflectPorts = Pick<LearningPorts, 'coordination' | 'memory' | 'notes' | 'governance' | 'audit' | 'policy'>;

export interface ReflectedProcedure {
  group: string;
  steps: string[];
  /** The completed tasks showing it, oldest first. */
  tasks: string[];
  path: string;
  /** The proposal made now; null when it was covered, proposed before or rejected (`status`). */
  proposal_id: string | null;
  /** `rejected`: the client's model said it is no workflow worth keeping (now or in an earlier pass). */
  status: 'proposed' | 'covered' | 'already_proposed' | 'rejected';
  /** Who worded a proposal made now: the client's model (sampling) or the rule-based text. */
  wording?: 'model' | 'rule';
  /** Why the rule-based text was used although sampling is offered, or why the model rejected it. */
  note?: string;
}

export interface ReflectReport {
  tasks_read: number;
  /** Completed tasks left out because their trajectory names a note not every agent may see. */
  tasks_withheld: number;
  /** Completed tasks the person completed (no agent's lithos_task_complete): not learned from. */
  tasks_by_person: number;
  procedures: ReflectedProcedure[];
}

interface Trajectory {
  task: TaskRow;
  group: string;
  steps: string[];
  notes: string[];
}

/**
 * The ordered steps of a task's tool calls (events in any order): the successful calls of the task's agents
 * that name the task (`task_id`) or no task at all (a read, a write), never those made for another task.
 */
export function stepsOf(events: readonly EventRow[], taskId: string, agents: ReadonlySet<string>): string[] {
  const calls = events
    .filter((e) => e.kind === 'tool_call' && e.actor_kind === 'agent' && agents.has(e.actor) && e.namespace === `agent/${e.actor}`)
    .map((e) => ({ at: e.at, id: e.event_id, d: e.data as { tool?: unknown; ok?: unknown; task_id?: unknown; args?: unknown } | null }))
    .filter((e) => e.d !== null && (e.d.task_id === taskId || e.d.task_id === undefined) && e.d.ok === true && typeof e.d.tool === 'string')
    .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const steps: string[] = [];
  for (const c of calls) {
    const noteType = (c.d!.args as { note_type?: unknown } | null)?.note_type;
    const step = typeof noteType === 'string' ? `${String(c.d!.tool)}(${noteType})` : String(c.d!.tool);
    if (steps[steps.length - 1] !== step) steps.push(step);
  }
  return steps;
}

/** A runaway loop is cut to REFLECTION.max_steps, keeping the last step (the completion). */
function capSteps(steps: string[]): string[] {
  return steps.length <= REFLECTION.max_steps ? steps : [...steps.slice(0, REFLECTION.max_steps - 1), steps[steps.length - 1]];
}

/** The agent's call that completes a task: a whole trajectory ends with it. */
export const COMPLETE_TOOL = 'lithos_task_complete';

/** The group a task's procedure is counted in. */
export function groupOf(task: TaskRow): string {
  const target = task.metadata?.target;
  if (typeof target === 'string' && target.trim()) return target.trim();
  return [...task.tags].sort()[0] ?? 'untagged';
}

/** Signatures shared by at least REFLECTION.min_tasks trajectories of one group, in a stable order. */
export function repeatedProcedures(trajectories: readonly Trajectory[]): { group: string; steps: string[]; members: Trajectory[] }[] {
  const by = new Map<string, { group: string; steps: string[]; members: Trajectory[] }>();
  for (const t of trajectories) {
    if (t.steps.length < 2) continue; // one step is a call, not a procedure
    const key = `${t.group}\u0000${t.steps.join('\u0001')}`;
    const p = by.get(key) ?? { group: t.group, steps: t.steps, members: [] };
    p.members.push(t);
    by.set(key, p);
  }
  return [...by.entries()]
    .filter(([, p]) => p.members.length >= REFLECTION.min_tasks)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, p]) => ({ ...p, members: [...p.members].sort((a, b) => (a.task.completed_at ?? 0) - (b.task.completed_at ?? 0) || (a.task.id < b.task.id ? -1 : 1)) }));
}

/** The `method` text of a procedure: its steps in order. */
export const methodOf = (steps: readonly string[]): string => steps.map((s, i) => `${i + 1}. ${s}`).join('\n');

/** Whether a current workflow's method already names these steps in this order (any words around them, any case). */
function covers(method: string | null, steps: readonly string[]): boolean {
  if (!method) return false;
  const text = method.toLowerCase();
  let from = 0;
  for (const s of steps) {
    const at = text.indexOf(s.toLowerCase(), from);
    if (at < 0) return false;
    from = at + s.length;
  }
  return true;
}

function pathOf(group: string, steps: readonly string[]): string {
  const slug = group.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'untagged';
  return `${REFLECTION.folder}/${slug} ${contentHash(`${group}\n${steps.join('\n')}`).slice(0, 8)}.md`;
}

/** Any agent, as the gate judges a `shared` note's readers. */
function anyAgent(d: ReflectPorts): Viewer {
  return { kind: 'agent', agent_id: null, task_id: null, shared_only: true, hidden_folders: d.policy.get().hidden_folders };
}

const PAGE = 500;

/** The tool calls made from the task's creation up to its completion (inclusive), newest first, bounded. */
function callsDuring(d: ReflectPorts, task: TaskRow, done: number): EventRow[] {
  const out: EventRow[] = [];
  for (let offset = 0; offset < REFLECTION.events_per_task; offset += PAGE) {
    const rows = d.memory.events.query({ kinds: ['tool_call'], since: task.created_at, until: done + 1, offset, limit: PAGE });
    out.push(...rows);
    if (rows.length < PAGE) break;
  }
  return out;
}

/**
 * The task's trajectory; 'withheld' when it names a note not every agent may see, 'by_person' when no agent
 * completed it. The completion is the last step, taken from the task's outcome: the completing call's own event
 * is recorded only once the call returns, after the consolidation it starts.
 */
function trajectory(d: ReflectPorts, task: TaskRow, audience: Viewer): Trajectory | 'withheld' | 'by_person' {
  const done = task.completed_at ?? task.created_at;
  const outcome = d.coordination.outcome(task.id);
  if (!outcome || outcome.agent_id === 'human') return 'by_person';
  // A call naming no task made at the completion's instant may already be the next task's.
  const events = callsDuring(d, task, done).filter((e) => e.at < done || (e.data as { task_id?: unknown } | null)?.task_id === task.id);
  const findings = d.coordination.findings(task.id);
  // Its agents: who created it, who completed it, who reported on it.
  const agents = new Set([task.created_by, outcome.agent_id, ...findings.map((f) => f.agent_id)]);
  const calls = stepsOf(events, task.id, agents).filter((s) => s !== COMPLETE_TOOL);
  const steps = capSteps(calls[calls.length - 1] === COMPLETE_TOOL ? calls : [...calls, COMPLETE_TOOL]);
  const named = [...outcome.cited_nodes, ...outcome.misleading_nodes, ...findings.flatMap((f) => (f.knowledge_id ? [f.knowledge_id] : [])), ...events.filter((e) => agents.has(e.actor)).flatMap((e) => e.links)];
  for (const id of named) {
    const n = d.notes.note(id);
    if (n && !canSee(audience, gatedNote(n))) return 'withheld';
  }
  const notes = [...new Set(outcome.cited_nodes)].filter((id) => d.notes.note(id) !== null);
  return { task, group: groupOf(task), steps, notes };
}

function noteText(d: ReflectPorts, group: string, steps: readonly string[], members: readonly Trajectory[], w: Wording | null): Wording & { content: string } {
  const titles = members.map((m) => m.task.title);
  const context = w?.context ?? `Completed tasks on ${group}: ${titles.slice(0, 5).join('; ')}${titles.length > 5 ? ` (and ${titles.length - 5} more)` : ''}`;
  const trigger = w?.trigger ?? `A new task on ${group}, like ${titles[0]}`;
  const title = w?.title ?? `${group}: ${steps.length}-step procedure`;
  const method = w?.method ?? methodOf(steps);
  const cited = [...new Set(members.flatMap((m) => m.notes))].map((id) => d.notes.note(id)).filter((n) => n !== null);
  const lines = [
    `# ${title}`,
    '',
    w
      ? `Proposed by reflection: these ${members.length} completed tasks on \`${group}\` took the same steps in the same order (found by the rule-based pass); the MCP client's model worded it.`
      : `Proposed by reflection (a rule-based pass, no model): these ${members.length} completed tasks on \`${group}\` took the same steps in the same order.`,
    '',
    ...(w ? [`When: ${context}`, '', `Starts with: ${trigger}`, ''] : []),
    '## Method',
    '',
    method,
    '',
    '## Evidence',
    '',
    ...members.map((m) => `- task \`${m.task.id}\`: ${m.task.title}`),
    ...cited.map((n) => `- cited: [[${n.path.replace(/\.md$/, '')}]]`),
    '',
  ];
  return { content: lines.join('\n'), title, context, trigger, method };
}

/** The learned mark of a candidate the client's model rejected: it is not asked about again. */
const rejectedMark = (path: string): string => `reflect:rejected:${path}`;

/** One reflection pass (see the module comment); audited `reflect.propose` per proposal made. */
export async function reflect(d: ReflectPorts, opts: { actor: AuditActor; sampler?: Sampler | null; timers?: Timers }): Promise<ReflectReport> {
  const proposals = d.governance.proposals;
  const audience = anyAgent(d);
  const tasks = d.coordination.tasks({ status: 'completed', limit: REFLECTION.tasks_scanned });
  const trajectories: Trajectory[] = [];
  let withheld = 0;
  let byPerson = 0;
  for (const t of tasks) {
    const tr = trajectory(d, t, audience);
    if (tr === 'withheld') withheld++;
    else if (tr === 'by_person') byPerson++;
    else trajectories.push(tr);
  }
  const workflows = d.notes.notes().filter((n) => n.cached.meta.ledger?.kind === 'workflow' && n.cached.meta.ledger.state === 'current');
  const proposed = new Set((await proposals.list()).proposals.map((p) => p.path));
  const out: ReflectedProcedure[] = [];
  let asked = 0;
  for (const p of repeatedProcedures(trajectories)) {
    const path = pathOf(p.group, p.steps);
    const base = { group: p.group, steps: p.steps, tasks: p.members.map((m) => m.task.id), path, proposal_id: null };
    if (workflows.some((w) => covers(w.cached.meta.ledger?.method ?? null, p.steps))) {
      out.push({ ...base, status: 'covered' });
      continue;
    }
    if (proposed.has(path) || d.notes.note(path) !== null) {
      out.push({ ...base, status: 'already_proposed' });
      continue;
    }
    const earlier = d.memory.learned.mark(rejectedMark(path)) as { why?: unknown } | null;
    if (earlier) {
      out.push({ ...base, status: 'rejected', note: typeof earlier.why === 'string' ? earlier.why : 'rejected by the MCP client\'s model' });
      continue;
    }
    const worded = await wording(opts, asked, p.group, p.steps, p.members);
    if (opts.sampler && asked < PROMPT.per_run) asked++;
    if (worded.kind === 'rejected') {
      await d.memory.learned.setMark(rejectedMark(path), { why: worded.why });
      await d.audit.append({ action: 'reflect.reject', actor: opts.actor, target: path, data: { path, group: p.group, steps: p.steps, tasks: base.tasks, why: worded.why } });
      out.push({ ...base, status: 'rejected', note: worded.why });
      continue;
    }
    const text = noteText(d, p.group, p.steps, p.members, worded.kind === 'model' ? worded.wording : null);
    const title = text.title;
    const made = await proposals.create(
      REFLECTION.agent,
      {
        path,
        mode: 'create',
        content: text.content,
        fields: { title, note_type: 'workflow', state: 'current', access_scope: 'shared', context: text.context, trigger: text.trigger, method: text.method, tags: ['reflection'] },
      },
      { namespace: REFLECTION.folder, title },
    );
    const wordedBy = worded.kind === 'model' ? 'model' : 'rule';
    await d.audit.append({ action: 'reflect.propose', actor: opts.actor, target: made.proposal_id, data: { path, group: p.group, steps: p.steps, tasks: base.tasks, wording: wordedBy } });
    out.push({ ...base, proposal_id: made.proposal_id, status: 'proposed', wording: wordedBy, ...(worded.kind === 'rule' && worded.why ? { note: worded.why } : {}) });
  }
  return { tasks_read: tasks.length, tasks_withheld: withheld, tasks_by_person: byPerson, procedures: out };
}

/** The model's wording of a candidate, while the pass's request budget lasts; the rule-based text otherwise. */
function wording(opts: { sampler?: Sampler | null; timers?: Timers }, asked: number, group: string, steps: readonly string[], members: readonly Trajectory[]): Promise<WordingOutcome> | WordingOutcome {
  if (!opts.sampler || !opts.timers) return { kind: 'rule', why: null };
  if (asked >= PROMPT.per_run) return { kind: 'rule', why: `at most ${PROMPT.per_run} candidates are worded by the model per pass` };
  return wordProcedure(opts.sampler, opts.timers, group, steps, members.map((m) => m.task.title));
}
