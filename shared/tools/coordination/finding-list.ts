import { z } from 'zod';
import { defineTool, findingJson, isoArg, READ_ONLY, taskIdArg } from './common';
import { listShape, pageItems } from '../text-budget';

const input = z.strictObject({
  task_id: taskIdArg,
  since: isoArg('Only findings posted at or after this time (ISO 8601).'),
  ...listShape(100, 1000),
});

export const lithosFindingList = defineTool({
  name: 'lithos_finding_list',
  title: 'List findings',
  description: 'The findings posted on a task, oldest first, optionally only those since a time: read them before starting, so you build on what others found. Returns {findings}.',
  input,
  annotations: READ_ONLY,
  async handler(a: z.infer<typeof input>, ctx) {
    await ctx.memory.tasks.touch();
    const findings = ctx.memory.tasks.findings(a.task_id, a.since === undefined ? undefined : Date.parse(a.since));
    const { page, total, next_cursor } = pageItems(findings.map(findingJson), a, 'lithos_finding_list');
    return { findings: page, total, next_cursor };
  },
});
