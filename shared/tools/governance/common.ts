import type { Proposal } from '../../governance/proposals';
import { boundJson, clipText } from '../text-budget';

/** A proposal as tools return it: what it would write, and what became of it. */
export function proposalJson(p: Proposal): Record<string, unknown> {
  // What the agent proposed can be a whole note: content and fields are cut (`truncated`); content_chars is its length.
  const content = p.request.content ?? null;
  const fields = boundJson(p.request.fields);
  const cut = fields.truncated || (content !== null && clipText(content) !== content);
  return {
    proposal_id: p.proposal_id,
    status: p.status,
    agent: p.agent,
    created_at: p.created_at,
    path: p.path,
    namespace: p.namespace,
    title: p.title,
    op: p.op ?? 'write',
    why: p.why ?? 'namespace',
    mode: p.request.mode,
    expected_version: p.request.expectedVersion ?? null,
    content: content === null ? null : clipText(content),
    content_chars: content?.length ?? 0,
    fields: fields.value,
    decided_at: p.decided_at,
    decided_by: p.decided_by,
    reason: p.reason,
    result: p.result,
    ...(cut ? { truncated: true } : {}),
  };
}
