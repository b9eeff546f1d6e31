import { LithosError } from '../errors';
import type { MemoryTables } from './memory-tables';
import type { NoteEditorRow } from './memory-types';
import { nonEmpty } from './memory-validate';

const KINDS = ['person', 'agent'];

/** memory.sqlite's note_editors: who created each note and who last changed its title or body (vault/note-editors.ts decides). */
export class MemoryEditors {
  constructor(private readonly t: MemoryTables) {}

  /** The note's row; null when neither its creation nor a change of it has been seen since tracking began. */
  get(nodeId: string): NoteEditorRow | null {
    const r = this.t.db.one('SELECT node_id, creator_kind, editor_kind, editor, fingerprint, at FROM note_editors WHERE node_id = ?', [nodeId]);
    if (!r) return null;
    const kind = (v: unknown): 'person' | 'agent' => (v === 'agent' ? 'agent' : 'person');
    return { node_id: String(r[0]), creator_kind: kind(r[1]), editor_kind: kind(r[2]), editor: r[3] === null ? null : String(r[3]), fingerprint: String(r[4]), at: Number(r[5]) };
  }

  set(row: NoteEditorRow): Promise<void> {
    return this.t.mutate(() => {
      nonEmpty('node_id', row.node_id);
      nonEmpty('fingerprint', row.fingerprint);
      if (!KINDS.includes(row.creator_kind) || !KINDS.includes(row.editor_kind)) {
        throw new LithosError('invalid_argument', 'creator_kind and editor_kind must be "person" or "agent".', { creator_kind: row.creator_kind, editor_kind: row.editor_kind });
      }
      if (row.editor_kind === 'agent') nonEmpty('editor', row.editor);
      return [{ kind: 'editor', row: { ...row, editor: row.editor_kind === 'person' ? null : row.editor } }];
    });
  }
}
