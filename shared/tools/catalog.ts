import type { ToolDef } from './types';
import { knowledgeTools } from './knowledge';
import { COORDINATION_TOOLS } from './coordination';
import { LCMA_TOOLS } from './lcma';
import { MEMORY_TOOLS } from './memory';
import { CONFLICT_TOOLS } from './conflicts';
import { GOVERNANCE_TOOLS } from './governance';
import { EVENT_TOOLS } from './events';
import { LEDGER_TOOLS } from './ledger';

/**
 * Every `lithos_*` tool, in the order tools/list shows them. Each group appends its array here with one
 * line; the dispatcher refuses duplicate names.
 */
export const TOOL_CATALOG: readonly ToolDef[] = [
  ...knowledgeTools,
  ...COORDINATION_TOOLS,
  ...LCMA_TOOLS,
  ...MEMORY_TOOLS,
  ...CONFLICT_TOOLS,
  ...GOVERNANCE_TOOLS,
  ...EVENT_TOOLS,
  ...LEDGER_TOOLS,
];

