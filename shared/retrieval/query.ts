import { LithosError } from '../errors';
import { tokenize } from '../index/tokenizer';
import { DEFAULT_K, MAX_K, MAX_QUERY_CHARS } from './constants';
import { DEFAULT_QUERY_CLASS, INTENTS, type Intent, type QueryContext, type ResolvedQuery } from './types';

function optionalString(name: string, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new LithosError('invalid_argument', `${name} must be a string.`, { [name]: v });
  const t = v.trim();
  return t === '' ? null : t;
}

/** Validates a QueryContext and applies defaults; every problem is an invalid_argument naming the field. */
export function resolveQuery(ctx: QueryContext): ResolvedQuery {
  if (!ctx || typeof ctx !== 'object') throw new LithosError('invalid_argument', 'The query context must be an object.');
  if (typeof ctx.query_text !== 'string') {
    throw new LithosError('invalid_argument', 'query_text must be a string.', { query_text: ctx.query_text });
  }
  const text = ctx.query_text.trim().slice(0, MAX_QUERY_CHARS);
  const k = ctx.max_context_nodes ?? DEFAULT_K;
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) {
    throw new LithosError('invalid_argument', `max_context_nodes must be an integer from 1 to ${MAX_K} (got ${String(k)}).`, { max_context_nodes: k });
  }
  let intent: Intent | null = null;
  if (ctx.intent !== undefined && ctx.intent !== null) {
    if (!INTENTS.includes(ctx.intent)) {
      throw new LithosError('invalid_argument', `intent must be one of ${INTENTS.join(', ')} (got "${String(ctx.intent)}").`, { intent: ctx.intent });
    }
    intent = ctx.intent;
  }
  const ns = ctx.namespace_filter ?? [];
  if (!Array.isArray(ns) || ns.some((n) => typeof n !== 'string')) {
    throw new LithosError('invalid_argument', 'namespace_filter must be a list of strings.', { namespace_filter: ns });
  }
  const queryClass = (optionalString('query_class', ctx.query_class) ?? DEFAULT_QUERY_CLASS).toLowerCase();
  return {
    text,
    terms: [...new Set(tokenize(text))],
    query_class: queryClass,
    intent,
    namespaces: ns.map((n) => n.trim().replace(/\/+$/, '')).filter((n) => n !== ''),
    agent_id: optionalString('agent_id', ctx.agent_id),
    task_id: optionalString('task_id', ctx.task_id),
    k,
  };
}
