import type { ToolDef } from '../types';
import { lithosAgentInfo } from './agent-info';
import { lithosAgentList } from './agent-list';
import { lithosAgentRegister } from './agent-register';
import { lithosFindingList } from './finding-list';
import { lithosFindingPost } from './finding-post';
import { lithosTaskClaim } from './task-claim';
import { lithosTaskComplete } from './task-complete';
import { lithosTaskCancel } from './task-cancel';
import { lithosTaskCreate } from './task-create';
import { lithosTaskList } from './task-list';
import { lithosTaskRelease } from './task-release';
import { lithosTaskRenew } from './task-renew';
import { lithosTaskStatus } from './task-status';

/** Agents and coordination tools, in the order tools/list shows them. */
export const COORDINATION_TOOLS: ToolDef[] = [
  lithosAgentRegister,
  lithosAgentInfo,
  lithosAgentList,
  lithosTaskCreate,
  lithosTaskClaim,
  lithosTaskRenew,
  lithosTaskRelease,
  lithosTaskComplete,
  lithosTaskCancel,
  lithosTaskStatus,
  lithosTaskList,
  lithosFindingPost,
  lithosFindingList,
];
