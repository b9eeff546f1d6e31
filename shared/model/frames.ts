/**
 * Structural frames for the analogy scout: `{problem, constraints, actions, outcome, lessons}` of a note,
 * each a short list of phrases. The deterministic extractor below reads them from the Markdown structure;
 * `FrameExtractor` is the port an LLM-backed extractor can implement later.
 *
 * Where phrases come from, in order of strength:
 * 1. Sections under a heading that maps to a slot (SLOT_HEADINGS): the heading's words, after numbering and
 *    filler words ("the", "our", "key"…), must start with one of the slot's keys, case-insensitively, so
 *    "## Lessons learned (so far)" and "### 2. The fix" both map. Subsections of a mapped section inherit its
 *    slot unless they map to another one; an unmapped heading at the same or a higher level ends it.
 * 2. Labelled lines anywhere: `Problem: …`, `**Outcome:** …`, `- Lesson: …`, `> Result: …`. The label must
 *    equal a key (not just start with one). A label alone on its line (`Problem:`, `**Problem**`) opens a
 *    pseudo-section that runs to the next blank line after some content, or the next heading or label: the
 *    fallback for notes written without headings.
 * 3. A note tagged as an incident, bug or postmortem (meta.tags) with no problem phrase takes its title as
 *    the problem: such titles name what went wrong ("Retry storm after broker failover").
 * Within a section, each list item and table row is one phrase; paragraphs are cut into sentences. Code
 * blocks and inline code are skipped; links keep their shown text. A frame with fewer than
 * MIN_FILLED_SLOTS filled slots is not worth matching: extractFrame returns null.
 *
 * The indexer extracts each note's frame when it indexes the note and stores it with the note's cached
 * metadata (vault/note-indexer.ts, vault/cached-note.ts): retrieval reads frames, it never extracts them.
 */
import { z } from 'zod';
import { LithosError } from '../errors';
import { headingInLine } from './headings';
import { forEachProseLine } from './markdown-lines';
import type { NoteHeading } from './types';

/**
 * Structural frame of a note for the analogy scout: what problem it faced, under which constraints,
 * what was done, what came of it and what was learned. Each slot is a list of short phrases.
 */
export interface NoteFrame {
  problem: string[];
  constraints: string[];
  actions: string[];
  outcome: string[];
  lessons: string[];
}

export const FRAME_SLOTS = ['problem', 'constraints', 'actions', 'outcome', 'lessons'] as const;
export type FrameSlot = (typeof FRAME_SLOTS)[number];

/** Caps keep a frame small whatever the note's size (a 2 MB log has no more structure than a page). */
export const MAX_PHRASES_PER_SLOT = 8;
export const MAX_PHRASE_CHARS = 160;
export const MIN_FILLED_SLOTS = 2;

/**
 * Heading and label keys of each slot (lowercase words). Headings match by prefix ("lessons" matches
 * "Lessons learned"), labels exactly. Keep keys specific: a key that is a common heading opener ("notes",
 * "summary") would fill slots from sections that have nothing to do with them.
 */
export const SLOT_HEADINGS: Readonly<Record<FrameSlot, readonly string[]>> = {
  problem: [
    'problem', 'problems', 'issue', 'issues', 'context', 'symptom', 'symptoms', 'background', 'situation',
    'challenge', 'challenges', 'what happened', 'goal', 'goals', 'root cause', 'cause', 'causes', 'trigger',
    'observation', 'observations', 'what i see', 'hypothesis', 'claim',
  ],
  constraints: [
    'constraints', 'constraint', 'requirements', 'requirement', 'assumptions', 'assumption', 'limits',
    'limitations', 'non goals', 'scope', 'preconditions', 'conditions',
  ],
  actions: [
    'actions', 'action', 'steps', 'what we did', 'what was done', 'approach', 'fix', 'fixes', 'solution',
    'solutions', 'resolution', 'mitigation', 'mitigations', 'remediation', 'work', 'implementation', 'changes',
    'decision', 'decisions', 'plan', 'proposed change', 'response', 'how we fixed it', 'how to test',
  ],
  outcome: ['outcome', 'outcomes', 'result', 'results', 'impact', 'consequences', 'consequence', 'effect', 'effects', 'prediction', 'evidence'],
  lessons: [
    'lessons', 'lesson', 'lessons learned', 'learnings', 'learned', 'what we learned', 'takeaways', 'takeaway',
    'next time', 'why', 'what went well', 'what went wrong', 'what didn t go well', 'what did not go well',
    'retrospective', 'retro', 'insights', 'insight', 'recommendations', 'recommendation', 'pitfalls',
    'things to remember',
  ],
};

/** Words skipped before matching a heading to a key: "The fix", "Our approach", "Key takeaways". */
const HEADING_FILLER: ReadonlySet<string> = new Set(['the', 'a', 'an', 'our', 'my', 'key', 'main', 'final']);

/** Tags that mark a note whose title states its problem (rule 3 above). */
const PROBLEM_TITLE_TAGS: ReadonlySet<string> = new Set(['incident', 'postmortem', 'post-mortem', 'bug', 'outage', 'rca']);

/** What an extractor may know besides the Markdown. The deterministic one reads tags and title (rule 3). */
export interface FrameMeta {
  tags?: readonly string[];
  note_type?: string;
  title?: string;
}

/**
 * Produces a note's frame. The deterministic extractor is the default; an LLM-backed one can implement
 * this later (hence the promise). `version` is stored with cached frames so that changing the extractor
 * re-extracts them instead of mixing frames of two extractors in one ranking.
 */
export interface FrameExtractor {
  readonly version: string;
  extract(body: string, headings: readonly NoteHeading[], meta?: FrameMeta): NoteFrame | null | Promise<NoteFrame | null>;
}

export const deterministicFrameExtractor: FrameExtractor = {
  version: 'headings-v1',
  extract: (body, headings, meta) => extractFrame(body, headings, meta),
};

interface KeyEntry {
  words: string[];
  slot: FrameSlot;
}

// Longest keys first, so "lessons learned" wins over "lessons" (same slot here, but keeps matching honest).
const KEYS: KeyEntry[] = FRAME_SLOTS.flatMap((slot) => SLOT_HEADINGS[slot].map((k) => ({ words: k.split(' '), slot })))
  .sort((a, b) => b.words.length - a.words.length);
const EXACT_KEYS = new Map<string, FrameSlot>(KEYS.map((k) => [k.words.join(' '), k.slot]));

function headingWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .replace(/\[\[([^\]|]*\|)?([^\]]*)\]\]/g, '$2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  let i = 0;
  // Numbering ("2.", "iv") and filler words before the key.
  while (i < words.length && (/^\d+$/.test(words[i]) || /^[ivx]+$/.test(words[i]) || HEADING_FILLER.has(words[i]))) i++;
  return words.slice(i);
}

/** The slot a heading opens, or null. Exported for the extraction table's tests and docs. */
export function slotOfHeading(text: string): FrameSlot | null {
  const words = headingWords(text);
  if (words.length === 0) return null;
  for (const key of KEYS) {
    if (key.words.length <= words.length && key.words.every((w, i) => words[i] === w)) return key.slot;
  }
  return null;
}

function slotOfLabel(label: string): FrameSlot | null {
  const words = headingWords(label);
  return words.length === 0 || words.length > 4 ? null : (EXACT_KEYS.get(words.join(' ')) ?? null);
}

/** `> `, `- `, `1. `, `- [ ] ` and callout markers in front of a line's content. */
const LIST_RE = /^[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?(.*)$/;
const QUOTE_RE = /^[ \t]*(?:>[ \t]?)+/;
/** A callout's header (`> [!warning] Title`): its title is a phrase of its own. */
const CALLOUT_RE = /^\[![\w-]+\][+-]?[ \t]*/;
/** `Label: rest`, `**Label:** rest`, `**Label**: rest`, `__Label__: rest`. */
const LABEL_RE = /^(?:\*\*|__)?([\p{L}][\p{L}\p{N} '’-]{0,40}?)(?:\*\*|__)?[ \t]*[:：][ \t]*(?:\*\*|__)?[ \t]*(.*)$/u;
/** A bold line alone: `**Problem**`. */
const BOLD_LABEL_RE = /^(?:\*\*|__)([^*_]{1,40})(?:\*\*|__)[ \t]*[:：]?$/;
/** A thematic break or setext underline: ends a paragraph, holds no phrase. */
const RULE_RE = /^(?:([-*_=])[ \t]*){3,}$/;
/** A line of inline tags only (`#on-call #followup`): metadata, not a phrase. */
const TAGS_ONLY_RE = /^(?:#[\p{L}\p{N}_/-]+[ \t]*)+$/u;
const TABLE_SEPARATOR_RE = /^\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?$/;

interface Label {
  slot: FrameSlot;
  rest: string;
}

function labelOf(content: string): Label | null {
  const c0 = content.charCodeAt(0);
  // Cheap pre-check: most lines have no colon and do not start with bold.
  if (content.indexOf(':') === -1 && content.indexOf('：') === -1 && c0 !== 42 && c0 !== 95) return null;
  const bold = BOLD_LABEL_RE.exec(content);
  if (bold) {
    const slot = slotOfLabel(bold[1]);
    return slot ? { slot, rest: '' } : null;
  }
  const m = LABEL_RE.exec(content);
  if (!m) return null;
  const slot = slotOfLabel(m[1]);
  return slot ? { slot, rest: m[2] } : null;
}

/**
 * Markdown inline syntax out, shown text kept; whitespace collapsed. Each rewrite runs only when its
 * marker character is present: most phrases are plain text, and extraction runs for every indexed note.
 */
export function cleanInline(s: string): string {
  let t = s;
  if (t.includes('[')) {
    t = t
      .replace(/!\[\[[^\]]*\]\]/g, ' ')
      .replace(/\[\[([^\]|#^]*)(?:[#^][^\]|]*)?(?:\|([^\]]*))?\]\]/g, (_m, target: string, alias: string | undefined) => alias ?? target.split('/').pop() ?? '')
      .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  }
  if (t.includes('<')) t = t.replace(/<[^>\n]{1,200}>/g, ' ');
  if (t.includes('://')) t = t.replace(/https?:\/\/\S+/g, ' ');
  if (t.includes('^')) t = t.replace(/(^|\s)\^[\w-]+(?=\s|$)/g, ' ');
  if (/[*_~=]/.test(t)) {
    t = t
      .replace(/\*\*|__|~~|==/g, '')
      .replace(/(^|[\s(])[*_](?=\S)/g, '$1')
      .replace(/(\S)[*_](?=[\s).,;:!?]|$)/g, '$1');
  }
  if (t.includes('#')) t = t.replace(/(^|\s)#(?=[\p{L}\p{N}])/gu, '$1');
  return t.replace(/\s+/g, ' ').trim().replace(/[:;,]$/, '');
}

/** cleanInline, then cut at a word boundary to MAX_PHRASE_CHARS. */
export function cleanPhrase(s: string): string {
  let t = cleanInline(s);
  if (t.length > MAX_PHRASE_CHARS) {
    const cut = t.lastIndexOf(' ', MAX_PHRASE_CHARS - 1);
    t = t.slice(0, cut > MAX_PHRASE_CHARS / 2 ? cut : MAX_PHRASE_CHARS - 1) + '…';
  }
  return t;
}

const WORDISH_RE = /[\p{L}\p{N}].*[\p{L}\p{N}]|[\p{L}\p{N}]{2}/u;
const SENTENCE_SPLIT_RE = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'([])/u;

class FrameBuilder {
  readonly slots: NoteFrame = { problem: [], constraints: [], actions: [], outcome: [], lessons: [] };
  private readonly seen = new Set<string>();

  add(slot: FrameSlot, raw: string): void {
    const list = this.slots[slot];
    if (list.length >= MAX_PHRASES_PER_SLOT) return;
    const phrase = cleanPhrase(raw);
    if (!WORDISH_RE.test(phrase)) return;
    const key = `${slot}\u0000${phrase.toLowerCase()}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    list.push(phrase);
  }

  addParagraph(slot: FrameSlot, text: string): void {
    // Clean first, so link targets and block ids cannot hide a sentence end.
    for (const sentence of cleanInline(text).split(SENTENCE_SPLIT_RE)) this.add(slot, sentence);
  }

  filled(): number {
    return FRAME_SLOTS.filter((s) => this.slots[s].length > 0).length;
  }
}

function checkInput(body: unknown, headings: unknown): void {
  if (typeof body !== 'string') throw new LithosError('invalid_argument', 'extractFrame: body must be a string.', { body: typeof body });
  if (!Array.isArray(headings)) throw new LithosError('invalid_argument', 'extractFrame: headings must be a list.', { headings: typeof headings });
}

/**
 * The deterministic frame of a note, or null when fewer than MIN_FILLED_SLOTS slots are filled.
 * `headings` are the parser's (line numbers into `body`); when empty, headings are detected here.
 * Linear in the body; the same input always gives the same frame.
 */
export function extractFrame(body: string, headings: readonly NoteHeading[], meta?: FrameMeta): NoteFrame | null {
  checkInput(body, headings);
  const given = new Map<number, NoteHeading>();
  for (const h of headings) if (h && typeof h.line === 'number' && typeof h.text === 'string') given.set(h.line, h);
  const useGiven = given.size > 0;

  const out = new FrameBuilder();
  // Open headings, outermost first; each carries the slot in force below it.
  const stack: { level: number; slot: FrameSlot | null }[] = [];
  let pseudo: FrameSlot | null = null;
  let pseudoHasContent = false;
  let paragraph: string[] = [];
  let paragraphSlot: FrameSlot | null = null;
  let paragraphQuoted = false;

  const flush = (): void => {
    if (paragraph.length > 0 && paragraphSlot) out.addParagraph(paragraphSlot, paragraph.join(' '));
    paragraph = [];
    paragraphSlot = null;
  };

  forEachProseLine(body, (line, masked, index) => {
    const heading = useGiven ? given.get(index) : headingInLine(line, index);
    if (heading) {
      flush();
      while (stack.length > 0 && stack[stack.length - 1].level >= heading.level) stack.pop();
      const inherited = stack.length > 0 ? stack[stack.length - 1].slot : null;
      stack.push({ level: heading.level, slot: slotOfHeading(heading.text) ?? inherited });
      pseudo = null;
      return;
    }
    const unquoted = masked.replace(QUOTE_RE, '');
    const isQuote = unquoted.length !== masked.length;
    const item = LIST_RE.exec(masked);
    const callout = !item && isQuote ? CALLOUT_RE.exec(unquoted.trimStart()) : null;
    const content = (item ? item[1] : callout ? unquoted.trimStart().slice(callout[0].length) : unquoted).trim();
    if (content === '') {
      flush();
      if (pseudo && pseudoHasContent) pseudo = null;
      return;
    }
    if (RULE_RE.test(content) || TAGS_ONLY_RE.test(content)) {
      flush();
      return;
    }
    const label = labelOf(content);
    if (label) {
      flush();
      if (label.rest.trim() === '') {
        pseudo = label.slot;
        pseudoHasContent = false;
      } else {
        out.addParagraph(label.slot, label.rest);
      }
      return;
    }
    const slot = pseudo ?? (stack.length > 0 ? stack[stack.length - 1].slot : null);
    if (!slot) return;
    pseudoHasContent = true;
    if (item || callout) {
      flush();
      out.add(slot, content);
    } else if (content.startsWith('|')) {
      flush();
      if (!TABLE_SEPARATOR_RE.test(content)) out.add(slot, content.split('|').map((c) => c.trim()).filter((c) => c !== '').join(' — '));
    } else {
      // A paragraph ends where its slot changes or a block quote starts or ends.
      if (paragraphSlot !== slot || paragraphQuoted !== isQuote) flush();
      paragraphSlot = slot;
      paragraphQuoted = isQuote;
      paragraph.push(content);
    }
  });
  flush();

  if (out.slots.problem.length === 0 && meta?.title && meta.tags?.some((t) => PROBLEM_TITLE_TAGS.has(lastSegment(t)))) {
    out.add('problem', meta.title);
  }
  return out.filled() >= MIN_FILLED_SLOTS ? out.slots : null;
}

function lastSegment(tag: string): string {
  const t = tag.toLowerCase().replace(/^#/, '');
  return t.slice(t.lastIndexOf('/') + 1);
}

const phraseList = z.array(z.string()).max(1000);
const frameSchema = z.object({
  problem: phraseList.default([]),
  constraints: phraseList.default([]),
  actions: phraseList.default([]),
  outcome: phraseList.default([]),
  lessons: phraseList.default([]),
});

/**
 * Validates a frame from outside the deterministic extractor (an LLM's answer, a cache row) and applies
 * the same caps and cleaning. Throws invalid_argument naming the problem; returns null when fewer than
 * MIN_FILLED_SLOTS slots are left, as extractFrame does.
 */
export function parseFrame(value: unknown): NoteFrame | null {
  const parsed = frameSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LithosError('invalid_argument', `Not a note frame: ${issue.path.join('.') || 'value'}: ${issue.message}`, { issues: parsed.error.issues.length });
  }
  const out = new FrameBuilder();
  for (const slot of FRAME_SLOTS) for (const p of parsed.data[slot]) out.add(slot, p);
  return out.filled() >= MIN_FILLED_SLOTS ? out.slots : null;
}
