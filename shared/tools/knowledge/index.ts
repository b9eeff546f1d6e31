import type { ToolDef } from '../types';
import { lithosWrite } from './write';
import { lithosRead } from './read';
import { lithosDelete } from './delete';
import { lithosSearch } from './search';
import { lithosSemantic } from './semantic';
import { lithosList } from './list';
import { lithosLinks } from './links';
import { lithosTags } from './tags';
import { lithosRelated } from './related';
import { lithosEdgeCreate } from './edge-create';
import { lithosEdgeList } from './edge-list';
import { lithosEdgeUpdate } from './edge-update';
import { lithosEdgeDelete } from './edge-delete';
import { lithosStats } from './stats';

/** The knowledge tools: notes, their links and tags, typed edges and counts. */
export const knowledgeTools: readonly ToolDef[] = [
  lithosWrite,
  lithosRead,
  lithosDelete,
  lithosSearch,
  lithosSemantic,
  lithosList,
  lithosLinks,
  lithosTags,
  lithosRelated,
  lithosEdgeCreate,
  lithosEdgeList,
  lithosEdgeUpdate,
  lithosEdgeDelete,
  lithosStats,
];
