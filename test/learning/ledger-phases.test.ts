import { note, openHarness, type Harness } from '../engine/harness';
import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { PHASE_RULES } from '../../shared/model/phases';

/**
 * The ledger's phases and vitality kept from use (learning/ledger-phases.ts): feedback and consolidation
 * move an entry pattern → emergent → canonical by the rules, each step stored in memory.sqlite and audited;
 * a retrieval alone changes nothing; a superseded entry leaves canonical when its note changes.
 */

const DEC = '0000000d-0000-4000-8000-000000000001';
const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
/** The fake clock's start: the decision is written then. */
const START = Date.UTC(2026, 0, 1);

/** A decision and three notes that link to it (its removal cost: 3 / (3 + 2) = 0.6 > 0.5). */
function files(): Record<string, string> {
  const out: Record<string, string> = {
    'decisions/Session store.md': note(
      { id: DEC, title: 'Session store', note_type: 'decision', target: 'auth-service/session-store', state: 'active', created_at: new Date(START).toISOString() },
      'Keep login sessions in Redis: the session store must survive a restart of one auth node.\n',
    ),
  };
  for (const i of [1, 2, 3]) out[`notes/runbook ${i}.md`] = note({ title: `Runbook ${i}` }, `Runbook step ${i} for the auth nodes relies on [[Session store]].\n`);
  return out;
}

let h: Harness;
beforeEach(async () => {
  h = await openHarness(files());
  await h.engine.reconcile();
});
afterEach(async () => {
  await h.engine.close();
});

const learning = () => h.engine.services.learning;
const phaseRow = () => learning().memory.phases.get(DEC);
const audits = async (action: string) => (await h.engine.services.governance.audit.recent({ action, target: DEC })).reverse();

/** A recorded retrieval that returns the decision; its receipt id. */
async function retrieve(): Promise<string> {
  const r = await h.engine.services.retrieval.retrieve({ query_text: 'session store redis auth', agent_id: 'agent-a' }, { jitter: false, seed: 1 });
  expect(r.nodes.map((n) => n.id)).toContain(DEC);
  return r.receipt_id!;
}

/** One use of the decision: retrieved, then cited. */
async function use(): Promise<void> {
  await learning().feedback({ receipt_id: await retrieve(), cited: [DEC], agent: 'agent-a' });
}

describe('from pattern to canonical by use', () => {
  test('a new entry is a pattern; two uses more than half a day apart make it emergent; consolidation then makes it canonical', async () => {
    expect(learning().ledger.standing(h.engine.services.notes.note(DEC)!)).toMatchObject({ phase: 'pattern', vitality: 'active' });

    await use();
    expect(phaseRow()).toMatchObject({ phase: 'pattern', first_used_at: h.clock.now() });

    h.clock.advance(PHASE_RULES.emergent_lived_days * DAY + HOUR);
    await use();
    const start = h.clock.now();
    expect(phaseRow()).toMatchObject({ phase: 'emergent', phase_since: start });
    const [toEmergent] = await audits('ledger.phase');
    expect(toEmergent).toMatchObject({ actor: { kind: 'agent', id: 'agent-a' }, data: { from: 'pattern', to: 'emergent', seen: 2, confidence: 1 } });

    h.clock.advance(HOUR);
    await learning().consolidator.run({});
    expect(phaseRow()).toMatchObject({ phase: 'canonical', phase_since: h.clock.now() });
    expect((await audits('ledger.phase')).map((e) => e.data.to)).toEqual(['emergent', 'canonical']);
    const last = (await audits('ledger.phase'))[1].data;
    expect(last).toMatchObject({ coverage: 1, stability: 1, removal_cost: 0.6, vitality: 'active' });
  });

  test('used only once, however long ago, it stays a pattern', async () => {
    await use();
    h.clock.advance(3 * DAY);
    await learning().consolidator.run({});
    expect(phaseRow()?.phase).toBe('pattern');
  });

  test('retrieval alone never changes a phase, however often', async () => {
    for (let i = 0; i < 6; i++) {
      await retrieve();
      h.clock.advance(DAY);
    }
    // The engine writing the entry's ledger ID into it is a change of the note, which evaluates it once: a
    // pattern with no use. Six retrievals move nothing.
    expect(phaseRow() ?? { phase: 'pattern', first_used_at: null }).toMatchObject({ phase: 'pattern', first_used_at: null });
    expect(learning().memory.stats.get(DEC)).toMatchObject({ retrieval_count: 6, use_count: 0 });
    expect(await audits('ledger.phase')).toEqual([]);
  });
});

describe('vitality and leaving canonical', () => {
  async function canonical(): Promise<void> {
    await use();
    h.clock.advance(DAY);
    await use();
    await learning().consolidator.run({});
    expect(phaseRow()?.phase).toBe('canonical');
  }

  test('unused for more than 30 days it is dormant, still canonical; the fall is audited', async () => {
    await canonical();
    h.clock.advance(31 * DAY);
    await learning().consolidator.run({});
    expect(phaseRow()).toMatchObject({ phase: 'canonical', vitality: 'dormant' });
    expect((await audits('ledger.vitality')).map((e) => [e.data.from, e.data.to])).toEqual([['active', 'dormant']]);
    const standing = learning().ledger.standing(h.engine.services.notes.note(DEC)!)!;
    expect(standing).toMatchObject({ vitality: 'dormant', effective_confidence: 0.8 });
    // The note's own confidence is not rewritten.
    expect(h.vault.text('decisions/Session store.md')).not.toContain('confidence');
  });

  test('superseded, it leaves canonical as soon as its note changes', async () => {
    await canonical();
    const path = 'decisions/Session store.md';
    await h.engine.services.notes.updateFrontmatter(path, (fm) => {
      fm.state = 'superseded';
    });
    await learning().stop(); // waits for the evaluation the change queued
    expect(phaseRow()?.phase).toBe('emergent');
    expect((await audits('ledger.phase')).map((e) => e.data.to)).toEqual(['emergent', 'canonical', 'emergent']);
  });
});

test('lithos_read shows a ledger entry its phase and vitality; other notes show neither', async () => {
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  const agent = { kind: 'agent' as const, agent_id: 'agent-a' };
  const read = (await tools.call('lithos_read', { id: DEC }, agent)) as Record<string, unknown>;
  expect(read).toMatchObject({ phase: 'pattern', vitality: 'active', effective_confidence: 1 });
  const other = (await tools.call('lithos_read', { path: 'notes/runbook 1.md' }, agent)) as Record<string, unknown>;
  expect(other).not.toHaveProperty('phase');
  expect(other).not.toHaveProperty('vitality');
});
