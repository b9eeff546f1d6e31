import { openVault } from '../open-vault';
import type { Logger } from '../../shared/ports';
import { printJson, type Out } from './output';

/** `lithos stats <vault> [--json]` */
export async function statsCommand(vault: string, o: { json: boolean; out: Out; logger: Logger }): Promise<number> {
  const v = await openVault(vault, { write: false, logger: o.logger });
  try {
    await v.engine.reconcile();
    const s = { ...v.engine.stats(), read_only: v.readOnly };
    if (o.json) printJson(o.out, s);
    else for (const [k, val] of Object.entries(s)) o.out(`${k}: ${typeof val === 'object' ? JSON.stringify(val) : String(val)}`);
    return 0;
  } finally {
    await v.close();
  }
}
