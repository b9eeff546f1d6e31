/**
 * The access and write policy: `.lithos/policy.json`, a small JSON file a person edits by hand or through
 * the settings (services.governance.policy.set). Loaded into a PolicyStore, so a change applies without a restart:
 * `set` at once, a hand edit at the next `refresh` (the tool dispatcher refreshes before each call, reading
 * the file at most every RELOAD_MS).
 *
 * {
 *   "version": 1,
 *   "default_namespaces": ["*"],                          // allowlist of agents not listed below
 *   "agents": { "coder": { "namespaces": ["project/atlas"] } },
 *   "shared_patterns": ["shared/**"],                     // readable by every agent, whatever the scope
 *   "propose_namespaces": ["decisions"],                  // agent writes here become proposals
 *   "hidden_folders": ["private"],                        // no agent sees notes under these vault folders
 *   "person_notes": "propose",                            // an agent's change of the person's note: propose | allow | refuse
 *   "agent_tools": { "read_only": false, "disabled": ["lithos_delete"],   // what agents may call at all
 *                    "profile": "core" },                                  // what a bridge offers (tool-profiles.ts)
 *   "webhooks": [{ "url": "http://127.0.0.1:8787/hook", "events": ["decision.superseded"], "secret": "…" }],
 *   "webhook_hosts": ["hooks.example.com"]                // non-loopback hosts webhooks may reach (https)
 * }
 *
 * No file, and none ever saved: the defaults (every agent's allowlist is "*", nothing shared beyond
 * scopes, no proposals). A file that cannot be read as a policy, or a file deleted after one was in force
 * (policy.hidden.json remembers it): the closed policy (read-only, empty allowlists, no shared patterns,
 * hidden folders still hidden), reported in `problem`, until it is fixed or replaced by `set`. Policy fails
 * closed: losing the file never shows agents more than the last policy did.
 */
import { z } from 'zod';
import { LithosError } from '../errors';
import type { BlobStore, Clock, Logger } from '../ports';
import type { AuditActor, AuditLog } from './audit';
import { coveredBy, patternProblem } from './namespace-patterns';
import { ConfigFile } from '../stores/config-file';
import { PROFILE_NAMES, type ToolProfileSpec } from './tool-profiles';
import { PUBLIC_EVENT_TYPES } from './public-events';
import { webhookUrlProblem, type WebhookSpec } from './webhooks';

export const POLICY_FILE = 'policy.json';
export { RELOAD_MS } from '../stores/config-file';

export interface Policy {
  version: 1;
  /** Namespace allowlist of any agent without its own entry in `agents`. */
  default_namespaces: string[];
  /** Per-agent allowlists; an agent's entry replaces default_namespaces for it. */
  agents: Record<string, { namespaces: string[] }>;
  shared_patterns: string[];
  propose_namespaces: string[];
  /** Vault folders whose notes no agent sees, whatever their scope or namespace (the person still does). */
  hidden_folders: string[];
  /**
   * What becomes of an agent's write or delete of a note the person created or last changed (the trust
   * boundary, trust-boundary.ts): a proposal the person accepts (`propose`), made at once (`allow`), or
   * refused (`refuse`).
   */
  person_notes: PersonNotes;
  /**
   * Which tools agents may call, in every mode (relay through Obsidian or headless): `read_only` refuses every
   * tool that is not read-only by its annotations, `disabled` lists tools agents neither see nor may call.
   */
  agent_tools: AgentTools;
  /** Endpoints that receive the public events (webhooks.ts, docs/events.md); none when absent. */
  webhooks?: WebhookSpec[];
  /** Hosts other than loopback that webhooks may reach (https only). */
  webhook_hosts?: string[];
}

export const PERSON_NOTES = ['propose', 'allow', 'refuse'] as const;
export type PersonNotes = (typeof PERSON_NOTES)[number];

export interface AgentTools {
  read_only: boolean;
  disabled: string[];
  /**
   * The tools a bridge offers its agent when not started with --tools: `core`, `full` or a list of names
   * (governance/tool-profiles.ts). Absent: the default profile. Not a permission: read_only and disabled still apply.
   */
  profile?: ToolProfileSpec;
}

export const DEFAULT_POLICY: Policy = Object.freeze({
  version: 1,
  default_namespaces: ['*'],
  agents: {},
  shared_patterns: [],
  propose_namespaces: [],
  hidden_folders: [],
  person_notes: 'propose',
  agent_tools: { read_only: false, disabled: [] },
});

/**
 * What a damaged policy file falls back to: no agent sees a project note, nothing is shared by pattern,
 * and agents may only read (the file may have switched tools off or made agents read-only).
 */
export const CLOSED_POLICY: Policy = Object.freeze({
  version: 1,
  default_namespaces: [],
  agents: {},
  shared_patterns: [],
  propose_namespaces: [],
  hidden_folders: [],
  person_notes: 'refuse',
  agent_tools: { read_only: true, disabled: [] },
});

/**
 * The closed policy, still hiding every folder hidden before the damage and every valid folder the damaged
 * file lists: a half-saved hand edit must not show agents a private folder.
 */
export function closedPolicyAfter(previous: Policy, raw: unknown): Policy {
  const listed = raw !== null && typeof raw === 'object' ? (raw as { hidden_folders?: unknown }).hidden_folders : undefined;
  const salvaged = Array.isArray(listed) ? listed.flatMap((f) => (folder.safeParse(f).success ? [folder.parse(f)] : [])) : [];
  const hidden = [...new Set([...previous.hidden_folders, ...salvaged])];
  return hidden.length === 0 ? CLOSED_POLICY : freeze({ ...CLOSED_POLICY, hidden_folders: hidden });
}

const pattern = z.string().superRefine((s, ctx) => {
  const p = patternProblem(s);
  if (p) ctx.addIssue({ code: 'custom', message: `"${s}" ${p}` });
});
const patterns = z.array(pattern).max(1000);
/** A vault folder path: `private`, `work/secret` (surrounding slashes dropped; no `.`/`..` segments). */
const folder = z
  .string()
  .transform((s) => s.trim().replace(/^\/+|\/+$/g, ''))
  .refine((s) => s !== '' && s.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..'), { message: 'must be a vault folder path like "private" or "work/secret"' });

const toolName = z.string().trim().regex(/^lithos_[a-z_]+$/, { message: 'must be a lithos_* tool name' });

const policySchema = z.strictObject({
  version: z.literal(1).default(1),
  default_namespaces: patterns.default(['*']),
  agents: z.record(z.string().trim().min(1).max(200), z.strictObject({ namespaces: patterns })).default({}),
  shared_patterns: patterns.default([]),
  propose_namespaces: patterns.default([]),
  hidden_folders: z.array(folder).max(1000).default([]),
  person_notes: z.enum(PERSON_NOTES).default('propose'),
  agent_tools: z
    .strictObject({
      read_only: z.boolean().default(false),
      disabled: z.array(toolName).max(200).default([]),
      profile: z.union([z.enum(PROFILE_NAMES), z.array(toolName).min(1).max(200)]).optional(),
    })
    .default({ read_only: false, disabled: [] }),
  webhooks: z
    .array(
      z.strictObject({
        url: z.string().trim().min(1).max(2000),
        events: z.array(z.enum(PUBLIC_EVENT_TYPES)).min(1).max(50).optional(),
        secret: z.string().min(16, 'a webhook secret needs at least 16 characters').max(500).optional(),
      }),
    )
    .max(20)
    .optional(),
  webhook_hosts: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9.-]+$/, { message: 'must be a host name like "hooks.example.com"' })).max(100).optional(),
}).superRefine((p, ctx) => {
  // Webhooks reach loopback, or https hosts the person named: a policy never sends events anywhere else.
  for (const [i, w] of (p.webhooks ?? []).entries()) {
    const problem = webhookUrlProblem(w.url, p.webhook_hosts ?? []);
    if (problem) ctx.addIssue({ code: 'custom', path: ['webhooks', i, 'url'], message: problem });
  }
});

/** Validates a policy object (absent fields take their defaults); invalid_argument naming each problem. */
export function parsePolicy(raw: unknown): Policy {
  const r = policySchema.safeParse(raw);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
    throw new LithosError('invalid_argument', `Not a valid Lithos policy: ${issues.join('; ')}.`, { issues });
  }
  return r.data;
}

/** The namespace allowlist that applies to an agent (null: an agent that did not say who it is). */
export function allowlistOf(policy: Policy, agentId: string | null): string[] {
  const own = agentId !== null && Object.prototype.hasOwnProperty.call(policy.agents, agentId) ? policy.agents[agentId] : undefined;
  return own ? own.namespaces : policy.default_namespaces;
}

/** Whether agent writes into this namespace become proposals a person confirms. */
export function proposesIn(policy: Policy, namespace: string): boolean {
  return coveredBy(policy.propose_namespaces, namespace);
}

function freeze(p: Policy): Policy {
  return Object.freeze({
    version: 1,
    default_namespaces: Object.freeze([...p.default_namespaces]),
    agents: Object.freeze(Object.fromEntries(Object.entries(p.agents).map(([k, v]) => [k, Object.freeze({ namespaces: Object.freeze([...v.namespaces]) })]))),
    shared_patterns: Object.freeze([...p.shared_patterns]),
    propose_namespaces: Object.freeze([...p.propose_namespaces]),
    hidden_folders: Object.freeze([...p.hidden_folders]),
    person_notes: p.person_notes,
    agent_tools: Object.freeze({
      read_only: p.agent_tools.read_only,
      disabled: Object.freeze([...new Set(p.agent_tools.disabled)]),
      ...(p.agent_tools.profile === undefined ? {} : { profile: typeof p.agent_tools.profile === 'string' ? p.agent_tools.profile : Object.freeze([...new Set(p.agent_tools.profile)]) }),
    }),
    ...(p.webhooks === undefined ? {} : { webhooks: Object.freeze(p.webhooks.map((w) => Object.freeze({ ...w, ...(w.events ? { events: Object.freeze([...w.events]) } : {}) }))) }),
    ...(p.webhook_hosts === undefined ? {} : { webhook_hosts: Object.freeze([...p.webhook_hosts]) }),
  }) as unknown as Policy;
}

/**
 * The last valid policy's hidden folders, kept beside policy.json (PolicyStore.open); its presence also
 * says that a policy was in force, so a policy.json deleted later fails closed instead of open.
 */
export const HIDDEN_WITNESS_FILE = 'policy.hidden.json';

/** What the witness holds: null when there is none (no policy was ever in force here). */
async function readHiddenWitness(blobs: BlobStore): Promise<string[] | null> {
  const bytes = await blobs.read(HIDDEN_WITNESS_FILE);
  if (!bytes) return null;
  try {
    const raw = JSON.parse(new TextDecoder().decode(bytes)) as { hidden_folders?: unknown };
    return Array.isArray(raw.hidden_folders) ? raw.hidden_folders.filter((f): f is string => typeof f === 'string' && folder.safeParse(f).success) : [];
  } catch {
    return []; // damaged, but there: a policy was in force
  }
}

const CLOSED_MEANWHILE = 'Agents get the closed policy (read-only, no project notes, no shared patterns; hidden folders stay hidden)';

export class PolicyStore {
  private readonly listeners = new Set<(policy: Policy) => void>();

  private constructor(
    private readonly file: ConfigFile<Policy>,
    private readonly audit: AuditLog | null,
  ) {}

  static async open(deps: { blobs: BlobStore; clock: Clock; logger?: Logger; audit?: AuditLog }): Promise<PolicyStore> {
    // The hidden folders of the last valid policy, kept beside it: a file damaged before this process
    // started gives no "previous" policy, and a private folder must not show meanwhile.
    const witness = await readHiddenWitness(deps.blobs);
    let known = witness ?? [];
    let witnessed = witness !== null;
    const remember = async (p: Policy): Promise<void> => {
      const next = [...p.hidden_folders].sort();
      if (witnessed && JSON.stringify(next) === JSON.stringify(known)) return;
      known = next;
      witnessed = true;
      // Best effort: the policy itself is saved; only the copy for a later damaged file would be missing.
      await deps.blobs.writeAtomic(HIDDEN_WITNESS_FILE, new TextEncoder().encode(JSON.stringify({ hidden_folders: next }) + '\n')).catch((err: unknown) => {
        deps.logger?.warn(`${HIDDEN_WITNESS_FILE} could not be written: ${String(err)}`);
      });
    };
    const file = await ConfigFile.open<Policy>(
      {
        file: POLICY_FILE,
        parse: (raw) => freeze(parsePolicy(raw)),
        empty: DEFAULT_POLICY,
        fallback: (previous, raw) => closedPolicyAfter({ ...previous, hidden_folders: [...new Set([...previous.hidden_folders, ...known])] }, raw),
        onValid: remember,
        meanwhile: `${CLOSED_MEANWHILE} until it is fixed.`,
        absent: (previous) =>
          witnessed
            ? {
                value: closedPolicyAfter({ ...previous, hidden_folders: [...new Set([...previous.hidden_folders, ...known])] }, undefined),
                problem: `.lithos/${POLICY_FILE} is missing, but a policy was in force before (.lithos/${HIDDEN_WITNESS_FILE} remembers it). ${CLOSED_MEANWHILE} until a policy is saved again (lithos policy, or the plugin's settings) or the file is restored.`,
              }
            : null,
      },
      deps,
    );
    return new PolicyStore(file, deps.audit ?? null);
  }

  /** The policy in force (frozen). */
  get(): Policy {
    return this.file.value;
  }

  /** Why the file on disk is not in force (unreadable JSON, invalid policy, deleted); null when it is. */
  get problem(): string | null {
    return this.file.problem;
  }

  /** Whether policy.json is there but unreadable: saving over it would lose what it holds. */
  get damaged(): boolean {
    return this.file.damaged;
  }

  /** Validates, writes policy.json atomically, applies it at once and audits it ('policy.set'). */
  async set(raw: unknown, actor: AuditActor = { kind: 'human', id: null }): Promise<Policy> {
    // While the file is damaged the policy in force is the closed fallback: saving an edit of it would
    // make that fallback the vault's policy and lose what the damaged file held (allowlists, tools).
    // A missing file is no obstacle: saving a policy is how the person ends the closed fallback.
    if (this.file.damaged) await this.file.reload(); // fixed by hand since the last read?
    if (this.file.damaged && this.file.problem) {
      throw new LithosError('store_corrupt', `${this.file.problem.split('. Agents get')[0]}. Fix or delete .lithos/${POLICY_FILE} by hand first; until then this change is not saved.`, { file: POLICY_FILE });
    }
    const next = freeze(parsePolicy(raw));
    await this.file.write(next);
    await this.audit?.append({ action: 'policy.set', actor, target: POLICY_FILE, data: { policy: next } });
    this.changed();
    return next;
  }

  /**
   * Called after the policy in force changed (set, or a hand edit picked up by refresh/reload): what the
   * engine derived from it (callouts naming other notes) is brought in line. Returns the unsubscribe.
   */
  onChange(fn: (policy: Policy) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn(this.get());
  }

  /** Re-reads policy.json when the last read is older than RELOAD_MS (hand edits while running). */
  async refresh(): Promise<void> {
    const before = this.get();
    await this.file.refresh();
    if (this.get() !== before) this.changed();
  }

  /** Re-reads policy.json now. */
  async reload(): Promise<void> {
    const before = this.get();
    await this.file.reload();
    if (this.get() !== before) this.changed();
  }
}
