/**
 * An agent's write of a ledger entry keeps its kind's rules (model/ledger-rules.ts): the note as it would
 * be after the write is judged before anything reaches the disk or becomes a proposal, and a write that
 * breaks a rule the note did not already break, or makes a transition its kind forbids, is refused with
 * `invalid_argument` naming the field and the fix. A rule the note already broke (a person's draft) does
 * not block an agent's unrelated edit; doctor keeps listing it. A person is never refused here.
 */
import { stringify } from 'yaml';
import { LithosError } from '../errors';
import { isLedgerKind, LEDGER_KINDS } from '../model/ledger';
import { brokenRules, EVERY_KIND_FIELDS, KIND_FIELDS, transitionRefusal, type LedgerEntry } from '../model/ledger-rules';
import type { LedgerMeta } from '../model/ledger-meta';
import { parseNote } from '../model/note';
import type { NoteFields } from '../model/note-write';
import type { NoteMeta, ParsedNote } from '../model/types';
import type { AuditActor } from '../governance/audit';
import type { LiveNote } from '../vault/note-indexer';
import type { Services } from './services';

const LEDGER_WRITE_FIELDS: readonly string[] = [...EVERY_KIND_FIELDS, ...LEDGER_KINDS.flatMap((k) => KIND_FIELDS[k])];

export async function checkLedgerWrite(services: Services, path: string, before: LiveNote | null, w: { content?: string; fields: NoteFields }): Promise<void> {
  const f = w.fields as Record<string, unknown>;
  const given = LEDGER_WRITE_FIELDS.filter((k) => f[k] !== undefined);
  const type = w.fields.note_type ?? before?.cached.meta.note_type ?? 'observation';
  if (!isLedgerKind(type)) {
    if (given.length) refuse(path, given[0], `"${given[0]}" is a ledger field; this note is a ${type}.`, 'Set note_type to decision, claim, workflow or construct, or leave the field out.');
    return;
  }
  // The note as it is on disk now (the index may lag a person's edit): what the writer will merge into.
  const current = before ? await services.notes.parse(before.path) : null;
  for (const k of given) {
    if (!EVERY_KIND_FIELDS.includes(k) && !KIND_FIELDS[type].includes(k)) {
      const owner = LEDGER_KINDS.find((kind) => KIND_FIELDS[kind].includes(k))!;
      refuse(path, k, `"${k}" is a ${owner}'s field, not a ${type}'s.`, `A ${type} has ${[...KIND_FIELDS[type], ...EVERY_KIND_FIELDS].join(', ')}; leave "${k}" out or write a ${owner}.`);
    }
  }
  const after = composed(path, current, w);
  const had = current?.meta.ledger?.kind === type ? new Set(brokenRules(entryOf(current, current.meta.ledger)).map((b) => b.rule.id)) : new Set<string>();
  const afterLedger = after.meta.ledger;
  if (!afterLedger) return; // cannot happen: the type is a ledger kind, and parseNote reads its fields
  // A write that retires a construct may leave it whole: the graveyard moves its text and leaves the stub (graveyard-moves.ts).
  const buries = current?.meta.ledger?.state !== afterLedger.state;
  const broken = brokenRules(entryOf(after, afterLedger)).filter((b) => b.rule.level === 'required' && !had.has(b.rule.id) && !(buries && b.rule.id === 'construct-stub'));
  if (broken.length) {
    const [first] = broken;
    refuse(path, first.rule.field, first.message, first.rule.fix, {
      rule: first.rule.id,
      broken: broken.map((b) => ({ rule: b.rule.id, field: b.rule.field, message: `${b.message} ${b.rule.fix}` })),
    });
  }
  if (current?.meta.ledger) {
    const refusal = transitionRefusal(current.meta.ledger, afterLedger);
    if (refusal) refuse(path, 'state', refusal, '', { from: current.meta.ledger.state, to: afterLedger.state });
  }
}

/** The note as the writer would leave it: its frontmatter with the given fields set, the new body or the old. */
function composed(path: string, current: ParsedNote | null, w: { content?: string; fields: NoteFields }): ParsedNote {
  const fm: Record<string, unknown> = { ...(current?.frontmatter ?? {}) };
  for (const [k, v] of Object.entries(w.fields)) if (v !== undefined) fm[k] = v;
  const body = w.content ?? current?.fullBody ?? current?.body ?? '';
  return parseNote(path, `---\n${stringify(fm, { lineWidth: 0 })}---\n${body}`);
}

function entryOf(n: ParsedNote, ledger: LedgerMeta): LedgerEntry {
  return { path: n.path, ledger, frontmatter: n.frontmatter, body: n.body, headings: n.headings, links: n.links };
}

function refuse(path: string, field: string, what: string, fix: string, data: Record<string, unknown> = {}): never {
  throw new LithosError('invalid_argument', `Cannot write "${path}": ${what}${fix ? ` ${fix}` : ''}`, { path, field, ...data });
}

/**
 * A write that moved a ledger entry to another state of its kind is audited `ledger.state` (after the
 * `note.write`), so each entry's history of states can be read back. A new entry's first state is in its
 * `note.write`. `extra` adds to the entry's data (an accepted proposal's id).
 */
export async function auditStateChange(services: Services, actor: AuditActor, before: NoteMeta | null, path: string, extra: Record<string, unknown> = {}): Promise<void> {
  const from = before?.ledger;
  const note = services.notes.note(path);
  const to = note?.path === path ? note.cached.meta.ledger : undefined;
  if (!note || !from || !to || from.kind !== to.kind || from.state === to.state) return;
  await services.governance.audit.append({ action: 'ledger.state', actor, target: note.nodeId, data: { path, kind: to.kind, from: from.state, to: to.state, ...extra } });
}
