import type { ToolDef } from '../types';
import { lithosBriefing } from './briefing';
import { lithosTargets } from './targets';

/** The ledger's tools (shared/ledger/): decision targets, the briefing. */
export const LEDGER_TOOLS: readonly ToolDef[] = [lithosTargets, lithosBriefing];
