import type { MemoryEngine } from '../../shared/engine';
import { type MemoryBlobStore } from '../twins/memory-blobs';
import { openHarness, type Harness } from '../engine/harness';
import { A, B, C, D, FILES } from '../learning/fixture';

/**
 * A realistic stretch of use over the in-memory twins: notes indexed, retrievals (receipts), feedback
 * (edges, use counts, co-activation), a conflict, agents and tasks, a proposal. `round` keeps ids apart.
 */
export async function useVault(engine: MemoryEngine, round: number): Promise<void> {
  const agent = `agent-${round}`;
  for (let i = 0; i < 3; i++) {
    const r = await engine.services.retrieval.retrieve({ query_text: 'connection pool', agent_id: agent }, { jitter: false, seed: round * 10 + i });
    await engine.services.learning.feedback({ receipt_id: r.receipt_id!, cited: i % 2 ? [A, B] : [C, D], misleading: [], agent });
  }
  await engine.services.coordination.registerAgent({ id: agent, name: `Agent ${round}` });
  const t = await engine.services.coordination.createTask({ created_by: agent, title: `task ${round}` });
  await engine.services.coordination.claim({ task_id: t.id, aspect: 'code', agent });
  await engine.services.coordination.postFinding({ task_id: t.id, agent, summary: `finding ${round}` });
  const done = await engine.services.coordination.createTask({ created_by: agent, title: `done ${round}` });
  await engine.services.coordination.completeTask(done.id, agent, { cited_nodes: [A] });
  if (round === 1) await engine.services.conflicts.open({ a: A, b: C, actor: { kind: 'human', id: null }, evidence: { rule: 'test' } });
  await engine.services.governance.proposals.create(agent, { path: `proposals/p${round}.md`, mode: 'create', fields: { title: `p${round}` }, content: `proposed ${round}\n` }, { namespace: 'proposals', title: `p${round}` });
}

/** What must survive: learned memory, coordination, receipts and the audit trail. */
export async function learnedState(engine: MemoryEngine) {
  const m = engine.services.learning.memory;
  const c = engine.services.coordination;
  return {
    edges: m.edges.find({}).map((e) => ({ id: e.edge_id, type: e.type, weight: e.weight, state: e.conflict_state })),
    stats: m.stats.all(),
    counts: m.counts(),
    conflicts: engine.services.conflicts.list().length,
    agents: c.agents().map((a) => a.id),
    tasks: c.tasks({ limit: 1000 }).map((t) => ({ id: t.id, status: t.status })),
    receipts: (await engine.services.retrieval.receipts.query({ limit: 10_000 })).receipts.length,
    audit_entries: (await engine.services.governance.audit.verify()).entries,
    proposals: (await engine.services.governance.proposals.list()).proposals.length,
  };
}

export type Exit = 'clean' | 'kill';

/**
 * Two sessions over one `.lithos/`: the first closes cleanly; the second either closes cleanly too or is
 * killed (its blobs copied without close or flush) after one checkpoint in the middle of its work.
 */
export async function twoSessions(exit: Exit): Promise<{ blobs: MemoryBlobStore; h: Harness }> {
  const first = await openHarness(FILES);
  await first.engine.reconcile();
  await useVault(first.engine, 1);
  await first.engine.close();
  const h = await openHarness({}, { vault: first.vault, blobs: first.blobs, clock: first.clock });
  await h.engine.reconcile();
  await useVault(h.engine, 2);
  if (exit === 'clean') {
    await h.engine.close();
    return { blobs: h.blobs.clone(), h };
  }
  await h.engine.flush();
  await useVault(h.engine, 3);
  return { blobs: h.blobs.clone(), h };
}
