/**
 * "Agents propose, a person confirms": an agent's write into a namespace the policy lists under
 * propose_namespaces is kept as a proposal in `.lithos/proposals/<id>.json` (one small JSON file each, so a
 * person can read them) instead of touching the note. A person accepts it — the write is then made through
 * the normal write path with the proposing agent as author/contributor, guarded by the version the agent
 * saw — or rejects it. Every step is audited (proposal.create / accept / reject). The trust boundary
 * (trust-boundary.ts) keeps agents' writes and deletes of the person's notes here too (`why`).
 */
import { z } from 'zod';
import type { StoreLoss } from '../stores/store-loss';
import { LithosError, asLithosError } from '../errors';
import type { BlobStore, Clock } from '../ports';
import { newId } from '../model/ids';
import type { DeleteNoteResult, WriteNoteRequest, WriteNoteResult } from '../model/note-write';
import type { NoteChange, ProposalWhy } from './trust-boundary';
import type { AuditActor, AuditLog } from './audit';

export const PROPOSALS_DIR = 'proposals/';
export const PROPOSAL_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export interface Proposal {
  proposal_id: string;
  status: ProposalStatus;
  /** The agent that proposed the write: its author/contributor once accepted. */
  agent: string;
  created_at: string;
  /** The note it would write: path, namespace and title as proposed. */
  path: string;
  namespace: string;
  title: string | null;
  /**
   * The write as it will be made on accept; expectedVersion pins the note version the agent saw. For a
   * delete (`op`), only path and expectedVersion count.
   */
  request: Omit<WriteNoteRequest, 'actor'>;
  /** What the agent asked: a write (absent, as in proposals made before deletes could be proposed) or a delete. */
  op?: NoteChange;
  /** Why it waits for the person: a namespace they confirm, or a note that is theirs (absent: namespace). */
  why?: ProposalWhy;
  decided_at: string | null;
  decided_by: string | null;
  reason: string | null;
  /** The write's (or delete's) result once accepted. */
  result: WriteNoteResult | DeleteNoteResult | null;
}

const proposalSchema = z.looseObject({
  proposal_id: z.string().min(1),
  status: z.enum(PROPOSAL_STATUSES),
  agent: z.string().min(1),
  created_at: z.string(),
  path: z.string().min(1),
  namespace: z.string(),
  title: z.string().nullable(),
  request: z.looseObject({ path: z.string().min(1), mode: z.enum(['create', 'update', 'upsert']), fields: z.record(z.string(), z.unknown()) }),
  decided_at: z.string().nullable(),
  decided_by: z.string().nullable(),
  reason: z.string().nullable(),
  result: z.unknown().nullable(),
  op: z.enum(['write', 'delete']).optional(),
  why: z.enum(['namespace', 'person_note']).optional(),
});

const ID_RE = /^[0-9a-f-]{36}$/i;
const enc = new TextEncoder();
const dec = new TextDecoder();

export interface ProposalDeps {
  blobs: BlobStore;
  clock: Clock;
  audit: AuditLog;
  /** The engine's audited write (NotesService.writeNote). */
  write(req: WriteNoteRequest): Promise<WriteNoteResult>;
  /** The engine's audited delete, into the trash (a proposed delete accepted). */
  delete?(path: string, opts: { expectedVersion?: string; actor: string }): Promise<DeleteNoteResult>;
  /**
   * The ids of pending proposals, kept in a second place (the memory store), so a proposal file deleted or
   * damaged while it waits is found out (check) instead of the agent's write vanishing unseen.
   */
  pending?: { get(): string[]; set(ids: string[]): Promise<void> };
}

export class ProposalStore {
  constructor(private readonly d: ProposalDeps) {}

  private file(id: string): string {
    return `${PROPOSALS_DIR}${id}.json`;
  }

  private async save(p: Proposal): Promise<void> {
    await this.d.blobs.writeAtomic(this.file(p.proposal_id), enc.encode(JSON.stringify(p, null, 2) + '\n'));
  }

  /** Records an agent's write (or delete: meta.op) as pending; the note is not touched. */
  async create(agent: string, req: Omit<WriteNoteRequest, 'actor'>, meta: { namespace: string; title: string | null; op?: NoteChange; why?: ProposalWhy }): Promise<Proposal> {
    const p: Proposal = {
      proposal_id: newId(),
      status: 'pending',
      agent,
      created_at: new Date(this.d.clock.now()).toISOString(),
      path: req.path,
      namespace: meta.namespace,
      title: meta.title,
      request: req,
      decided_at: null,
      decided_by: null,
      reason: null,
      result: null,
      ...(meta.op === 'delete' ? { op: 'delete' as const } : {}),
      ...(meta.why ? { why: meta.why } : {}),
    };
    await this.save(p);
    await this.d.pending?.set([...this.d.pending.get().filter((x) => x !== p.proposal_id), p.proposal_id]);
    await this.d.audit.append({ action: 'proposal.create', actor: { kind: 'agent', id: agent }, target: p.proposal_id, data: { path: p.path, namespace: p.namespace, mode: req.mode, op: p.op ?? 'write', why: p.why ?? 'namespace' } });
    return p;
  }

  /** One proposal; not_found for an unknown id. Damaged files are reported, not guessed at. */
  async get(id: string): Promise<Proposal> {
    if (!ID_RE.test(id)) throw new LithosError('not_found', `No proposal "${id}". lithos_proposal_list shows them.`, { proposal_id: id });
    const bytes = await this.d.blobs.read(this.file(id));
    if (!bytes) throw new LithosError('not_found', `No proposal "${id}". lithos_proposal_list shows them.`, { proposal_id: id });
    return parseProposal(id, bytes);
  }

  /** Oldest first; `agent` keeps one agent's, `status` one status. Damaged files are skipped and counted. */
  list(q: ProposalQuery = {}): Promise<{ proposals: Proposal[]; damaged: number }> {
    return readProposals(this.d.blobs, q);
  }

  private async decided(id: string): Promise<void> {
    const ids = this.d.pending?.get() ?? [];
    if (ids.includes(id)) await this.d.pending?.set(ids.filter((x) => x !== id));
  }

  /**
   * Pending proposals whose file is gone or unreadable: each is a loss (the agent's proposed write cannot be
   * accepted any more), reported once; the ids are then forgotten, as the files cannot come back.
   */
  async check(): Promise<StoreLoss[]> {
    const ids = this.d.pending?.get() ?? [];
    const losses: StoreLoss[] = [];
    const gone: string[] = [];
    for (const id of ids) {
      const file = this.file(id);
      const bytes = await this.d.blobs.read(file);
      let sound = bytes !== null;
      if (bytes) {
        try {
          parseProposal(id, bytes);
        } catch {
          sound = false;
        }
      }
      if (sound) continue;
      gone.push(id);
      losses.push({
        file,
        counts: { lost_proposals: 1 },
        message: `.lithos/${file} ${bytes ? 'is damaged' : 'is missing'}: the pending proposal ${id} is lost (the agent's write was never made; it can propose it again).`,
      });
    }
    if (gone.length) await this.d.pending?.set(ids.filter((x) => !gone.includes(x)));
    return losses;
  }

  private async pending(id: string): Promise<Proposal> {
    const p = await this.get(id);
    if (p.status !== 'pending') {
      throw new LithosError('conflict', `Proposal ${id} was already ${p.status} (${p.decided_at ?? ''} by ${p.decided_by ?? 'someone'}).`, { proposal_id: id, status: p.status });
    }
    return p;
  }

  /**
   * Makes the proposed write as the proposing agent. A note changed since the agent saw it (or created at
   * the path meanwhile) is a conflict: the proposal stays pending, to be rejected or re-proposed.
   */
  async accept(id: string, by: AuditActor): Promise<Proposal> {
    const p = await this.pending(id);
    let result: WriteNoteResult | DeleteNoteResult;
    try {
      result = p.op === 'delete' ? await this.deleteFor(p) : await this.d.write({ ...p.request, actor: p.agent });
    } catch (err) {
      const e = asLithosError(err);
      if (e.code !== 'conflict') throw e;
      // The writer's advice (re-read, retry with expected_version) is for the agent; the person's choices differ.
      throw new LithosError(
        'conflict',
        `Proposal ${id} was made against a version of "${p.request.path}" that has changed since (someone edited, created or moved it). It stays pending: reject it, and the agent can propose again from the current note.`,
        { ...e.data, proposal_id: id },
      );
    }
    const done: Proposal = { ...p, status: 'accepted', decided_at: new Date(this.d.clock.now()).toISOString(), decided_by: by.id ?? by.kind, result };
    await this.save(done);
    await this.decided(id);
    await this.d.audit.append({ action: 'proposal.accept', actor: by, target: id, data: { path: result.path, note: result.id, version: result.version, agent: p.agent, op: p.op ?? 'write' } });
    return done;
  }

  private deleteFor(p: Proposal): Promise<DeleteNoteResult> {
    if (!this.d.delete) throw new LithosError('unsupported', `Proposal ${p.proposal_id} deletes a note, and this host cannot delete notes.`, { proposal_id: p.proposal_id });
    return this.d.delete(p.request.path, { expectedVersion: p.request.expectedVersion, actor: p.agent });
  }

  async reject(id: string, by: AuditActor, reason: string | null): Promise<Proposal> {
    const p = await this.pending(id);
    const done: Proposal = { ...p, status: 'rejected', decided_at: new Date(this.d.clock.now()).toISOString(), decided_by: by.id ?? by.kind, reason };
    await this.save(done);
    await this.decided(id);
    await this.d.audit.append({ action: 'proposal.reject', actor: by, target: id, data: { path: p.path, agent: p.agent, reason } });
    return done;
  }
}

function parseProposal(id: string, bytes: Uint8Array): Proposal {
  let raw: unknown;
  try {
    raw = JSON.parse(dec.decode(bytes));
  } catch {
    raw = null;
  }
  const r = proposalSchema.safeParse(raw);
  if (!r.success) throw new LithosError('store_corrupt', `.lithos/${PROPOSALS_DIR}${id}.json is damaged; fix or remove it by hand.`, { proposal_id: id });
  return r.data as unknown as Proposal;
}

export interface ProposalQuery {
  agent?: string;
  status?: ProposalStatus;
}

/** The proposals on file, oldest first, without an engine (the CLI lists them beside a running plugin). */
export async function readProposals(blobs: BlobStore, q: ProposalQuery = {}): Promise<{ proposals: Proposal[]; damaged: number }> {
  const out: Proposal[] = [];
  let damaged = 0;
  for (const name of await blobs.list(PROPOSALS_DIR)) {
    const id = name.slice(PROPOSALS_DIR.length).replace(/\.json$/, '');
    const bytes = await blobs.read(name);
    if (!bytes) continue;
    let p: Proposal;
    try {
      p = parseProposal(id, bytes);
    } catch {
      damaged++;
      continue;
    }
    if (q.agent !== undefined && p.agent !== q.agent) continue;
    if (q.status !== undefined && p.status !== q.status) continue;
    out.push(p);
  }
  out.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.proposal_id < b.proposal_id ? -1 : 1));
  return { proposals: out, damaged };
}
