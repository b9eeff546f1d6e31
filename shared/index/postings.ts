/** One document's bag of words: term ids ascending with their raw counts. */
export interface DocTerms {
  ids: Uint32Array;
  tfs: Uint16Array;
  length: number;
}

/**
 * Term → documents, for scoring. A flat snapshot (CSR: one Int32Array of doc ids grouped by term) built in
 * one pass over the documents' term bags when first needed, plus per-term sets for documents inserted
 * after it. Orama's radix tree used to hold the postings as one Set per term; filling those sets was
 * ~2 s of a 10k-note warm start (one Set.add per (term, document)), the snapshot takes ~50 ms.
 *
 * A snapshot entry counts only while the document still has the very term bag the snapshot was built
 * from (an upsert replaces the bag object, a removal clears it), so removals never touch the snapshot.
 */
export interface Postings {
  /** term id → start of its doc ids in `ids`; offsets[tid + 1] ends them */
  offsets: Int32Array;
  ids: Int32Array;
  /** internal doc id → the term bag the snapshot was built from */
  bags: readonly (DocTerms | undefined)[];
  /** term id → documents inserted after the snapshot */
  delta: (Set<number> | undefined)[];
  /** (term, document) pairs inserted or removed since the snapshot: how far it has drifted */
  deltaPairs: number;
}

/** Snapshot of the current bags; doc ids ascend within each term. */
export function buildPostings(bags: readonly (DocTerms | undefined)[], termCount: number): Postings {
  const offsets = new Int32Array(termCount + 1);
  for (let doc = 0; doc < bags.length; doc++) {
    const ids = bags[doc]?.ids;
    if (ids) for (let i = 0; i < ids.length; i++) offsets[ids[i] + 1]++;
  }
  for (let t = 0; t < termCount; t++) offsets[t + 1] += offsets[t];
  const cursor = offsets.slice(0, termCount);
  const flat = new Int32Array(offsets[termCount]);
  for (let doc = 0; doc < bags.length; doc++) {
    const ids = bags[doc]?.ids;
    if (ids) for (let i = 0; i < ids.length; i++) flat[cursor[ids[i]]++] = doc;
  }
  return { offsets, ids: flat, bags: bags.slice(), delta: [], deltaPairs: 0 };
}

/** Records a document inserted after the snapshot. */
export function addToDelta(p: Postings, doc: number, bag: DocTerms): void {
  for (let i = 0; i < bag.ids.length; i++) {
    const tid = bag.ids[i];
    let set = p.delta[tid];
    if (!set) p.delta[tid] = set = new Set();
    set.add(doc);
  }
  p.deltaPairs += bag.ids.length;
}

export function removeFromDelta(p: Postings, doc: number, bag: DocTerms): void {
  for (let i = 0; i < bag.ids.length; i++) p.delta[bag.ids[i]]?.delete(doc);
  p.deltaPairs += bag.ids.length;
}

/**
 * Rebuilding is worth it once changes outweigh a fraction of the snapshot: late inserts sit in Sets (~10x
 * the cost of a flat entry) and removed documents leave dead entries every query skips.
 */
export function isStale(p: Postings): boolean {
  return p.deltaPairs > 4096 && p.deltaPairs * 4 > p.ids.length;
}

/** Calls `visit` once per live document holding term `tid`, with its current bag. */
export function forEachPosting(
  p: Postings,
  bags: readonly (DocTerms | undefined)[],
  tid: number,
  visit: (doc: number, bag: DocTerms) => void,
): void {
  const { ids, offsets, bags: snap } = p;
  if (tid + 1 < offsets.length) {
    for (let i = offsets[tid], end = offsets[tid + 1]; i < end; i++) {
      const doc = ids[i];
      const bag = bags[doc];
      if (bag !== undefined && bag === snap[doc]) visit(doc, bag);
    }
  }
  const late = p.delta[tid];
  if (late) {
    for (const doc of late) {
      const bag = bags[doc];
      if (bag !== undefined) visit(doc, bag);
    }
  }
}
