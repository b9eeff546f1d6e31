import fc from 'fast-check';
import { isUuid } from '../../shared/model/ids';
import {
  MIGRATIONS,
  REGISTRY_BLOB,
  applyMigration,
  canMigrate,
  planMigration,
  readRegistry,
  writeRegistry,
  type MigrationRegistry,
} from '../../shared/model/migrations';
import { parseNote } from '../../shared/model/note';
import { CURRENT_SCHEMA_VERSION } from '../../shared/model/types';
import { MemoryBlobStore } from '../twins/memory-blobs';
import { MemoryVault } from '../twins/memory-vault';

const ID = '3f2b1c9e-1234-4abc-8def-0123456789ab';
const FIXED = '00000000-0000-4000-8000-000000000001';
const fixedId = { newId: () => FIXED };

describe('MIGRATIONS', () => {
  it('chains from version 1 to the current version', () => {
    expect(MIGRATIONS.map(({ from, to, name }) => ({ from, to, name }))).toEqual([{ from: 1, to: 2, name: 'add_lcma_fields' }]);
    expect(MIGRATIONS[MIGRATIONS.length - 1].to).toBe(CURRENT_SCHEMA_VERSION);
  });
});

describe('planMigration', () => {
  it('plans the LCMA fields for a v1 note, with read-time defaults and a new id', () => {
    const fm = { title: 'T', tags: ['a'] };
    expect(planMigration(fm, 'project/lithos/x.md', fixedId)).toEqual({
      from: 1,
      to: 2,
      changes: [
        { field: 'id', before: null, after: FIXED },
        { field: 'namespace', before: null, after: 'project/lithos' },
        { field: 'access_scope', before: null, after: 'shared' },
        { field: 'note_type', before: null, after: 'observation' },
        { field: 'status', before: null, after: 'active' },
        { field: 'entities', before: null, after: [] },
        { field: 'schema_version', before: null, after: 2 },
      ],
    });
    expect(fm).toEqual({ title: 'T', tags: ['a'] }); // planning changes nothing
  });

  it('keeps every explicit value, a valid id included, and fills only what is absent or null', () => {
    const fm = { id: ID, schema_version: 1, namespace: 'mine', note_type: 'concept', status: null, entities: ['E'] };
    expect(planMigration(fm, 'x.md', fixedId).changes).toEqual([
      { field: 'access_scope', before: null, after: 'shared' },
      { field: 'status', before: null, after: 'active' },
      { field: 'schema_version', before: 1, after: 2 },
    ]);
  });

  it('uses the id the caller supplies (the registry’s) before generating one', () => {
    const plan = planMigration({}, 'x.md', { id: ID, newId: () => FIXED });
    expect(plan.changes[0]).toEqual({ field: 'id', before: null, after: ID });
    expect(() => planMigration({}, 'x.md', { id: 'not-a-uuid' })).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });

  it('generates a random UUID by default', () => {
    const after = planMigration({}, 'x.md').changes.find((c) => c.field === 'id')?.after;
    expect(isUuid(after)).toBe(true);
  });

  it('never overwrites an invalid id or an invalid enum value (they are the user’s data)', () => {
    const fm = { id: 'note-1', note_type: 'musing', namespace: 'bad name' };
    const fields = planMigration(fm, 'x.md', fixedId).changes.map((c) => c.field);
    expect(fields).toEqual(['access_scope', 'status', 'entities', 'schema_version']);
  });

  it.each([
    ['already current', { schema_version: 2 }, 2, 2, undefined],
    ['from a newer engine', { schema_version: 3 }, 3, 3, 'newer'],
    ['with a text schema_version', { schema_version: 'two' }, 1, 1, 'not a version'],
    ['with a fractional schema_version', { schema_version: 1.5 }, 1, 1, 'not a version'],
  ])('plans nothing for a note %s', (_name, fm, from, to, skipped) => {
    const plan = planMigration(fm, 'x.md', fixedId);
    expect(plan).toEqual(expect.objectContaining({ from, to, changes: [] }));
    if (skipped) expect(plan.skipped).toContain(skipped);
    else expect(plan.skipped).toBeUndefined();
  });
});

describe('applyMigration', () => {
  it('applies the plan in place and is idempotent', () => {
    const fm: Record<string, unknown> = { title: 'T' };
    const first = applyMigration(fm, 'a/b.md', fixedId);
    expect(first.changes).toHaveLength(7);
    expect(fm).toEqual({
      title: 'T',
      id: FIXED,
      namespace: 'a',
      access_scope: 'shared',
      note_type: 'observation',
      status: 'active',
      entities: [],
      schema_version: 2,
    });
    expect(applyMigration(fm, 'a/b.md', { newId: () => ID }).changes).toEqual([]);
    expect(planMigration(fm, 'a/b.md').changes).toEqual([]);
  });

  it('never removes, renames or changes a present field (generated frontmatter)', () => {
    const value = fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }));
    const key = fc.constantFrom('id', 'title', 'namespace', 'access_scope', 'note_type', 'status', 'entities', 'schema_version', 'custom', 'tags');
    fc.assert(
      fc.property(fc.dictionary(key, value), (fm) => {
        const before = structuredClone(fm);
        const plan = applyMigration(fm, 'f/x.md', fixedId);
        for (const [k, v] of Object.entries(before)) {
          expect(k in fm).toBe(true);
          const changed = plan.changes.find((c) => c.field === k);
          if (changed && k === 'schema_version') expect(v === null || v === 1).toBe(true);
          else if (changed) expect(v).toBeNull();
          else expect(fm[k]).toEqual(v);
        }
        expect(planMigration(fm, 'f/x.md', fixedId).changes).toEqual([]);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('migrates a note through VaultPort.processFrontMatter, keeping the body and unknown fields', async () => {
    const vault = new MemoryVault({ 'inbox/Idea.md': '---\ntitle: Idea\ncustom: [1, 2]\n---\n# Body\n[[Link]]\n' });
    await vault.processFrontMatter('inbox/Idea.md', (fm) => applyMigration(fm, 'inbox/Idea.md', { id: ID }));
    const note = parseNote('inbox/Idea.md', await vault.readBytes('inbox/Idea.md'));
    expect(note.problems).toEqual([]);
    expect(note.frontmatter).toEqual(expect.objectContaining({ title: 'Idea', custom: [1, 2], schema_version: 2 }));
    expect(note.meta).toEqual(expect.objectContaining({ id: ID, schema_version: 2, namespace: 'inbox', note_type: 'observation' }));
    expect(note.body).toBe('# Body\n[[Link]]\n');
  });
});

describe('canMigrate', () => {
  it.each([
    ['a valid note', '---\ntitle: x\n---\nbody', true],
    ['a note without frontmatter', 'body', true],
    ['a note with wrong field types', '---\ntags: a b\n---\n', true],
    ['malformed YAML', '---\na: [b\n---\n', false],
    ['a list as frontmatter', '---\n- a\n---\n', false],
    ['a binary file', 'a\0b', false],
  ])('%s → %s', (_name, text, ok) => {
    expect(canMigrate(parseNote('x.md', text))).toBe(ok);
  });
});

describe('migration registry (.lithos/migrations/registry.json)', () => {
  const decode = (b: Uint8Array | undefined): unknown => JSON.parse(new TextDecoder().decode(b));
  const expected: MigrationRegistry = { current_version: 2, migrations: [{ from: 1, to: 2, name: 'add_lcma_fields' }] };

  it('is created on first read', async () => {
    const blobs = new MemoryBlobStore();
    expect(await readRegistry(blobs)).toEqual(expected);
    expect(decode(blobs.files.get(REGISTRY_BLOB))).toEqual(expected);
  });

  it('is read back without rewriting', async () => {
    const blobs = new MemoryBlobStore();
    await writeRegistry(blobs);
    const writes = blobs.writes;
    expect(await readRegistry(blobs.clone())).toEqual(expected);
    expect(await readRegistry(blobs)).toEqual(expected);
    expect(blobs.writes).toBe(writes);
  });

  it('is rebuilt when unreadable (it only describes code)', async () => {
    const blobs = new MemoryBlobStore();
    await writeRegistry(blobs);
    blobs.truncate(REGISTRY_BLOB);
    expect(await readRegistry(blobs)).toEqual(expected);
    blobs.files.set(REGISTRY_BLOB, new TextEncoder().encode('{"current_version":"x"}'));
    expect(await readRegistry(blobs)).toEqual(expected);
  });

  it('keeps what a newer engine recorded: entries are merged and the version never goes down', async () => {
    const blobs = new MemoryBlobStore();
    const newer = { current_version: 3, migrations: [...expected.migrations, { from: 2, to: 3, name: 'future_step' }] };
    blobs.files.set(REGISTRY_BLOB, new TextEncoder().encode(JSON.stringify(newer)));
    expect(await readRegistry(blobs)).toEqual(newer);
    expect(await writeRegistry(blobs)).toEqual(newer);
    expect(decode(blobs.files.get(REGISTRY_BLOB))).toEqual(newer);
  });

  it('merges a registry passed by the caller', async () => {
    const blobs = new MemoryBlobStore();
    const extra = { current_version: 2, migrations: [{ from: 0, to: 1, name: 'legacy' }] };
    expect((await writeRegistry(blobs, extra)).migrations.map((m) => m.name)).toEqual(['legacy', 'add_lcma_fields']);
  });
});
