import { openVault } from '../open-vault';
import { LithosError } from '../../shared/errors';
import { printJson, table } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';
import type { Common } from './conflicts-cmd';

/**
 * `lithos targets <vault> [name]`: the targets the decisions name (the person sees all), or one name's closest
 * targets and the decision history of the one it means; `--merge <from> --into <to>` merges two (docs/ledger.md).
 */
export async function targetsCommand(vault: string, name: string | undefined, o: Common & { merge?: string; into?: string; rewrite?: boolean }): Promise<number> {
  if ((o.merge === undefined) !== (o.into === undefined)) throw new LithosError('invalid_argument', '--merge <target> needs --into <target> (and the other way round).', { field: 'merge' });
  const write = o.merge !== undefined;
  const v = await openVault(vault, { write, logger: o.logger });
  try {
    await v.reconcile();
    const targets = v.memory.targets;
    if (o.merge !== undefined && o.into !== undefined) {
      const r = await targets.merge(o.merge, o.into, { rewrite: o.rewrite === true }, 'lithos targets --merge');
      if (o.json) printJson(o.out, r);
      else {
        o.out(`Merged "${r.from}" into "${r.into}"${r.rewritten.length > 0 ? `; ${r.rewritten.length} decision(s) now name "${r.into}"` : ''}.`);
        if (r.active.length > 1) o.out(`"${r.into}" now has ${r.active.length} active decisions (${r.active.join(', ')}): supersede the ones that no longer hold.`);
      }
      return 0;
    }
    if (name !== undefined) {
      const s = await targets.suggest(name, 5);
      const h = await targets.history(name);
      if (o.json) {
        printJson(o.out, { key: s.key, suggestions: s.suggestions, history: h.decisions });
        return 0;
      }
      o.out(h.decisions.length > 0 ? `Target "${h.target}":` : `No decision names "${h.target}".`);
      if (h.decisions.length > 0) o.out(table([['decision', 'state', 'intent', 'title', 'path'], ...h.decisions.map((d) => [d.ref, d.state, d.intent ? `${d.intent.type} ${d.intent.replaces.join(', ')}` : '', d.title, d.path])]));
      const close = s.suggestions.filter((x) => x.target !== h.target);
      if (close.length > 0) o.out(`Close targets: ${close.map((x) => `${x.target} (${x.score}, ${x.why})`).join('; ')}`);
      return 0;
    }
    const list = await targets.list();
    if (o.json) printJson(o.out, { targets: list });
    else if (list.length === 0) o.out('No decision names a target yet.');
    else o.out(table([['target', 'active', 'decisions', 'spellings', 'aliases'], ...list.map((t) => [t.target, String(t.active), String(t.decisions), t.spellings.join(', '), t.aliases.join(', ')])]));
    return 0;
  } finally {
    await v.close();
  }
}

export const targetsCmd = defineCommand({
  name: 'targets',
  summary: "the targets decisions are about; a name's closest targets and history; merge two",
  positionals: [VAULT, { name: 'name', help: 'a target name: its closest targets and its decision history', optional: true }],
  options: {
    merge: { type: 'string', help: 'merge this target…', value: 'target' },
    into: { type: 'string', help: '…into this one (its name wins)', value: 'target' },
    rewrite: { type: 'boolean', help: "with --merge: rewrite the merged decisions' target too" },
  },
  examples: ['lithos targets ~/vault authsvc', 'lithos targets ~/vault --merge authsvc --into auth-service'],
  run: ({ args: [vault, name], values, json, out, logger }) => targetsCommand(vault, name, { ...values, json, out, logger }),
});
