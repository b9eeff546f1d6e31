import type { ToolDef } from '../types';
import { lithosDrift } from './drift';
import { lithosTargets } from './targets';

/** The ledger's tools (shared/ledger/): decision targets, drift triage. */
export const LEDGER_TOOLS: readonly ToolDef[] = [lithosTargets, lithosDrift];
