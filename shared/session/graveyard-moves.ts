/**
 * The graveyard's move (docs/ledger.md → Graveyard): right after a write through Lithos retires a ledger entry
 * (its own state change, or a decision it superseded, deprecated or aborted), the entry's whole file is appended to
 * its kind's graveyard note and the living note keeps a stub. It runs after the session's write (or an accepted
 * proposal) and its `ledger.state` / `ledger.intent` audit; a state a person changes in Obsidian moves only once the
 * note is quiet (graveyard-watch.ts), never under their cursor, and a buried note the person edits stays as they leave it.
 *
 * Order makes it lossless: the entry is appended first and read back (its sha256 checked), and only then is the
 * note's text replaced, and only if it is still the text that was buried. Both writes are the engine's rule writes
 * (whose the note is does not change), audited `graveyard.move`.
 */
import type { AuditActor } from '../governance/audit';
import { inHiddenFolder } from '../governance/gate';
import { LEDGER_FIELDS, LEDGER_STATES, type LedgerKind } from '../model/ledger';
import { ledgerIdOf } from '../model/ledger-id';
import { DEFAULT_NAMESPACE } from '../model/namespace';
import { isRetired } from '../model/phases';
import type { NoteMeta } from '../model/types';
import { BOM, entrySection, frontmatterBlock, graveyardIntro, graveyardNote, isGraveyardPath, nextHeading, pointersIn, readEntry, revivalSection, sha256, stubText, type BuriedEntry } from '../ledger/graveyard';
import type { Services } from './services';

export const GRAVEYARD_RULE: AuditActor = { kind: 'rule', id: 'graveyard' };
const MANAGED = 'graveyard';

/**
 * After a session's write of `path` (its metadata before: `before`): buries the note when this write retired it,
 * and every note the write replaced (`replaced`). `cause` is who wrote.
 */
export async function buryAfterWrite(services: Services, cause: AuditActor, before: NoteMeta | null, path: string, replaced: readonly string[]): Promise<void> {
  const now = services.notes.noteAtPath(path)?.cached.meta.ledger;
  const was = before?.ledger;
  const retiredNow = now !== undefined && isRetired(now.kind, now.state, false) && !(was && was.kind === now.kind && was.state === now.state);
  for (const p of retiredNow ? [path, ...replaced] : replaced) await bury(services, cause, p);
  // An entry brought back to a living state (a refuted claim to contested, a dead construct to active) gets its text back.
  const revived = now !== undefined && was?.kind === now.kind && isRetired(was.kind, was.state, false) && !isRetired(now.kind, now.state, false);
  if (revived) await exhume(services, cause, path);
}

/**
 * Puts a stub's buried body back (a revived entry): only while the body is still a stub the move left (managed
 * callouts aside; its state line may have followed a later state) and the entry's sha256 holds; the frontmatter stays
 * as it is now. The graveyard keeps the entry and gets a dated `revived` correction appended (revivalSection).
 */
export async function exhume(services: Services, cause: AuditActor, path: string): Promise<boolean> {
  const live = services.notes.noteAtPath(path);
  const text = live ? await textOf(services, live.path) : null;
  const ptr = text === null ? undefined : pointersIn(text).at(-1);
  const ledger = live?.cached.meta.ledger;
  if (!live || !ledger || text === null || !ptr) return false;
  const gpath = `${ptr.note}.md`;
  const graveyard = await textOf(services, gpath);
  const entry = graveyard === null ? null : readEntry(graveyard, ptr.heading);
  if (!entry || (await sha256(entry.text)) !== entry.sha256) return false;
  const fm = frontmatterBlock(text);
  const successors = [entry.successor, await successorOf(services, live.path)];
  if (!isStub(text, entry, { title: live.cached.meta.title, kind: ledger.kind, note: ptr.note, heading: ptr.heading, successors })) return false; // the person wrote there: leave it
  const body = entry.text.slice(frontmatterBlock(entry.text).length);
  const restored = await editWhole(services, live.path, (t) => (t === text ? fm + body : t));
  if (!restored) return false;
  let correction = '';
  await editWhole(services, gpath, (t) => {
    correction = nextHeading(t, entry.ledgerId);
    const section = revivalSection({ heading: correction, kind: entry.kind, state: ledger.state, path: live.path, revived: new Date(services.clock.now()).toISOString(), restored: ptr.heading, sha256: entry.sha256 });
    return `${t}${t.endsWith('\n') ? '' : '\n'}${section}`;
  });
  await services.governance.audit.append({
    action: 'graveyard.move',
    actor: GRAVEYARD_RULE,
    target: live.nodeId,
    data: { path: live.path, kind: entry.kind, ledger_id: entry.ledgerId, state: ledger.state, restored: true, graveyard: gpath, section: ptr.heading, correction, sha256: entry.sha256, cause },
  });
  await services.conflicts.syncCallouts(live.nodeId);
  return true;
}

/** Whether a note's body is still a stub the move wrote for `entry` (any state of its kind, any of `successors`). */
function isStub(text: string, entry: BuriedEntry, s: { title: string; kind: LedgerKind; note: string; heading: string; successors: (string | null)[] }): boolean {
  const own = text.startsWith(BOM) ? text.slice(1) : text; // a stub's own text never starts with the file's mark
  const body = withoutManaged(own.slice(frontmatterBlock(own).length));
  const states = LEDGER_STATES[s.kind] as readonly string[];
  return states.some((state) =>
    s.successors.some((successor) => withoutManaged(stubText(entry.text, { title: s.title, state, note: s.note, heading: s.heading, successor }).slice(frontmatterBlock(entry.text).length)) === body),
  );
}

/**
 * A stub whose entry changed state again (a construct's dead ↔ evolved correction): its state line follows, while
 * the body is still a stub the move wrote; the graveyard entry is unchanged (it holds the text, not the state).
 */
async function restub(services: Services, path: string, text: string, state: string): Promise<boolean> {
  const ptr = pointersIn(text).at(-1)!;
  const graveyard = await textOf(services, `${ptr.note}.md`);
  const entry = graveyard === null ? null : readEntry(graveyard, ptr.heading);
  const meta = services.notes.noteAtPath(path)?.cached.meta;
  if (!entry || !meta?.ledger) return false;
  const fm = frontmatterBlock(text);
  const successor = (await successorOf(services, path)) ?? entry.successor;
  const stubOf = (st: string, succ: string | null) => stubText(entry.text, { title: meta.title, state: st, note: ptr.note, heading: ptr.heading, successor: succ }).slice(frontmatterBlock(entry.text).length);
  if (!isStub(text, entry, { title: meta.title, kind: meta.ledger.kind, note: ptr.note, heading: ptr.heading, successors: [entry.successor, successor] })) return false;
  const changed = await editWhole(services, path, (t) => (t === text ? fm + stubOf(state, successor) : t));
  if (changed) await services.conflicts.syncCallouts(services.notes.noteAtPath(path)?.nodeId ?? path);
  return false;
}

/** The note's `superseded_by` as it is now, or null. */
async function successorOf(services: Services, path: string): Promise<string | null> {
  const field = (await services.notes.parse(path)).frontmatter[LEDGER_FIELDS.supersededBy];
  return typeof field === 'string' && field.trim() !== '' ? field.trim() : null;
}

/** A body without the engine's managed blocks (callouts) and blank lines: what a person wrote in it. */
function withoutManaged(body: string): string {
  return body
    .replace(/%% lithos:begin[\s\S]*?%% lithos:end %%/g, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .join('\n');
}

/** Moves one retired entry's text to the graveyard; false when there is nothing to move (not retired, no ID, a stub). */
export async function bury(services: Services, cause: AuditActor, path: string): Promise<boolean> {
  const notes = services.notes;
  const live = notes.noteAtPath(path);
  const meta = live?.cached.meta;
  if (!live || !meta?.ledger || isGraveyardPath(live.path) || !isRetired(meta.ledger.kind, meta.ledger.state, false)) return false;
  const original = await textOf(services, live.path);
  if (original === null) return false;
  if (pointersIn(original).length > 0) return restub(services, live.path, original, meta.ledger.state);
  const parsed = await notes.parse(live.path);
  const ledgerId = ledgerIdOf(parsed.frontmatter);
  if (ledgerId === null) return false;
  const kind = meta.ledger.kind;
  const hidden = services.governance.policy.get().hidden_folders.find((f) => inHiddenFolder([f], live.path)) ?? null;
  const note = graveyardNote(kind, { namespace: meta.namespace, access_scope: meta.access_scope, author: meta.author, hidden_folder: hidden });
  const gpath = `${note}.md`;
  const successor = await successorOf(services, live.path);
  const digest = await sha256(original);
  const entry = (heading: string) =>
    entrySection({ heading, ledgerId, kind, state: meta.ledger!.state, path: live.path, successor, buried: new Date(services.clock.now()).toISOString(), sha256: digest, text: original });

  // 1. Append the entry (the graveyard only ever grows).
  let heading = ledgerId;
  if (notes.noteAtPath(gpath)) {
    await editWhole(services, gpath, (t) => {
      heading = nextHeading(t, ledgerId);
      return `${t}${t.endsWith('\n') ? '' : '\n'}${entry(heading)}`;
    });
  } else {
    await notes.writeNote(
      { path: gpath, mode: 'create', content: graveyardIntro(kind) + entry(heading), fields: { title: note.split('/').pop()!, namespace: meta.access_scope === 'shared' ? DEFAULT_NAMESPACE : meta.namespace, access_scope: meta.access_scope, status: 'archived', tags: ['graveyard'] }, actor: meta.author },
      GRAVEYARD_RULE,
    );
  }
  // 2. Read it back: the note loses its text only once the graveyard provably holds it.
  const graveyard = await textOf(services, gpath);
  const back = graveyard === null ? null : readEntry(graveyard, heading);
  const held = back !== null && back.text === original && back.sha256 === digest;
  // 3. The stub, if the note still holds the text that was buried (a person may have typed since).
  let changedMeanwhile = false;
  const stubbed =
    held &&
    (await editWhole(services, live.path, (t) => {
      changedMeanwhile = t !== original;
      return changedMeanwhile ? t : stubText(original, { title: meta.title, state: meta.ledger!.state, note, heading, successor });
    }));
  // Why a note kept its text: the graveyard did not read back as written, or the note changed since it was read.
  const kept = stubbed ? {} : { kept_text: held ? (changedMeanwhile ? 'changed_meanwhile' : 'unchanged') : 'not_read_back' };
  await services.governance.audit.append({
    action: 'graveyard.move',
    actor: GRAVEYARD_RULE,
    target: live.nodeId,
    data: { path: live.path, kind, ledger_id: ledgerId, state: meta.ledger.state, graveyard: gpath, section: heading, sha256: digest, stubbed, ...kept, cause },
  });
  // The managed callouts (a superseded decision's status) go back onto the stub.
  if (stubbed) await services.conflicts.syncCallouts(live.nodeId);
  return stubbed;
}

/**
 * Edits a note's whole text, a byte-order mark included, as the graveyard's rule write: text-edit.ts hands the text
 * without the mark and keeps the file's own, so the buried text and the comparisons use the file's every character.
 */
function editWhole(services: Services, path: string, fn: (whole: string) => string): Promise<boolean> {
  return services.notes.editNoteText(
    path,
    (t, bom) => {
      const whole = bom ? BOM + t : t;
      const next = fn(whole);
      if (next === whole) return t;
      return next.startsWith(BOM) ? next.slice(1) : next;
    },
    GRAVEYARD_RULE,
    MANAGED,
  );
}

/** A note's text as it is now (a byte-order mark included), read under its lock without writing. */
async function textOf(services: Services, path: string): Promise<string | null> {
  let text: string | null = null;
  await editWhole(services, path, (t) => (text = t));
  return text;
}
