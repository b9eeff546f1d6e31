/**
 * Retrieval over the vault (retrieve.ts, the Parallel Terraced Scan): the corpus it reads, the interpreter
 * terrace 2 may use, the receipt log and what recording a retrieval changes (retrieval-recorder.ts).
 */
import type { Clock } from '../ports';
import type { Viewer } from '../governance/gate';
import type { GovernanceService } from '../governance/governance-service';
import { newId } from '../model/ids';
import { macrotask } from '../stores/yield-to-host';
import { EngineCorpus, type EngineCorpusDeps } from './engine-corpus';
import type { ReceiptLog } from './receipts';
import { retrieve } from './retrieve';
import { RetrievalRecorder, type RecorderDeps } from './retrieval-recorder';
import { ALL_SCOUTS } from './scouts';
import type { Interpreter } from './terrace2';
import type { QueryContext, RetrievalResult, RetrieveOptions } from './types';

export interface RetrievalDeps {
  /** What the corpus reads. */
  corpus: EngineCorpusDeps;
  /** `.lithos/receipts.jsonl`: one line per retrieval (receipts.ts). */
  receipts: ReceiptLog;
  memory: RecorderDeps['memory'];
  clock: Clock;
  governance: Pick<GovernanceService, 'viewerFor'>;
  /** Runs after each retrieval is recorded (learning's implicit signals). */
  recorded: RecorderDeps['recorded'];
  /** Throws once the engine is closed. */
  guard(): void;
}

export class RetrievalService {
  readonly receipts: ReceiptLog;
  private readonly recorder: RetrievalRecorder;
  private corpus: EngineCorpus | null = null;
  private interpreter: Interpreter | null = null;

  constructor(private readonly d: RetrievalDeps) {
    this.receipts = d.receipts;
    this.recorder = new RetrievalRecorder({ receipts: d.receipts, memory: d.memory, clock: d.clock, recorded: (r) => d.recorded(r) });
  }

  /**
   * Samples the primary space's background (random note pairs, for the temperature) a macrotask after open,
   * so the first retrieval does not pay for it (~40 ms at 10k notes). Not awaited; a retrieval that comes
   * first samples it itself, and one after many changes samples it again (EngineCorpus.background).
   */
  prepare(): void {
    void macrotask().then(() => {
      try {
        this.d.guard();
        (this.corpus ??= new EngineCorpus(this.d.corpus)).background();
      } catch {
        // Closed meanwhile, or nothing to sample yet: the first retrieval samples it.
      }
    });
  }

  /**
   * Parallel Terraced Scan (retrieve.ts). Read-only for learning: it writes a receipt and bumps the
   * telemetry retrieval_count / last_retrieved_at of the final nodes, which nothing that ranks reads.
   */
  async retrieve(ctx: QueryContext, opts: RetrieveOptions = {}): Promise<RetrievalResult> {
    this.d.guard();
    this.corpus ??= new EngineCorpus(this.d.corpus);
    // Bad values are refused by resolveQuery inside; here they only must not widen the viewer.
    const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
    const viewer: Viewer = opts.viewer ?? this.d.governance.viewerFor({ kind: 'agent', agent_id: text(ctx?.agent_id) }, text(ctx?.task_id));
    return retrieve(ctx, { ...opts, viewer }, {
      corpus: this.corpus,
      scouts: ALL_SCOUTS,
      clock: this.d.clock,
      elapsed: typeof performance !== 'undefined' ? () => performance.now() : undefined,
      interpreter: opts.interpreter ?? this.interpreter,
      newId,
      record: (receipt) => this.recorder.record(receipt),
    });
  }

  /** Terrace 2's interpretive pass (the bridge sets an MCP-sampling interpreter); null switches it off. */
  setInterpreter(interpreter: Interpreter | null): void {
    this.interpreter = interpreter;
  }
}
