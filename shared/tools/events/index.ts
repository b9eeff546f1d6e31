import type { ToolDef } from '../types';
import { lithosEventRecord } from './event-record';
import { lithosEvents } from './events';

/** Episodic events (model/events.ts): record one, list what the caller may read. */
export const EVENT_TOOLS: readonly ToolDef[] = [lithosEventRecord, lithosEvents];
