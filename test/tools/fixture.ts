import { createDispatcher } from '../../shared/tools/dispatcher';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import type { ToolCaller, ToolDispatcher } from '../../shared/tools/types';
import { openHarness, note, type Harness } from '../engine/harness';

export const AGENT: ToolCaller = { kind: 'agent', agent_id: 'agent-a' };
export const OTHER: ToolCaller = { kind: 'agent', agent_id: 'agent-b' };
export const HUMAN: ToolCaller = { kind: 'human', agent_id: null };

export const POOL_ID = '6f2a7c1e-2b4d-4c8e-9f10-1a2b3c4d5e6f';
export const INDEX_ID = '0b7e3c52-8a41-4f6e-9d2c-3e4f5a6b7c8d';
export const SECRET_ID = '9c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';

/** A small vault: a project folder with links, a shared concept, a broken link, and agent-b's private note. */
export const FIXTURE: Record<string, string> = {
  'project/atlas/Pool sizing.md': note(
    { id: POOL_ID, title: 'Pool sizing', tags: ['atlas', 'latency'], author: 'agent-a', updated_at: '2024-05-02T10:00:00Z' },
    '# Pool sizing\nThe connection pool was too small for the nightly batch. See [[Index]] and [[Missing note]].\n\n## Fix\nRaise the pool to 40 connections.\n',
  ),
  'project/atlas/Index.md': note(
    { id: INDEX_ID, note_type: 'concept', tags: ['atlas'], updated_at: '2024-04-01T10:00:00Z' },
    'The missing index caused the latency regression in the connection pool. Back to [[Pool sizing]].\n',
  ),
  'shared/concepts/Connection pooling.md': note({ tags: ['concept'], aliases: ['pooling'] }, 'Connection pooling reuses database connections across requests.\n'),
  'agent/agent-b/Secret plan.md': note(
    { id: SECRET_ID, access_scope: 'agent_private', author: 'agent-b', tags: ['secret'] },
    'Private scratch of agent b about the connection pool: the pool secret is zebra.\n[[Pool sizing]]\n',
  ),
};

export interface ToolHarness extends Harness {
  tools: ToolDispatcher;
  call(name: string, args: unknown, caller?: ToolCaller): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON results, checked by assertions
  snapshot(): Record<string, string | undefined>;
}

/** The catalog over an in-memory vault, called through the dispatcher as the MCP server calls it. */
export async function openTools(files: Record<string, string> = FIXTURE): Promise<ToolHarness> {
  const h = await openHarness(files);
  // agent-a, the author of Pool sizing, is an agent the vault knows: that note is an agent's, the notes without
  // an author the person's. (agent-b registers itself on its first call, as the coordination specs expect.)
  await h.engine.services.coordination.ensureAgent(AGENT.agent_id!);
  await h.engine.reconcile();
  const tools = createDispatcher(TOOL_CATALOG, () => ({ gateway: h.engine, deleteTo: 'trash_folder' }));
  return {
    ...h,
    tools,
    call: (name, args, caller = AGENT) => tools.call(name, args, caller),
    snapshot: () => Object.fromEntries(h.vault.paths().map((p) => [p, h.vault.text(p)])),
  };
}
