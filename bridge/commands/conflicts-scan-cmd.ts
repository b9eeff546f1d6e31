import { openJobVault } from '../open-vault';
import { PERSON } from '../../shared/session/caller';
import { printJson } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';
import { described, type Common } from './conflicts-cmd';

/** `lithos conflicts scan <vault>`: rule detection over the whole vault, then every callout synced. */
export async function conflictsScanCommand(vault: string, o: Common): Promise<number> {
  const v = await openJobVault(vault, 'conflict-scan', { write: true, logger: o.logger });
  try {
    await v.reconcile();
    const r = await v.engine.services.conflicts.scan();
    // The job's findings are shown to the person who ran it, as the person's session names notes.
    const person = await v.engine.as(PERSON);
    const opened = r.opened.map((c) => described(person, c));
    if (o.json) printJson(o.out, { notes: r.notes, opened, callouts_written: r.callouts_written });
    else {
      o.out(`${r.notes} notes compared; ${opened.length} new conflict(s); ${r.callouts_written} note(s) had their callouts updated.`);
      for (const c of opened) {
        const [a, b] = [c.a, c.b] as { path: string }[];
        o.out(`  ${String(c.edge_id)}  ${a.path}  ⟷  ${b.path}  (${String((c.evidence as { rule?: string }).rule ?? '')})`);
      }
    }
    return 0;
  } finally {
    await v.close();
  }
}

export const conflictsScanCmd = defineCommand({
  name: 'conflicts scan',
  summary: 'run the conflict rules over the whole vault and bring every callout up to date',
  positionals: [VAULT],
  options: {},
  examples: ['lithos conflicts scan ~/vault', 'lithos conflicts scan ~/vault --json'],
  run: ({ args: [vault], json, out, logger }) => conflictsScanCommand(vault, { json, out, logger }),
});
