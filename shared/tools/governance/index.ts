import type { ToolDef } from '../types';
import { lithosProposalList } from './proposal-list';
import { lithosProposalAccept } from './proposal-accept';
import { lithosProposalReject } from './proposal-reject';

/** Governance tools: write proposals waiting for a person. */
export const GOVERNANCE_TOOLS: readonly ToolDef[] = [lithosProposalList, lithosProposalAccept, lithosProposalReject];
