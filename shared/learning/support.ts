/** Whether an agent's output draws on a note it did not cite (thresholds: the vault's tunables). */
import type { LearningPorts } from './learning-ports';
import { STOPWORDS, tokenize } from '../index/tokenizer';
import type { LearningConstants } from './tunables';

function contentTerms(text: string): string[] {
  return [...new Set(tokenize(text).filter((t) => t.length > 2 && !STOPWORDS.has(t)))];
}

/** Share of the note's first `lexical_terms` distinct content terms that occur in the output. */
export function lexicalSupport(noteText: string, output: ReadonlySet<string>, k: LearningConstants['support']): number | null {
  const terms = contentTerms(noteText).slice(0, k.lexical_terms);
  if (terms.length < k.lexical_min_terms) return null;
  return terms.filter((t) => output.has(t)).length / terms.length;
}

/** The ids among `ids` the output is supported by: lexical share ≥ lexical_share, or cosine ≥ embedding_cosine. */
export async function supportedByOutput(d: Pick<LearningPorts, 'notes' | 'search'>, ids: readonly string[], outputText: string, k: LearningConstants['support']): Promise<string[]> {
  if (ids.length === 0 || outputText.trim() === '') return [];
  const output = new Set(contentTerms(outputText));
  const cosines = await d.search.textSimilarity(ids, outputText);
  const out: string[] = [];
  for (const id of ids) {
    if ((cosines.get(id) ?? 0) >= k.embedding_cosine) {
      out.push(id);
      continue;
    }
    const note = d.notes.note(id);
    if (!note) continue;
    const body = (await d.notes.parse(note.path)).body;
    const share = lexicalSupport(`${note.cached.meta.title}\n${body}`, output, k);
    if (share !== null && share >= k.lexical_share) out.push(id);
  }
  return out;
}
