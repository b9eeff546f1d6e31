/**
 * Per-agent keys: `.lithos/agent-keys.json`. Once the person has issued a key to any agent, a bridge must
 * present the key of the agent it acts for (LITHOS_AGENT_KEY; sent in the websocket hello in relay mode);
 * a session without it is an unverified agent that sees only `shared` notes and may only read. Before any
 * key is issued, an agent is who its bridge says (the loopback token still guards the websocket).
 *
 * Only a SHA-256 of each key is stored, so the file does not hand keys to whoever reads the vault. A file
 * that cannot be read fails closed: keys count as in use and none verifies, with a notice.
 *
 * {
 *   "version": 1,
 *   "agents": { "coder": { "sha256": "…64 hex…", "issued_at": "2026-11-27T10:00:00.000Z", "hint": "lk_4f2a" } }
 * }
 */
import { z } from 'zod';
import { LithosError } from '../errors';
import type { BlobStore, Clock, Logger } from '../ports';
import type { AuditActor, AuditLog } from './audit';
import { ConfigFile } from '../stores/config-file';

export const AGENT_KEYS_FILE = 'agent-keys.json';

/** Where a bridge finds the key of its agent. */
export const AGENT_KEY_ENV = 'LITHOS_AGENT_KEY';

/** Key prefix: tells a Lithos key apart from other secrets in a config file. */
const PREFIX = 'lk_';

interface KeyEntry {
  sha256: string;
  issued_at: string;
  /** The key's first characters, so the person can tell keys apart without the file holding them. */
  hint: string;
}

interface KeysFile {
  version: 1;
  agents: Record<string, KeyEntry>;
}

const schema = z.strictObject({
  version: z.literal(1).default(1),
  agents: z
    .record(
      z.string().trim().min(1).max(200),
      z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/), issued_at: z.string().max(40), hint: z.string().max(20) }),
    )
    .default({}),
});

const NONE: KeysFile = Object.freeze({ version: 1, agents: Object.freeze({}) });
/** A damaged file: keys are in use (an entry that cannot match anything), so no session verifies. */
const DAMAGED: KeysFile = Object.freeze({ version: 1, agents: Object.freeze({ '': { sha256: '', issued_at: '', hint: '' } }) });

export interface AgentKeyInfo {
  agent_id: string;
  issued_at: string;
  hint: string;
}

export class AgentKeys {
  private constructor(
    private readonly file: ConfigFile<KeysFile>,
    private readonly audit: AuditLog | null,
  ) {}

  static async open(deps: { blobs: BlobStore; clock: Clock; logger?: Logger; audit?: AuditLog }): Promise<AgentKeys> {
    const file = await ConfigFile.open<KeysFile>(
      {
        file: AGENT_KEYS_FILE,
        parse: (raw) => {
          const r = schema.safeParse(raw);
          if (!r.success) throw new LithosError('invalid_argument', `.lithos/${AGENT_KEYS_FILE} is not a valid key file (${r.error.issues.map((i) => i.message).join('; ')}).`);
          return r.data;
        },
        empty: NONE,
        fallback: DAMAGED,
        meanwhile: 'No agent key verifies until it is fixed: every bridge session is an unverified agent (shared notes only, read-only). Fix it, or delete it and issue the keys again.',
      },
      deps,
    );
    return new AgentKeys(file, deps.audit ?? null);
  }

  /** Whether any key was issued: then every agent must present its own. */
  inUse(): boolean {
    return Object.keys(this.file.value.agents).length > 0;
  }

  /** Why the file is not in force; null when it is. */
  get problem(): string | null {
    return this.file.problem;
  }

  list(): AgentKeyInfo[] {
    return Object.entries(this.file.value.agents)
      .filter(([id]) => id !== '')
      .map(([agent_id, e]) => ({ agent_id, issued_at: e.issued_at, hint: e.hint }))
      .sort((a, b) => a.agent_id.localeCompare(b.agent_id));
  }

  /**
   * Whether a session acting for `agentId` with `key` is verified: always while no key is issued; else only
   * with the key issued to that agent. Re-reads the file first (a key issued or revoked while running).
   */
  async verify(agentId: string | null, key: string | undefined): Promise<boolean> {
    await this.file.refresh();
    if (!this.inUse()) return true;
    if (agentId === null || !key) return false;
    const entry = Object.prototype.hasOwnProperty.call(this.file.value.agents, agentId) ? this.file.value.agents[agentId] : undefined;
    if (!entry) return false;
    return constantTimeEqual(await sha256Hex(key), entry.sha256);
  }

  /** Issues a new key to `agentId` (replacing any earlier one) and returns it: shown once, never stored. */
  async issue(agentId: string, actor: AuditActor = { kind: 'human', id: null }): Promise<string> {
    const id = agentId.trim();
    if (id === '' || id.length > 200) throw new LithosError('invalid_argument', 'An agent id is 1–200 characters.', { field: 'agent_id' });
    this.assertWritable();
    const bytes = new Uint8Array(32);
    globalThis.crypto.getRandomValues(bytes);
    const key = PREFIX + base64url(bytes);
    const entry: KeyEntry = { sha256: await sha256Hex(key), issued_at: new Date().toISOString(), hint: key.slice(0, PREFIX.length + 4) };
    const replaced = Object.prototype.hasOwnProperty.call(this.file.value.agents, id);
    await this.file.write({ version: 1, agents: { ...this.file.value.agents, [id]: entry } });
    await this.audit?.append({ action: 'agent.key_issue', actor, target: id, data: { hint: entry.hint, replaced } });
    return key;
  }

  /** Revokes `agentId`'s key; false when it had none. Its bridges become unverified at their next call. */
  async revoke(agentId: string, actor: AuditActor = { kind: 'human', id: null }): Promise<boolean> {
    this.assertWritable();
    if (!Object.prototype.hasOwnProperty.call(this.file.value.agents, agentId)) return false;
    const agents = { ...this.file.value.agents };
    const hint = agents[agentId].hint;
    delete agents[agentId];
    await this.file.write({ version: 1, agents });
    await this.audit?.append({ action: 'agent.key_revoke', actor, target: agentId, data: { hint } });
    return true;
  }

  private assertWritable(): void {
    // Saving over a damaged file would drop the keys it holds without anyone deciding so.
    if (this.file.damaged) throw new LithosError('store_corrupt', `${this.file.problem ?? ''} Delete .lithos/${AGENT_KEYS_FILE} by hand to start over.`.trim(), { file: AGENT_KEYS_FILE });
  }
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Compares two hex digests without an early exit, so timing does not tell how much of a guess matched. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
