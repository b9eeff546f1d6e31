/**
 * The ledger fields of a note whose note_type is a ledger kind (model/ledger.ts), read leniently from its
 * frontmatter like the rest of validate.ts: a string where a list belongs is a one-item list, states and
 * stances in any case, every deviation recorded as a problem, never a throw. Whether the entry keeps its
 * kind's rules (required fields, stub form, a state of its own kind) is judged by model/ledger-rules.ts.
 */
import {
  EVIDENCE_STANCES,
  LEDGER_FIELDS,
  LEDGER_STATES,
  type Evidence,
  type EvidenceStance,
  type LedgerKind,
  type LedgerState,
} from './ledger';

/** A ledger entry's fields as read; absent text is null, absent lists are empty. */
export interface LedgerMeta {
  kind: LedgerKind;
  /** The stable typed ID (`E007`) as written; its format and uniqueness are checked where IDs are allocated. */
  ledger_id: string | null;
  /** The kind's state, lower case; the kind's first state when absent or not one of its own. */
  state: LedgerState;
  target: string | null;
  rationale: string | null;
  evidence: Evidence[];
  context: string | null;
  trigger: string | null;
  method: string | null;
  /** Code pointers: paths, URLs or symbols. */
  code: string[];
  /** Lower case (`has debt`); panels show them in capitals. */
  modifiers: string[];
  superseded_by: string[];
}

/** What validate.ts's reader offers this parser (its lenient text and list readers, the raw value, problems). */
export interface FieldReader {
  text(field: string): string | null;
  list(field: string): string[];
  raw(field: string): unknown;
  /** The problem codes of validate.ts this parser uses (types.ts's ProblemCode; not imported: types.ts imports this file). */
  problem(code: 'wrong_type' | 'unknown_enum', field: string, message: string): void;
}

/** Spellings a person may use for a stance; anything else is reported and the item ignored. */
const STANCE_WORDS: Record<string, EvidenceStance> = {
  supports: 'supports', support: 'supports', supporting: 'supports', for: 'supports', pro: 'supports',
  refutes: 'refutes', refute: 'refutes', refuting: 'refutes', against: 'refutes', contradicts: 'refutes', con: 'refutes',
};

export function readStance(raw: string): EvidenceStance | null {
  return STANCE_WORDS[raw.trim().toLowerCase()] ?? null;
}

/** The kind's state for a written value (any case, spaces around), or null when it is not one of the kind's. */
export function stateOf(kind: LedgerKind, raw: unknown): LedgerState | null {
  if (typeof raw !== 'string') return null;
  const key = raw.trim().toLowerCase();
  return (LEDGER_STATES[kind] as readonly string[]).find((s) => s === key) as LedgerState | undefined ?? null;
}

export function parseLedgerMeta(kind: LedgerKind, r: FieldReader): LedgerMeta {
  const F = LEDGER_FIELDS;
  return {
    kind,
    ledger_id: r.text(F.ledgerId),
    // A state of another kind or none at all is reported by the kind rules (ledger-rules.ts), once.
    state: stateOf(kind, r.raw(F.state)) ?? LEDGER_STATES[kind][0],
    target: r.text(F.target),
    rationale: r.text(F.rationale),
    evidence: readEvidence(r),
    context: r.text(F.context),
    trigger: r.text(F.trigger),
    method: r.text(F.method),
    code: r.list(F.code),
    modifiers: [...new Set(r.list(F.modifiers).map((m) => m.replace(/\s+/g, ' ').toLowerCase()))],
    superseded_by: r.list(F.supersededBy),
  };
}

/**
 * The evidence chain: a list of `{ref, stance}` mappings or plain refs (a link, path, ID, receipt or event id;
 * stance `supports`). An unquoted `[[Note]]` is YAML for a list in a list: read back as the link it was meant
 * to be. Items without a readable ref or stance are reported and ignored, never guessed.
 */
function readEvidence(r: FieldReader): Evidence[] {
  const field = LEDGER_FIELDS.evidence;
  const raw = r.raw(field);
  if (raw === undefined || raw === null) return [];
  const items = Array.isArray(raw) ? raw : [raw];
  const out: Evidence[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const at = Array.isArray(raw) ? `${field}.${i}` : field;
    const e = evidenceItem(item, at, r);
    if (!e) return;
    const key = `${e.stance}\u0000${e.ref}`;
    if (!seen.has(key)) out.push(e);
    seen.add(key);
  });
  return out;
}

function evidenceItem(item: unknown, at: string, r: FieldReader): Evidence | null {
  if (item === null || item === undefined) return null;
  const plain = refText(item);
  if (plain !== null) return plain === '' ? null : { ref: plain, stance: 'supports' };
  if (typeof item !== 'object' || Array.isArray(item)) {
    r.problem('wrong_type', at, `"${at}" should be a ref (link, path or ID) or a mapping {ref, stance}; found ${shown(item)}. Ignored.`);
    return null;
  }
  const m = item as Record<string, unknown>;
  const ref = refText(m.ref);
  if (ref === null || ref === '') {
    r.problem('wrong_type', `${at}.ref`, `"${at}" needs a ref: the note, receipt or event that is the evidence; found ${shown(m.ref)}. Ignored.`);
    return null;
  }
  if (m.stance === undefined || m.stance === null) return { ref, stance: 'supports' };
  const stance = typeof m.stance === 'string' ? readStance(m.stance) : null;
  if (stance === null) {
    r.problem('unknown_enum', `${at}.stance`, `"${at}.stance" should be one of ${EVIDENCE_STANCES.join(', ')}; found ${shown(m.stance)}. The item is ignored rather than guessed.`);
    return null;
  }
  return { ref, stance };
}

/** Text of a ref: a string, a number (`1404`), or an unquoted wiki link YAML read as `[["Note"]]`; null otherwise. */
function refText(v: unknown): string | null {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && v[0].length === 1 && typeof v[0][0] === 'string') return `[[${v[0][0].trim()}]]`;
  return null;
}

function shown(v: unknown): string {
  if (v === undefined || v === null) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `the text "${v.length > 60 ? `${v.slice(0, 57)}...` : v}"`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${v}`;
  return typeof v === 'object' ? 'a mapping' : typeof v;
}

/** The ledger fields a writer may set (NoteFields); null clears a text field. ID and successor are the engine's. */
export interface LedgerFields {
  state?: LedgerState;
  target?: string | null;
  rationale?: string | null;
  evidence?: Evidence[];
  context?: string | null;
  trigger?: string | null;
  method?: string | null;
  code?: string[];
  modifiers?: string[];
}
