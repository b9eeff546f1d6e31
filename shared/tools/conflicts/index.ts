import type { ToolDef } from '../types';
import { lithosConflictOpen } from './conflict-open';
import { lithosConflictList } from './conflict-list';
import { lithosConflictResolve } from './conflict-resolve';

/** The conflict tools: open, list and settle contradictions between notes (shared/conflicts/). */
export const CONFLICT_TOOLS: readonly ToolDef[] = [lithosConflictOpen, lithosConflictList, lithosConflictResolve];
