import type { ToolDef } from '../types';
import { lithosRetrieve } from './retrieve';
import { lithosReceipts } from './receipts';
import { lithosNodeStats } from './node-stats';

/** The LCMA tools built on retrieval: retrieve, its receipts, and what was learned per note. */
export const LCMA_TOOLS: readonly ToolDef[] = [lithosRetrieve, lithosReceipts, lithosNodeStats];
