/**
 * Terrace 2, the interpretive pass: a port an LLM implements (the bridge wires MCP sampling). The policy
 * is the design's should_use_llm_pass, exactly; with no interpreter the receipt says it was skipped.
 */
import { HOT, TERRACE2_CLASS_TEMPERATURE, TERRACE2_CLASSES } from './constants';

export interface InterpretRequest {
  query: string;
  query_class: string;
  temperature: number;
  /** Best first. */
  candidates: { id: string; title: string; path: string; note_type: string; score: number; excerpt: string }[];
  /** Keep between min and max nodes. */
  min: number;
  max: number;
}

export interface Interpretation {
  /** Ids from the candidates, in the interpreter's order. */
  selected: string[];
  /** Connections the interpreter sees between nodes, e.g. "both are about pool exhaustion". */
  bridges: { a: string; b: string; why: string }[];
  /** 0..1 */
  confidence: number;
  /** Targeted follow-up queries (used once, when confidence is low and the scan is hot). */
  follow_up_queries: string[];
}

export interface Interpreter {
  interpret(req: InterpretRequest): Promise<Interpretation>;
}

export function shouldUseLlmPass(conflicts: number, queryClass: string, temperature: number): { wanted: boolean; why: string } {
  if (conflicts > 0) return { wanted: true, why: `${conflicts} ${conflicts === 1 ? 'conflict' : 'conflicts'} among the results` };
  if (TERRACE2_CLASSES.includes(queryClass) && temperature > TERRACE2_CLASS_TEMPERATURE) {
    return { wanted: true, why: `${queryClass} query with temperature ${temperature.toFixed(2)} > ${TERRACE2_CLASS_TEMPERATURE}` };
  }
  if (temperature > HOT) return { wanted: true, why: `temperature ${temperature.toFixed(2)} > ${HOT}` };
  return { wanted: false, why: `temperature ${temperature.toFixed(2)}, no conflicts: the fast re-rank suffices` };
}
