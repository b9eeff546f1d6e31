/**
 * Concepts: stable clusters of notes that keep being used together, made into `note_type: concept` notes.
 *
 * Detection (deterministic): the co-activation graph keeps only pairs used together at least
 * CONCEPT_MIN_COACTIVATION times (counts summed over namespaces). Clusters are greedy cliques in it: the
 * node with the most strong pairs seeds a clique, which grows by the node with the largest total count to
 * every member (it must be strongly paired with each one), up to CONCEPT_MAX_SIZE; a clique of at least
 * CONCEPT_MIN_SIZE is a candidate and its members leave the graph. A candidate must also be dense in
 * embedding space: the mean pairwise cosine of its members' note vectors must exceed the vault's baseline
 * (mean pairwise cosine of an evenly spaced sample of notes) by CONCEPT_DENSITY_MARGIN — co-use alone can
 * join notes that merely sit side by side in one workflow.
 *
 * Who may read a concept note must be able to read every member it lists and quotes. So only active
 * `shared` notes (outside hidden folders: every agent reads them, keyless ones included) and `project` notes
 * take part, and two notes pair up only when one is shared or both are project notes of the same namespace:
 * a cluster holds project notes of one namespace at most, and its concept note gets that namespace and
 * `project` scope (else `shared`). A note of another scope in a shared-pattern namespace does not count as
 * shared: an agent without its key reads shared-scope notes only, and would read a shared concept listing
 * it. Members a concept's readers may no longer read (a scope narrowed since) are left out of its list and
 * summary (holds(), governance/audience.ts).
 *
 * Identity: a cluster updates the existing concept whose members (its `is_example_of` sources) cover at
 * least CONCEPT_MATCH_OVERLAP of the cluster, or a concept of the same name whose members have all faded;
 * otherwise a new note is created under `concepts/`. Members are only added (decay prunes rule edges
 * nobody uses; a member seen in its cluster again has its edge renewed), listed in a managed block of the
 * note's body, and linked member → concept with `is_example_of` edges (provenance rule).
 */
import type { LearningPorts } from './learning-ports';
import type { AuditActor } from '../governance/audit';
import type { LiveNote } from '../vault/note-indexer';
import { gatedNote } from '../governance/gate';
import { noAgentReads } from '../governance/audience';
import { tokenize } from '../index/tokenizer';
import { stripMd } from '../model/paths';
import { CONCEPT_SALIENCE_CEILING } from '../retrieval/constants';

export const CONCEPT_MIN_SIZE = 5;
export const CONCEPT_MIN_COACTIVATION = 3;
export const CONCEPT_MAX_SIZE = 25;
/** Members' mean pairwise cosine must exceed the vault baseline by this much. */
export const CONCEPT_DENSITY_MARGIN = 0.05;
/** Notes sampled (evenly over sorted ids) for the baseline. */
export const DENSITY_BASELINE_SAMPLE = 200;
/** A cluster updates a concept already holding this share of its members. */
export const CONCEPT_MATCH_OVERLAP = 0.5;
export const IS_EXAMPLE_OF_WEIGHT = 0.7;
export const CONCEPT_FOLDER = 'concepts';
/** What concept maintenance uses. */
export type ConceptPorts = Pick<LearningPorts, 'notes' | 'search' | 'memory' | 'policy' | 'governance' | 'audit'>;

export const CONCEPT_RULE: AuditActor = { kind: 'rule', id: 'concepts' };

export const MEMBERS_START = '<!-- lithos:concept-members (managed by Lithos; edit outside this block) -->';
export const MEMBERS_END = '<!-- /lithos:concept-members -->';

export interface ConceptReport {
  created: string[];
  updated: string[];
  members_linked: number;
  /** Clusters found in co-activation but too loose in embedding space. */
  rejected_sparse: number;
}

/** Who reads a candidate member: every agent, the agents covering one project namespace, or null (not a candidate). */
function audienceOf(d: Pick<LearningPorts, 'policy'>, n: LiveNote): string | null {
  const m = n.cached.meta;
  if (m.status !== 'active' || m.note_type === 'concept') return null;
  if (noAgentReads(d.policy.get(), gatedNote(n))) return null;
  // Not by allowlists: a concept note outlives a policy change, so project notes are grouped by namespace.
  if (m.access_scope === 'shared') return EVERYONE;
  return m.access_scope === 'project' ? `project:${m.namespace}` : null;
}
const EVERYONE = 'everyone';

/**
 * Whether `concept` may list `member`: every reader of the concept may read it (audience.ts), and a shared
 * concept — read by keyless agents too, who see shared notes only — lists shared notes only.
 */
function holds(d: Pick<LearningPorts, 'governance'>, concept: LiveNote, member: LiveNote): boolean {
  return d.governance.readersMaySee(concept, member) && (concept.cached.meta.access_scope !== 'shared' || member.cached.meta.access_scope === 'shared');
}

/** Two members may share a concept note: one is read by every agent, or both by the same agents. */
function compatible(a: string, b: string): boolean {
  return a === EVERYONE || b === EVERYONE || a === b;
}

/** Strong co-activation pairs among eligible notes: id → (other → summed count ≥ the minimum). */
export function strongPairs(d: Pick<LearningPorts, 'notes' | 'memory'>, ok: (id: string) => boolean, pairOk: (a: string, b: string) => boolean = () => true): Map<string, Map<string, number>> {
  const adj = new Map<string, Map<string, number>>();
  for (const n of d.notes.notes()) {
    const id = n.nodeId;
    if (!ok(id)) continue;
    const sums = new Map<string, number>();
    for (const c of d.memory.coactivation.of(id)) if (ok(c.other) && pairOk(id, c.other)) sums.set(c.other, (sums.get(c.other) ?? 0) + c.count);
    for (const [other, count] of sums) {
      if (count < CONCEPT_MIN_COACTIVATION) continue;
      let m = adj.get(id);
      if (!m) adj.set(id, (m = new Map<string, number>()));
      m.set(other, count);
    }
  }
  return adj;
}

/** Greedy cliques of at least CONCEPT_MIN_SIZE (module comment); deterministic. */
export function findClusters(adj: ReadonlyMap<string, ReadonlyMap<string, number>>): string[][] {
  const left = new Set(adj.keys());
  const degree = (id: string): number => [...(adj.get(id)?.keys() ?? [])].filter((o) => left.has(o)).length;
  const clusters: string[][] = [];
  const tried = new Set<string>();
  for (;;) {
    const seeds = [...left].filter((id) => !tried.has(id) && degree(id) >= CONCEPT_MIN_SIZE - 1);
    if (seeds.length === 0) break;
    seeds.sort((a, b) => degree(b) - degree(a) || (a < b ? -1 : 1));
    const seed = seeds[0];
    tried.add(seed);
    const clique = [seed];
    for (;;) {
      if (clique.length >= CONCEPT_MAX_SIZE) break;
      let best: string | null = null;
      let bestSum = -1;
      for (const c of adj.get(seed)?.keys() ?? []) {
        if (!left.has(c) || clique.includes(c)) continue;
        let sum = 0;
        let all = true;
        for (const m of clique) {
          const w = adj.get(c)?.get(m);
          if (w === undefined) {
            all = false;
            break;
          }
          sum += w;
        }
        if (all && (sum > bestSum || (sum === bestSum && best !== null && c < best))) {
          best = c;
          bestSum = sum;
        }
      }
      if (best === null) break;
      clique.push(best);
    }
    if (clique.length >= CONCEPT_MIN_SIZE) {
      clusters.push(clique.sort());
      for (const id of clique) left.delete(id);
    }
  }
  return clusters;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Mean pairwise cosine of the notes' vectors (unit length); null with fewer than two vectors. */
export function meanPairwiseCosine(vectors: readonly Float32Array[]): number | null {
  if (vectors.length < 2) return null;
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < vectors.length; i++) {
    for (let j = i + 1; j < vectors.length; j++) {
      sum += dot(vectors[i], vectors[j]);
      pairs++;
    }
  }
  return sum / pairs;
}

/** The vault's baseline density: mean pairwise cosine over an evenly spaced sample of eligible notes. */
export function baselineDensity(d: Pick<LearningPorts, 'search'>, ids: readonly string[]): number {
  const sorted = [...ids].sort();
  const step = Math.max(1, sorted.length / DENSITY_BASELINE_SAMPLE);
  const vectors: Float32Array[] = [];
  for (let i = 0; i < sorted.length && vectors.length < DENSITY_BASELINE_SAMPLE; i += step) {
    const v = d.search.noteVector(sorted[Math.floor(i)]);
    if (v) vectors.push(v);
  }
  return meanPairwiseCosine(vectors) ?? 0;
}

/** A label from what members share: tags carried by at least half of them, else common title words. */
export function conceptLabel(members: readonly LiveNote[]): string {
  const half = members.length / 2;
  const tagCount = new Map<string, { n: number; shown: string }>();
  for (const m of members) {
    for (const t of new Set(m.cached.meta.tags.map((x) => x.toLowerCase()))) {
      if (t === 'concept') continue;
      const shown = m.cached.meta.tags.find((x) => x.toLowerCase() === t) ?? t;
      tagCount.set(t, { n: (tagCount.get(t)?.n ?? 0) + 1, shown: tagCount.get(t)?.shown ?? shown });
    }
  }
  const tags = [...tagCount.entries()].filter(([, v]) => v.n >= half).sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1));
  if (tags.length) return tags.slice(0, 2).map(([, v]) => v.shown.replace(/\//g, ' ')).join(' and ');
  const words = new Map<string, number>();
  for (const m of members) for (const w of new Set(tokenize(m.cached.meta.title || stripMd(m.path)))) if (!/^\d+$/.test(w)) words.set(w, (words.get(w) ?? 0) + 1);
  const top = [...words.entries()].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return top.length ? top.slice(0, 3).map(([w]) => w).join(' ') : 'related notes';
}

/** The longest namespace prefix (whole segments) every member shares; `shared` when none. */
export function commonNamespace(members: readonly LiveNote[]): string {
  const parts = members.map((m) => m.cached.meta.namespace.split('/'));
  const out: string[] = [];
  for (let i = 0; i < parts[0].length; i++) {
    const seg = parts[0][i];
    if (parts.every((p) => p[i] === seg)) out.push(seg);
    else break;
  }
  return out.join('/') || 'shared';
}

/** The managed members block: one wiki-link per member, by path (unambiguous), shown by title. */
export function membersBlock(members: readonly LiveNote[]): string {
  const lines = [...members]
    .sort((a, b) => (a.path < b.path ? -1 : 1))
    .map((m) => `- [[${stripMd(m.path)}|${(m.cached.meta.title || stripMd(m.path)).replace(/[|\]]/g, ' ')}]]`);
  return `${MEMBERS_START}\n${lines.join('\n')}\n${MEMBERS_END}`;
}

/** The body with its managed block replaced (or appended); text outside the block is untouched. */
export function withMembersBlock(body: string, block: string): string {
  const start = body.indexOf(MEMBERS_START);
  const end = body.indexOf(MEMBERS_END);
  if (start >= 0 && end > start) return body.slice(0, start) + block + body.slice(end + MEMBERS_END.length);
  const sep = body === '' ? '' : body.endsWith('\n\n') ? '' : body.endsWith('\n') ? '\n' : '\n\n';
  return `${body}${sep}${block}\n`;
}

/** Members of a concept note: the sources of its `is_example_of` edges that are live notes. */
export function conceptMembers(d: Pick<LearningPorts, 'memory' | 'notes'>, conceptId: string): string[] {
  return d.memory
    .edges.find({ to: conceptId, type: 'is_example_of' })
    .map((e) => e.from_id)
    .filter((id) => d.notes.note(id)?.nodeId === id);
}

/** `concepts/<label>` without the extension. */
function conceptBase(label: string): string {
  return `${CONCEPT_FOLDER}/${label.replace(/[\\/:*?"<>|#^[\]]/g, ' ').replace(/\s+/g, ' ').trim() || 'Concept'}`;
}

/** `concepts/<label>.md`, or `… 2.md`, … when that path already holds a note. */
function freePath(d: Pick<LearningPorts, 'notes'>, label: string): string {
  const base = conceptBase(label);
  for (let n = 1; ; n++) {
    const p = n === 1 ? `${base}.md` : `${base} ${n}.md`;
    if (d.notes.note(p)?.path !== p) return p;
  }
}

/** Detects clusters and creates or updates their concept notes and edges (module comment). */
export async function maintainConcepts(d: ConceptPorts): Promise<ConceptReport> {
  const report: ConceptReport = { created: [], updated: [], members_linked: 0, rejected_sparse: 0 };
  const audience = new Map<string, string>();
  for (const n of d.notes.notes()) {
    const a = audienceOf(d, n);
    if (a !== null) audience.set(n.nodeId, a);
  }
  const ok = new Set(audience.keys());
  const clusters = findClusters(strongPairs(d, (id) => ok.has(id), (a, b) => compatible(audience.get(a)!, audience.get(b)!)));
  if (clusters.length > 0) {
    const baseline = baselineDensity(d, [...ok]);
    const existing = d.notes
      .notes()
      .filter((n) => n.cached.meta.note_type === 'concept')
      .map((n) => ({ note: n, members: new Set(conceptMembers(d, n.nodeId)) }));
    for (const cluster of clusters) {
      const vectors = cluster.map((id) => d.search.noteVector(id)).filter((v): v is Float32Array => v !== null);
      const density = meanPairwiseCosine(vectors);
      if (density === null || density <= baseline + CONCEPT_DENSITY_MARGIN) {
        report.rejected_sparse++;
        continue;
      }
      let match: (typeof existing)[number] | null = null;
      let best = 0;
      for (const c of existing) {
        if (!cluster.every((id) => holds(d, c.note, d.notes.note(id) as LiveNote))) continue; // another audience
        const shared = cluster.filter((id) => c.members.has(id)).length / cluster.length;
        if (shared >= CONCEPT_MATCH_OVERLAP && shared > best) {
          best = shared;
          match = c;
        }
      }
      // A concept whose members have all faded away is this cluster's, when it would have the same name.
      match ??= existing.find((c) => c.members.size === 0 && c.note.path === `${conceptBase(conceptLabel(cluster.map((id) => d.notes.note(id) as LiveNote)))}.md` && cluster.every((id) => holds(d, c.note, d.notes.note(id) as LiveNote))) ?? null;
      const conceptId = await upsertConcept(d, cluster, match?.note ?? null, report, { density, baseline });
      if (!match) existing.push({ note: d.notes.note(conceptId) as LiveNote, members: new Set(cluster) });
      else for (const id of cluster) match.members.add(id);
    }
  }
  for (const id of await pruneMemberLists(d)) if (!report.updated.includes(id)) report.updated.push(id);
  await capConceptSalience(d);
  return report;
}

/** Rewrites a concept note's managed members block when it differs; true when written. */
async function writeMembersBlock(d: Pick<LearningPorts, 'notes'>, concept: LiveNote, block: string): Promise<boolean> {
  const parsed = await d.notes.parse(concept.path);
  const body = withMembersBlock(parsed.body, block);
  if (body === parsed.body) return false;
  await d.notes.writeNote({ path: concept.path, mode: 'update', content: body, fields: {}, actor: null, expectedVersion: parsed.contentHash }, CONCEPT_RULE);
  return true;
}

/**
 * Every concept's list, checked against who may read the concept now: a member narrowed since (its scope,
 * a hidden folder, the policy) leaves the list even when its cluster is not seen again. Returns the ids rewritten.
 */
async function pruneMemberLists(d: Pick<LearningPorts, 'notes' | 'memory' | 'governance'>): Promise<string[]> {
  const rewritten: string[] = [];
  for (const c of d.notes.notes().filter((n) => n.cached.meta.note_type === 'concept')) {
    const listed = conceptMembers(d, c.nodeId).map((id) => d.notes.note(id)).filter((n): n is LiveNote => n !== null);
    const readable = listed.filter((m) => holds(d, c, m));
    if (readable.length === listed.length) continue;
    if (await writeMembersBlock(d, c, membersBlock(readable))) rewritten.push(c.nodeId);
  }
  return rewritten;
}

async function upsertConcept(
  d: ConceptPorts,
  cluster: readonly string[],
  current: LiveNote | null,
  report: ConceptReport,
  density: { density: number; baseline: number },
): Promise<string> {
  const prior = current ? conceptMembers(d, current.nodeId) : [];
  const memberIds = [...new Set([...prior, ...cluster])];
  let members = memberIds.map((id) => d.notes.note(id)).filter((n): n is LiveNote => n !== null && (current === null || holds(d, current, n)));
  const block = membersBlock(members);
  let id: string;
  let path: string;
  let created = false;
  let rewritten = false;
  if (!current) {
    const label = conceptLabel(members);
    path = freePath(d, label);
    const body = `Notes that agents keep using together (detected from co-activation by Lithos consolidation).\n\n${block}\n`;
    // A cluster holds project notes of one namespace at most (compatible()): the concept is read by those agents.
    const project = members.find((m) => audienceOf(d, m) !== EVERYONE);
    const scope = project ? 'project' : 'shared';
    const namespace = project ? project.cached.meta.namespace : commonNamespace(members);
    const r = await d.notes.writeNote(
      {
        path,
        mode: 'create',
        content: body,
        fields: { title: label, note_type: 'concept', namespace, access_scope: scope, tags: ['concept'] },
        actor: null,
      },
      CONCEPT_RULE,
    );
    id = r.id;
    created = true;
  } else {
    id = current.nodeId;
    path = current.path;
    rewritten = await writeMembersBlock(d, current, block);
  }
  const concept = d.notes.note(id) as LiveNote;
  // Checked against the note as written, whatever derived its scope: it never lists what a reader may not read.
  const held = members.filter((m) => holds(d, concept, m));
  if (held.length < members.length) {
    members = held;
    if (await writeMembersBlock(d, concept, membersBlock(held))) rewritten = true;
  }
  const added: string[] = [];
  const seenAgain = new Set(cluster);
  for (const m of members) {
    const had = d.memory.edges.find({ from: m.nodeId, to: id, type: 'is_example_of' })[0];
    if (had) {
      // Seen in the cluster again: its membership is renewed, or decay would prune it while it is still used
      // together, and the concept, left without members, would be created a second time.
      // Only the rule's own edges: a weight a person or agent set (lithos_edge_update) is theirs.
      if (seenAgain.has(m.nodeId) && had.provenance_type === 'rule' && had.weight < IS_EXAMPLE_OF_WEIGHT) await d.memory.edges.upsert({ ...had, weight: IS_EXAMPLE_OF_WEIGHT });
      continue;
    }
    await d.memory.edges.upsert({
      from_id: m.nodeId,
      to_id: id,
      type: 'is_example_of',
      weight: IS_EXAMPLE_OF_WEIGHT,
      namespace: concept.cached.meta.namespace,
      provenance_actor: 'consolidate',
      provenance_type: 'rule',
      evidence: { rule: 'concepts', cluster_size: cluster.length },
      conflict_state: null,
    });
    added.push(m.nodeId);
  }
  report.members_linked += added.length;
  if (created || rewritten || added.length > 0) {
    (created ? report.created : report.updated).push(id);
    await d.audit.append({
      action: 'concept.update',
      actor: CONCEPT_RULE,
      target: id,
      data: { path, created, members: memberIds.length, linked: added, density: round(density.density), baseline: round(density.baseline) },
    });
  }
  return id;
}

/** The salience ceiling for concepts, also held in the store (retrieval caps it again). */
async function capConceptSalience(d: Pick<LearningPorts, 'notes' | 'memory' | 'audit'>): Promise<void> {
  for (const n of d.notes.notes()) {
    if (n.cached.meta.note_type !== 'concept') continue;
    const s = d.memory.stats.get(n.nodeId);
    if (s.salience > CONCEPT_SALIENCE_CEILING) {
      await d.memory.stats.update(n.nodeId, { salience: CONCEPT_SALIENCE_CEILING });
      await d.audit.append({ action: 'concept.update', actor: CONCEPT_RULE, target: n.nodeId, data: { salience_from: s.salience, salience_to: CONCEPT_SALIENCE_CEILING } });
    }
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
