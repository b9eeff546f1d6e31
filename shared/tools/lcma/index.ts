import type { ToolDef } from '../types';
import { lithosRetrieve } from './retrieve';
import { lithosReceipts } from './receipts';
import { lithosNodeStats } from './node-stats';
import { lithosFeedback } from './feedback';
import { lithosQuarantineList } from './quarantine-list';

/** The LCMA tools built on retrieval: retrieve, its receipts, what was learned per note, feedback and quarantine review. */
export const LCMA_TOOLS: readonly ToolDef[] = [lithosRetrieve, lithosReceipts, lithosNodeStats, lithosFeedback, lithosQuarantineList];
