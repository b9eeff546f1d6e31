import { guardDispatcher } from '../../plugin/bridge-host/tool-guard';
import type { InterpretRequest, Interpretation, Interpreter } from '../../shared/retrieval/terrace2';
import type { CallOptions, ToolCaller, ToolDef, ToolDispatcher } from '../../shared/tools/types';

/** The settings guard in front of the host's dispatcher must not drop what a call carries besides its arguments. */
class Recording implements ToolDispatcher {
  readonly seen: (CallOptions | undefined)[] = [];
  list(): readonly ToolDef[] {
    return [];
  }
  async call(_name: string, _args: unknown, _caller: ToolCaller, opts?: CallOptions): Promise<unknown> {
    this.seen.push(opts);
    return null;
  }
}

const interpreter: Interpreter = {
  interpret: async (_req: InterpretRequest): Promise<Interpretation> => ({ selected: [], bridges: [], confidence: 0, follow_up_queries: [] }),
};

test("a call's per-call interpreter passes through the guard to the dispatcher it guards", async () => {
  const inner = new Recording();
  const guarded = guardDispatcher(inner, () => ({ readOnly: false, disabledTools: [] }));
  await guarded.call('lithos_retrieve', {}, { kind: 'agent', agent_id: 'a' }, { interpreter });
  await guarded.call('lithos_retrieve', {}, { kind: 'agent', agent_id: 'b' });
  expect(inner.seen).toEqual([{ interpreter }, undefined]);
});
