import { join } from 'node:path';
import { LithosError } from '../../shared/errors';
import { AuditLog } from '../../shared/governance/audit';
import { POLICY_FILE, PolicyStore, type Policy } from '../../shared/governance/policy';
import { systemClock, type Logger } from '../../shared/ports';
import { TOOL_CATALOG } from '../../shared/tools/catalog';
import { offeredTools } from '../../shared/governance/tool-access';
import { acquireLock } from '../lock';
import { checkVaultFolder } from '../open-vault';
import { NodeBlobStore } from '../node-blob-store';
import { ReadOnlyBlobStore } from '../read-only-blobs';
import { printJson, table, type Out } from './output';
import { defineCommand } from './command';
import { VAULT } from './positionals';

/** --read-only's words. */
const ON_OFF = { on: true, off: false } as const;

export interface PolicyChanges {
  readOnly?: keyof typeof ON_OFF;
  disable: readonly string[];
  enable: readonly string[];
  hide: readonly string[];
  unhide: readonly string[];
}

/**
 * `lithos policy <vault>`: what agents may see and call (.lithos/policy.json), for a vault whose Obsidian is
 * closed or a person who prefers the terminal. Showing is read-only and lock-free; a change takes the writer
 * lock (the audit log has one writer), is validated like any policy and audited as the person ('policy.set').
 * The other fields (allowlists, shared patterns, proposal namespaces) are edited in the file itself.
 */
export async function policyCommand(vault: string, o: PolicyChanges & { json: boolean; out: Out; logger: Logger }): Promise<number> {
  const root = await checkVaultFolder(vault);
  const disk = new NodeBlobStore(join(root, '.lithos'));
  const changing = o.readOnly !== undefined || o.disable.length + o.enable.length + o.hide.length + o.unhide.length > 0;
  if (!changing) {
    report(await PolicyStore.open({ blobs: new ReadOnlyBlobStore(disk), clock: systemClock }), o);
    return 0;
  }
  const readOnly = o.readOnly === undefined ? undefined : ON_OFF[o.readOnly];
  const lock = await acquireLock(join(root, '.lithos'), { owner: 'cli' });
  try {
    const audit = await AuditLog.open({ blobs: disk, clock: systemClock, logger: o.logger });
    const store = await PolicyStore.open({ blobs: disk, clock: systemClock, logger: o.logger, audit });
    // A deleted file is not in the way: saving here starts from the closed policy in force (agents read only).
    if (store.damaged && store.problem) throw new LithosError('invalid_argument', `${store.problem} Fix the file by hand first: a change here would replace it.`, { field: 'policy' });
    const p = store.get();
    const disabled = [...p.agent_tools.disabled.filter((n) => !o.enable.includes(n)), ...o.disable.filter((n) => !p.agent_tools.disabled.includes(n))];
    const hidden = [...p.hidden_folders.filter((f) => !o.unhide.map(folder).includes(f)), ...o.hide.map(folder).filter((f) => !p.hidden_folders.includes(f))];
    await store.set({ ...p, hidden_folders: hidden, agent_tools: { read_only: readOnly ?? p.agent_tools.read_only, disabled: [...new Set(disabled)] } });
    report(store, o);
    return 0;
  } finally {
    await lock.release();
  }
}

/** The policy's own form of a folder (surrounding slashes dropped), so --unhide matches what --hide stored. */
function folder(f: string): string {
  return f.trim().replace(/^\/+|\/+$/g, '');
}

function report(store: PolicyStore, o: { json: boolean; out: Out }): void {
  const p: Policy = store.get();
  const { visible, total } = offeredTools(TOOL_CATALOG, p.agent_tools);
  if (o.json) {
    printJson(o.out, { file: `.lithos/${POLICY_FILE}`, problem: store.problem, policy: p, visible_tools: visible });
    return;
  }
  if (store.problem) o.out(`Warning: ${store.problem}`);
  const list = (xs: readonly string[]): string => (xs.length ? xs.join(', ') : '(none)');
  o.out(
    table([
      ['agents read-only', p.agent_tools.read_only ? 'yes (every tool that writes is refused)' : 'no'],
      ['tools switched off', list(p.agent_tools.disabled)],
      ['hidden folders', list(p.hidden_folders)],
      ['default allowlist', list(p.default_namespaces)],
      ['agents with their own allowlist', list(Object.keys(p.agents))],
      ['shared patterns', list(p.shared_patterns)],
      ['agents propose in', list(p.propose_namespaces)],
      ['agents on your notes', p.person_notes === 'propose' ? 'propose (you accept or reject)' : p.person_notes],
      ['tools agents see', `${visible.length} of ${total}`],
    ]),
  );
  o.out(`Change: lithos policy <vault> --read-only on|off, --disable/--enable <tool>, --hide/--unhide <folder>; the rest (person_notes: propose|allow|refuse…) in .lithos/${POLICY_FILE}.`);
}

const TOOL_NAMES = TOOL_CATALOG.map((d) => d.name);

export const policyCmd = defineCommand({
  name: 'policy',
  summary: 'show or change what agents may see and call (.lithos/policy.json)',
  positionals: [VAULT],
  options: {
    'read-only': { type: 'string', help: 'refuse every tool that writes', value: 'on|off', choices: Object.keys(ON_OFF) as (keyof typeof ON_OFF)[] },
    disable: { type: 'string', help: 'switch a tool off for agents', value: 'tool', choices: TOOL_NAMES, multiple: true, listChoices: false },
    enable: { type: 'string', help: 'switch a tool back on', value: 'tool', choices: TOOL_NAMES, multiple: true, listChoices: false },
    hide: { type: 'string', help: 'hide a folder from agents', value: 'folder', multiple: true },
    unhide: { type: 'string', help: 'show a hidden folder again', value: 'folder', multiple: true },
  },
  notes: ['Tools: the lithos_* names of the MCP tools (README, tool reference). The other fields (allowlists, shared patterns, proposal namespaces) are edited in .lithos/policy.json.'],
  examples: ['lithos policy ~/vault', 'lithos policy ~/vault --read-only on --disable lithos_write --hide private'],
  run: ({ args: [vault], values, json, out, logger }) => policyCommand(vault, { ...values, readOnly: values['read-only'], json, out, logger }),
});
