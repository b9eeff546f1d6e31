/**
 * Seeded synthetic vault: folders as namespaces, frontmatter with the model's fields, Zipf tags,
 * wiki-links with hub notes, log-normal note lengths (50–5,000 words, mostly 150–600).
 * Every note is generated from its own seeded stream, so note(i) is random-access and stable.
 */
import { stringify } from 'yaml';
import { CURRENT_SCHEMA_VERSION, type AccessScope, type NoteType } from '../../shared/model/types';
import { Rng, ZipfSampler, logNormalInt } from './rng';
import { capitalize, Vocabulary } from './vocabulary';

export interface SynthNote {
  path: string;
  title: string;
  content: string;
  /** Words of body prose (links and headings included), before frontmatter. */
  words: number;
}

interface Plan {
  path: string;
  title: string;
  folder: string;
}

const MEDIAN_WORDS = 320;
const SIGMA = 0.62;
const MIN_WORDS = 50;
const MAX_WORDS = 5000;
const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(2024, 0, 1);

const TYPE_WEIGHTS: [NoteType, number][] = [['observation', 40], ['agent_finding', 20], ['summary', 12], ['concept', 14], ['task_record', 9], ['hypothesis', 5]];
const SCOPE_WEIGHTS: [AccessScope, number][] = [['shared', 45], ['project', 30], ['task', 10], ['agent_private', 10], ['user_private', 5]];

function weighted<T extends string>(rng: Rng, table: [T, number][]): T {
  let u = rng.next() * table.reduce((s, [, w]) => s + w, 0);
  for (const [v, w] of table) if ((u -= w) < 0) return v;
  return table[table.length - 1][0];
}

/** UUID v4 layout from the stream (ids must be stable per seed, so no crypto.randomUUID). */
function uuid(rng: Rng): string {
  const h = Array.from({ length: 4 }, () => rng.nextU32().toString(16).padStart(8, '0')).join('').split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16], 16) & 3];
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export class SyntheticVault {
  readonly vocab: Vocabulary;
  readonly folders: string[];
  readonly tags: string[];
  readonly authors: string[];
  private readonly plans: Plan[] = [];
  private readonly folderZipf: ZipfSampler;
  private readonly tagZipf: ZipfSampler;
  /** Link targets: a Zipf draw over a shuffled order makes a few notes hubs, as in real vaults. */
  private readonly linkOrder: Uint32Array;
  private readonly linkZipf: ZipfSampler;

  constructor(
    readonly count: number,
    readonly seed: number,
  ) {
    const rng = new Rng(seed);
    this.vocab = new Vocabulary(rng.nextU32());
    const meta = rng.fork(1);
    const areas = ['projects', 'areas', 'agents', 'research', 'journal'];
    this.folders = ['inbox', 'archive'];
    for (let i = 0; this.folders.length < 24; i++) this.folders.push(`${areas[i % areas.length]}/${this.vocab.words[400 + i * 7]}`);
    this.tags = Array.from({ length: 400 }, (_, i) => (i % 5 === 4 ? `${this.vocab.words[300 + i]}/${this.vocab.words[900 + i]}` : this.vocab.words[300 + i]));
    this.authors = ['human:owner', 'agent:planner', 'agent:researcher', 'agent:coder', 'human:reviewer'];
    this.folderZipf = new ZipfSampler(this.folders.length, 0.9);
    this.tagZipf = new ZipfSampler(this.tags.length, 1.0);
    this.linkZipf = new ZipfSampler(Math.max(1, count), 0.8);
    this.linkOrder = new Uint32Array(count);
    for (let i = 0; i < count; i++) this.linkOrder[i] = i;
    for (let i = count - 1; i > 0; i--) {
      const j = meta.int(0, i);
      [this.linkOrder[i], this.linkOrder[j]] = [this.linkOrder[j], this.linkOrder[i]];
    }
    const taken = new Set<string>();
    const plan = rng.fork(2);
    for (let i = 0; i < count; i++) {
      const folder = this.folders[this.folderZipf.sample(plan)];
      const n = plan.int(2, 5);
      const words = Array.from({ length: n }, () => this.vocab.contentWord(plan, 150, 8000));
      let title = capitalize(words.join(' '));
      // Basenames are unique vault-wide because wiki-links resolve by basename.
      for (let k = 2; taken.has(title.toLowerCase()); k++) title = `${capitalize(words.join(' '))} ${k}`;
      taken.add(title.toLowerCase());
      this.plans.push({ path: `${folder}/${title}.md`, title, folder });
    }
  }

  path(i: number): string {
    return this.plans[i].path;
  }

  title(i: number): string {
    return this.plans[i].title;
  }

  private noteRng(i: number, salt = 0): Rng {
    return new Rng((Math.imul(this.seed ^ 0x5bd1e995, 0x27d4eb2d) + Math.imul(i + 1, 0x9e3779b1) + salt) >>> 0);
  }

  private linkTarget(rng: Rng, self: number): number {
    const t = this.linkOrder[this.linkZipf.sample(rng)];
    return t === self ? this.linkOrder[(this.linkZipf.sample(rng) + 1) % this.count] : t;
  }

  private sentence(rng: Rng, self: number, state: { words: number }): string {
    const n = rng.int(6, 20);
    const out: string[] = [];
    for (let j = 0; j < n; j++) {
      const r = rng.next();
      if (r < 0.012 && this.count > 1) {
        const t = this.linkTarget(rng, self);
        out.push(rng.chance(0.2) ? `[[${this.plans[t].title}|${this.vocab.contentWord(rng)}]]` : `[[${this.plans[t].title}]]`);
      } else if (r < 0.016) {
        out.push(`#${this.tags[this.tagZipf.sample(rng)]}`);
      } else {
        out.push(this.vocab.word(rng));
      }
    }
    state.words += n;
    out[0] = capitalize(out[0]);
    return `${out.join(' ')}${rng.chance(0.1) ? '?' : '.'}`;
  }

  private body(rng: Rng, i: number, target: number): { text: string; words: number } {
    const state = { words: 0 };
    const blocks: string[] = [];
    let sinceHeading = 0;
    while (state.words < target) {
      if (sinceHeading > rng.int(120, 260)) {
        const h = Array.from({ length: rng.int(1, 4) }, () => this.vocab.contentWord(rng)).join(' ');
        blocks.push(`## ${capitalize(h)}`);
        sinceHeading = 0;
      }
      const before = state.words;
      if (rng.chance(0.15)) {
        const items = Array.from({ length: rng.int(2, 6) }, () => `- ${this.sentence(rng, i, state)}`);
        blocks.push(items.join('\n'));
      } else {
        blocks.push(Array.from({ length: rng.int(2, 6) }, () => this.sentence(rng, i, state)).join(' '));
      }
      sinceHeading += state.words - before;
    }
    return { text: blocks.join('\n\n'), words: state.words };
  }

  private frontmatter(rng: Rng, i: number): Record<string, unknown> {
    const plan = this.plans[i];
    const created = EPOCH + rng.int(0, 700) * DAY_MS + rng.int(0, DAY_MS - 1);
    const updated = created + (rng.chance(0.6) ? rng.int(0, 90) * DAY_MS + rng.int(0, DAY_MS - 1) : 0);
    const tags = [...new Set(Array.from({ length: rng.int(0, 5) }, () => this.tags[this.tagZipf.sample(rng)]))];
    const fm: Record<string, unknown> = {
      id: uuid(rng),
      title: plan.title,
      author: rng.pick(this.authors),
      created_at: new Date(created).toISOString(),
      updated_at: new Date(updated).toISOString(),
      tags,
      schema_version: CURRENT_SCHEMA_VERSION,
      namespace: plan.folder,
      access_scope: weighted(rng, SCOPE_WEIGHTS),
      note_type: weighted(rng, TYPE_WEIGHTS),
      confidence: Math.round((0.4 + 0.6 * rng.next()) * 100) / 100,
      status: rng.chance(0.9) ? 'active' : 'archived',
    };
    if (rng.chance(0.2)) fm.aliases = [capitalize(`${this.vocab.contentWord(rng)} ${this.vocab.contentWord(rng)}`)];
    if (rng.chance(0.3)) fm.contributors = [rng.pick(this.authors)];
    if (rng.chance(0.25)) fm.source = `https://example.org/${this.vocab.contentWord(rng)}/${rng.int(1, 9999)}`;
    if (rng.chance(0.5)) fm.entities = Array.from({ length: rng.int(1, 3) }, () => capitalize(this.vocab.contentWord(rng, 150, 4000)));
    if (rng.chance(0.3)) fm.summaries = { short: this.sentence(rng, i, { words: 0 }) };
    return fm;
  }

  /** Note i as a Markdown file. `revision` > 0 yields an edited version (same frontmatter id). */
  note(i: number, revision = 0): SynthNote {
    const rng = this.noteRng(i);
    const fm = this.frontmatter(rng, i);
    const target = logNormalInt(rng, Math.log(MEDIAN_WORDS), SIGMA, MIN_WORDS, MAX_WORDS);
    const body = this.body(revision === 0 ? rng : this.noteRng(i, revision), i, target);
    const content = `---\n${stringify(fm, { lineWidth: 0 })}---\n# ${this.plans[i].title}\n\n${body.text}\n`;
    return { path: this.plans[i].path, title: this.plans[i].title, content, words: body.words };
  }

  *notes(): Generator<SynthNote> {
    for (let i = 0; i < this.count; i++) yield this.note(i);
  }

  /**
   * Seeded search queries: two thirds are 2–4 content words taken from a random note (so they
   * have real matches), one third 1–3 content words drawn from the lexicon at large.
   */
  queries(n: number): string[] {
    const rng = new Rng((this.seed ^ 0x2545f491) >>> 0);
    const out: string[] = [];
    for (let q = 0; q < n; q++) {
      if (this.count > 0 && rng.chance(2 / 3)) {
        const words = this.note(rng.int(0, this.count - 1)).content.toLowerCase().split(/[^a-z]+/).filter((w) => (this.vocab.rank(w) ?? 0) >= 150);
        if (words.length > 0) {
          out.push(Array.from({ length: rng.int(2, 4) }, () => rng.pick(words)).join(' '));
          continue;
        }
      }
      out.push(Array.from({ length: rng.int(1, 3) }, () => this.vocab.contentWord(rng)).join(' '));
    }
    return out;
  }
}
