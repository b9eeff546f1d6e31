/** Whether an agent's output draws on a note it did not cite (thresholds in constants.ts SUPPORT). */
import type { MemoryEngine } from '../engine';
import { STOPWORDS, tokenize } from '../index/tokenizer';
import { SUPPORT } from './constants';

function contentTerms(text: string): string[] {
  return [...new Set(tokenize(text).filter((t) => t.length > 2 && !STOPWORDS.has(t)))];
}

/** Share of the note's first `lexical_terms` distinct content terms that occur in the output. */
export function lexicalSupport(noteText: string, output: ReadonlySet<string>): number | null {
  const terms = contentTerms(noteText).slice(0, SUPPORT.lexical_terms);
  if (terms.length < SUPPORT.lexical_min_terms) return null;
  return terms.filter((t) => output.has(t)).length / terms.length;
}

/** The ids among `ids` the output is supported by: lexical share ≥ lexical_share, or cosine ≥ embedding_cosine. */
export async function supportedByOutput(engine: MemoryEngine, ids: readonly string[], outputText: string): Promise<string[]> {
  if (ids.length === 0 || outputText.trim() === '') return [];
  const output = new Set(contentTerms(outputText));
  const cosines = await engine.textSimilarity(ids, outputText);
  const out: string[] = [];
  for (const id of ids) {
    if ((cosines.get(id) ?? 0) >= SUPPORT.embedding_cosine) {
      out.push(id);
      continue;
    }
    const note = engine.note(id);
    if (!note) continue;
    const body = (await engine.parse(note.path)).body;
    const share = lexicalSupport(`${note.cached.meta.title}\n${body}`, output);
    if (share !== null && share >= SUPPORT.lexical_share) out.push(id);
  }
  return out;
}
