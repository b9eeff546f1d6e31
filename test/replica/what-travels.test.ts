import { MemoryStore } from '../../shared/stores/memory-store';
import { CODECS } from '../../shared/replica/codecs';
import { env } from '../stores/helpers';

/**
 * Spec (issue 22): every table of memory.sqlite either travels between devices (it has a codec) or is local
 * for a stated reason. A new learned table fails here until its author decides (docs/devices.md#what-travels).
 */
const TRAVELS: Record<string, string> = {
  node_stats: 'stats',
  edges: 'edge',
  coactivation: 'coact',
  query_expansion: 'qexp',
  ignored_terms: 'ignored',
  ledger_phases: 'phase',
  note_editors: 'editor',
  tag_affinity: 'affinity',
  term_assoc: 'assoc',
  precedents: 'precedent',
  learning_marks: 'mark', // the decay and git marks only: the others are this device's bookkeeping
  target_aliases: 'alias',
  events: 'event',
  event_links: 'event', // an event's links travel with it
};
const LOCAL: Record<string, string> = {
  nodes: 'each device registers the notes it has; rows travel under portable keys instead',
  meta: 'the file\'s own schema version and journal position',
  replica_shares: 'the exchange itself',
  replica_devices: 'the exchange itself',
};

test('every memory.sqlite table travels or is local on purpose', async () => {
  const { store } = await MemoryStore.open(await env());
  const tables = store.replica.db
    .all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .map((r) => String(r[0]));
  expect(tables.sort()).toEqual([...Object.keys(TRAVELS), ...Object.keys(LOCAL)].sort());
  const codecs = new Set(CODECS.map((c) => c.t));
  for (const t of new Set(Object.values(TRAVELS))) expect(codecs).toContain(t);
  await store.close();
});
