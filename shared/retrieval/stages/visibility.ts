/** Stage 1 of retrieve(): the scope gate every scout and every returned id goes through, bound to one viewer. */
import { gateFor, viewerKey, type Viewer } from '../../governance/gate';
import { ALLOW_ALL, type Gate, type ResolvedQuery, type RetrievalCorpus } from '../types';
import { isGeneratedPage } from '../../ledger/generated-pages';

/**
 * Whether the viewer may see a note (quarantined notes never; the engine's own pages never — the graveyard, read
 * through a stub's pointer, and the briefing and timeline: ledger/generated-pages.ts), cached per id for this retrieval.
 */
export function visibilityGate(viewer: Viewer, q: ResolvedQuery, corpus: RetrievalCorpus): Gate {
  const gate = gateFor(viewer, q.namespaces);
  const seen = new Map<string, boolean>();
  const check = (id: string): boolean => {
    let v = seen.get(id);
    if (v === undefined) {
      const n = corpus.note(id);
      v = !!n && n.status !== 'quarantined' && !isGeneratedPage(n) && gate(n);
      seen.set(id, v);
    }
    return v;
  };
  // Most vaults hold only shared notes: then only notes that exist pass, and the index need not
  // consult the gate note by note (ALLOW_ALL). Any restricted note, or a namespace filter, uses the gate.
  // Hidden folders hide notes whatever their scope: the restricted-set shortcut does not cover them.
  const restricted = viewer.kind === 'agent' && viewer.hidden_folders?.length ? undefined : corpus.restricted?.();
  const visible: Gate =
    restricted && restricted.size === 0 && q.namespaces.length === 0 ? ALLOW_ALL : restricted && q.namespaces.length === 0 ? (id) => !restricted.has(id) || check(id) : check;
  if (visible !== ALLOW_ALL) visible.cacheKey = JSON.stringify([viewerKey(viewer), q.namespaces]);
  return visible;
}
