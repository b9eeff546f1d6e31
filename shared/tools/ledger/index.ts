import type { ToolDef } from '../types';
import { lithosBriefing } from './briefing';
import { lithosDrift } from './drift';
import { lithosTargets } from './targets';
import { lithosTimeline } from './timeline';

/** The ledger's tools (shared/ledger/): decision targets, drift triage, the briefing, the timeline. */
export const LEDGER_TOOLS: readonly ToolDef[] = [lithosTargets, lithosDrift, lithosBriefing, lithosTimeline];
