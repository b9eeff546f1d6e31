import { LithosError } from '../errors';
import type { EdgeRow, NodeStats, PrecedentRow } from './memory-types';

/** Argument checks for memory-store mutations (every facade): bad input is refused before anything is written. */

export function nonEmpty(field: string, value: unknown): void {
  if (typeof value !== 'string' || value === '') {
    throw new LithosError('invalid_argument', `${field} must be a non-empty string.`, { field, value });
  }
}

function finite(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new LithosError('invalid_argument', `${field} must be a finite number.`, { field, value });
  }
}

export function checkEdge(e: Omit<EdgeRow, 'edge_id' | 'created_at' | 'updated_at'> & { edge_id?: string }, provenance: readonly string[]): void {
  if (e.edge_id !== undefined) nonEmpty('edge_id', e.edge_id);
  nonEmpty('from_id', e.from_id);
  nonEmpty('to_id', e.to_id);
  nonEmpty('type', e.type);
  nonEmpty('namespace', e.namespace);
  nonEmpty('provenance_actor', e.provenance_actor);
  finite('weight', e.weight);
  if (!provenance.includes(e.provenance_type)) {
    throw new LithosError('invalid_argument', `provenance_type must be one of ${provenance.join(', ')}.`, { value: e.provenance_type });
  }
  if (e.conflict_state !== null && e.conflict_state !== undefined && typeof e.conflict_state !== 'string') {
    throw new LithosError('invalid_argument', 'conflict_state must be a string or null.', { value: e.conflict_state });
  }
  if (e.evidence !== undefined && e.evidence !== null) {
    let text: string | undefined;
    try {
      text = JSON.stringify(e.evidence);
    } catch {
      text = undefined;
    }
    if (text === undefined) throw new LithosError('invalid_argument', 'evidence must be JSON-serialisable.');
  }
}

const COUNTS = ['retrieval_count', 'use_count', 'ignored_count', 'misleading_count'] as const;
const REALS = ['salience', 'spaced_rep_strength'] as const;
const TIMES = ['last_retrieved_at', 'last_used_at'] as const;

/** Validates a stats patch and returns it without keys whose value is undefined. */
export function checkStatsPatch(patch: Partial<Omit<NodeStats, 'node_id'>>): Partial<Omit<NodeStats, 'node_id'>> {
  const out: Partial<Record<string, unknown>> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    if ((COUNTS as readonly string[]).includes(k)) {
      if (!Number.isInteger(v) || (v as number) < 0) throw new LithosError('invalid_argument', `${k} must be a non-negative integer.`, { value: v });
    } else if ((REALS as readonly string[]).includes(k)) {
      finite(k, v);
    } else if ((TIMES as readonly string[]).includes(k)) {
      if (v !== null) finite(k, v);
    } else if (k === 'per_queryclass_priors') {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.values(v).every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new LithosError('invalid_argument', 'per_queryclass_priors must map query classes to finite numbers.', { value: v });
      }
    } else {
      throw new LithosError('invalid_argument', `Unknown stats field "${k}".`, { field: k });
    }
    out[k] = v;
  }
  return out;
}

const stringArray = (field: string, v: unknown): void => {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x !== '')) {
    throw new LithosError('invalid_argument', `${field} must be a list of non-empty strings.`, { field, value: v });
  }
};

export function checkPrecedent(p: PrecedentRow): void {
  nonEmpty('precedent_id', p.precedent_id);
  nonEmpty('query_class', p.query_class);
  finite('at', p.at);
  if (typeof p.query_text !== 'string') throw new LithosError('invalid_argument', 'query_text must be a string.', { value: p.query_text });
  if (p.agent_id !== null && (typeof p.agent_id !== 'string' || p.agent_id === '')) {
    throw new LithosError('invalid_argument', 'agent_id must be a non-empty string or null.', { value: p.agent_id });
  }
  stringArray('terms', p.terms);
  stringArray('used', p.used);
}
