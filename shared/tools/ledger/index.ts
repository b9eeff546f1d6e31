import type { ToolDef } from '../types';
import { lithosTargets } from './targets';

/** The ledger's tools (shared/ledger/): decision targets. */
export const LEDGER_TOOLS: readonly ToolDef[] = [lithosTargets];
