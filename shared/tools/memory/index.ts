import type { ToolDef } from '../types';
import { lithosWorkingMemory } from './working-memory';
import { lithosConsolidate } from './consolidate';

/** Working memory and consolidation (shared/learning): what agents used lately, and turning it into structure. */
export const MEMORY_TOOLS: readonly ToolDef[] = [lithosWorkingMemory, lithosConsolidate];
