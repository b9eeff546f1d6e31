import { contentHash } from '../../shared/model/hash';
import { parseNote } from '../../shared/model/note';
import { MAX_NOTE_BYTES, type ParsedNote, type ProblemCode } from '../../shared/model/types';

const enc = new TextEncoder();
const ID = '3f2b1c9e-1234-4abc-8def-0123456789ab';

function codes(note: ParsedNote): ProblemCode[] {
  return note.problems.map((p) => p.code);
}

describe('parseNote: a well-formed note', () => {
  const text = [
    '---',
    `id: ${ID}`,
    'title: Retrieval design',
    'author: agent-7',
    'created_at: 2024-01-02',
    'tags: [memory, "#search"]',
    'aliases: [Retrieval]',
    'confidence: 0.7',
    'contributors: [alice, bob]',
    'source: https://example.com',
    'supersedes: [old-note]',
    'namespace: project/lithos',
    'access_scope: project',
    'note_type: concept',
    'entities: [Orama, sql.js]',
    'status: archived',
    'summaries:',
    '  short: One line.',
    '  long: A longer summary.',
    'custom: kept',
    '---',
    '# Heading',
    'See [[Other note#Part|it]] and #inline-tag.',
  ].join('\n');
  const note = parseNote('project/lithos/Retrieval.md', enc.encode(text));

  it('reads every field without problems', () => {
    expect(note.problems).toEqual([]);
    expect(note.meta).toEqual({
      id: ID,
      title: 'Retrieval design',
      author: 'agent-7',
      created_at: '2024-01-02',
      updated_at: null,
      tags: ['memory', 'search', 'inline-tag'],
      aliases: ['Retrieval'],
      confidence: 0.7,
      contributors: ['alice', 'bob'],
      source: 'https://example.com',
      supersedes: ['old-note'],
      schema_version: 1,
      namespace: 'project/lithos',
      access_scope: 'project',
      note_type: 'concept',
      entities: ['Orama', 'sql.js'],
      status: 'archived',
      summaries: { short: 'One line.', long: 'A longer summary.' },
    });
  });

  it('keeps the raw frontmatter (unknown fields included), the body, headings and links', () => {
    expect(note.hasFrontmatter).toBe(true);
    expect(note.frontmatter.custom).toBe('kept');
    expect(note.body).toBe('# Heading\nSee [[Other note#Part|it]] and #inline-tag.');
    expect(note.headings).toEqual([{ level: 1, text: 'Heading', line: 0 }]);
    expect(note.links).toEqual([
      { raw: '[[Other note#Part|it]]', target: 'Other note', heading: 'Part', alias: 'it', embed: false, kind: 'wiki', line: 1 },
    ]);
    expect(note.size).toBe(enc.encode(text).byteLength);
    expect(note.contentHash).toBe(contentHash(text));
  });

  it('gives the same result for bytes and for the decoded string', () => {
    expect(parseNote('project/lithos/Retrieval.md', text)).toEqual(note);
  });
});

describe('parseNote: read-time defaults', () => {
  it.each([
    ['a note without frontmatter', 'Just text.', 'Inbox/Idea.md', 'Idea', 'Inbox'],
    ['a root note', '---\ntitle: "  "\n---\nx', 'Idea.md', 'Idea', 'default'],
    ['an empty note', '', 'deep/er/Empty.md', 'Empty', 'deep/er'],
  ])('%s', (_name, text, path, title, namespace) => {
    const note = parseNote(path, text);
    expect(note.problems).toEqual([]);
    expect(note.meta).toEqual(
      expect.objectContaining({
        id: null,
        title,
        tags: [],
        confidence: 1,
        schema_version: 1,
        namespace,
        access_scope: 'shared',
        note_type: 'observation',
        status: 'active',
        entities: [],
        summaries: {},
      }),
    );
  });

  it('treats empty (null) properties as absent, as Obsidian writes them', () => {
    const note = parseNote('a.md', '---\ntags:\naliases:\nconfidence:\nnote_type:\nid:\n---\n');
    expect(note.problems).toEqual([]);
    expect(note.meta).toEqual(expect.objectContaining({ tags: [], aliases: [], confidence: 1, note_type: 'observation', id: null }));
  });
});

describe('parseNote: bad frontmatter is recorded, never thrown', () => {
  it.each<[string, string, ProblemCode[], Partial<ParsedNote['meta']>]>([
    ['tags as a comma string', 'tags: "a, #b"', ['wrong_type'], { tags: ['a', 'b'] }],
    ['tags as a space string', 'tags: a b', ['wrong_type'], { tags: ['a', 'b'] }],
    ['aliases as a string', 'aliases: Other name', [], { aliases: ['Other name'] }],
    ['confidence "high"', 'confidence: high', ['wrong_type'], { confidence: 1 }],
    ['confidence as numeric text', 'confidence: "0.25"', ['wrong_type'], { confidence: 0.25 }],
    ['confidence above 1', 'confidence: 7', ['out_of_range'], { confidence: 1 }],
    ['confidence below 0', 'confidence: -0.5', ['out_of_range'], { confidence: 0 }],
    ['confidence NaN', 'confidence: .nan', ['out_of_range'], { confidence: 1 }],
    ['unknown note_type', 'note_type: musing', ['unknown_enum'], { note_type: 'observation' }],
    // fail closed: a scope the engine cannot read hides the note from agents rather than sharing it
    ['unknown access_scope', 'access_scope: world', ['unknown_enum'], { access_scope: 'user_private' }],
    ['unknown status', 'status: deleted', ['unknown_enum'], { status: 'active' }],
    ['enum in another case', 'note_type: " Concept"', [], { note_type: 'concept' }],
    ['status as a number', 'status: 3', ['wrong_type'], { status: 'active' }],
    ['id not a UUID', 'id: note-1', ['invalid_id'], { id: null }],
    ['id as a number', 'id: 42', ['invalid_id'], { id: null }],
    ['upper-case UUID', `id: ${ID.toUpperCase()}`, [], { id: ID }],
    ['title as a number', 'title: 1984', [], { title: '1984' }],
    ['title as a list', 'title: [a, b]', ['wrong_type'], { title: 'Note' }],
    ['author as a boolean', 'author: true', ['wrong_type'], { author: null }],
    ['created_at as a number', 'created_at: 20240102', [], { created_at: '20240102' }],
    ['contributors with a mapping item', 'contributors: [ann, {x: 1}]', ['wrong_type'], { contributors: ['ann'] }],
    ['entities as a mapping', 'entities: {a: 1}', ['wrong_type'], { entities: [] }],
    ['schema_version as text', 'schema_version: "2"', ['wrong_type'], { schema_version: 2 }],
    ['schema_version zero', 'schema_version: 0', ['wrong_type'], { schema_version: 1 }],
    ['schema_version from the future', 'schema_version: 9', ['out_of_range'], { schema_version: 9 }],
    ['namespace with spaces', 'namespace: "my space"', ['out_of_range'], { namespace: 'folder' }],
    ['namespace with ..', 'namespace: a/../b', ['out_of_range'], { namespace: 'folder' }],
    ['namespace as a list', 'namespace: [a]', ['wrong_type'], { namespace: 'folder' }],
    ['summaries as text', 'summaries: Short one', ['wrong_type'], { summaries: { short: 'Short one' } }],
    ['summaries.long as a list', 'summaries: {long: [1]}', ['wrong_type'], { summaries: {} }],
  ])('%s', (_name, yaml, problemCodes, meta) => {
    const note = parseNote('folder/Note.md', `---\n${yaml}\n---\nBody`);
    expect(codes(note)).toEqual(problemCodes);
    expect(note.meta).toEqual(expect.objectContaining(meta));
    for (const p of note.problems) {
      expect(p.path).toBe('folder/Note.md');
      expect(p.field).toBeDefined();
      expect(p.message.length).toBeGreaterThan(10);
    }
    expect(note.body).toBe('Body');
  });

  it.each<[string, string, ProblemCode]>([
    ['malformed YAML', '---\ntags: [a, b\ntitle: x\n---\nText [[Link]]', 'yaml_malformed'],
    ['a YAML list', '---\n- a\n- b\n---\nText [[Link]]', 'frontmatter_not_mapping'],
    ['a YAML scalar', '---\njust words\n---\nText [[Link]]', 'frontmatter_not_mapping'],
  ])('indexes a note with %s as plain text', (_name, text, code) => {
    const note = parseNote('Broken.md', text);
    expect(codes(note)).toEqual([code]);
    expect(note.frontmatter).toEqual({});
    expect(note.hasFrontmatter).toBe(true);
    expect(note.body).toBe(text);
    expect(note.meta.title).toBe('Broken');
    expect(note.links.map((l) => l.target)).toEqual(['Link']);
  });
});

describe('parseNote: bytes in', () => {
  it('reads a UTF-8 BOM note like the same note without it', () => {
    const plain = '---\ntitle: T\n---\nBody';
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(plain)]);
    const note = parseNote('a.md', withBom);
    expect(note.problems).toEqual([]);
    expect(note.meta.title).toBe('T');
    expect(note.body).toBe('Body');
    expect(note.contentHash).toBe(parseNote('a.md', plain).contentHash);
    expect(parseNote('a.md', `\uFEFF${plain}`).meta.title).toBe('T');
  });

  it('reads CRLF notes, normalising the body but hashing the text as written', () => {
    const text = '---\r\ntitle: T\r\ntags:\r\n  - x\r\n---\r\n# H\r\n[[L]]\r\n';
    const note = parseNote('a.md', enc.encode(text));
    expect(note.problems).toEqual([]);
    expect(note.meta).toEqual(expect.objectContaining({ title: 'T', tags: ['x'] }));
    expect(note.body).toBe('# H\n[[L]]\n');
    expect(note.headings).toEqual([{ level: 1, text: 'H', line: 0 }]);
    expect(note.links[0]).toEqual(expect.objectContaining({ target: 'L', line: 1 }));
    expect(note.contentHash).toBe(contentHash(text));
    expect(note.contentHash).not.toBe(contentHash(text.replace(/\r\n/g, '\n')));
  });

  it.each([
    ['NUL bytes', new Uint8Array([0x23, 0x20, 0x41, 0x00, 0x42])],
    ['invalid UTF-8', new Uint8Array([0x23, 0x20, 0xc3, 0x28, 0xff])],
    ['a PNG header', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00])],
  ])('refuses %s as binary, keeping the note findable by name', (_name, bytes) => {
    const note = parseNote('attachments/Photo 🌅.md', bytes);
    expect(codes(note)).toEqual(['binary_file']);
    expect(note.body).toBe('');
    expect(note.links).toEqual([]);
    expect(note.meta.title).toBe('Photo 🌅');
    expect(note.size).toBe(bytes.byteLength);
    expect(note.contentHash).toBe(contentHash(String.fromCharCode(...bytes)));
  });

  it('refuses a string with NUL characters as binary', () => {
    expect(codes(parseNote('a.md', 'a\0b'))).toEqual(['binary_file']);
  });

  it('reads UTF-16 text with a BOM and records the encoding problem', () => {
    const text = '---\ntitle: Wide\n---\n[[Link]]';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) bytes[2 + i * 2] = text.charCodeAt(i);
    const note = parseNote('w.md', bytes);
    expect(codes(note)).toEqual(['encoding']);
    expect(note.meta.title).toBe('Wide');
    expect(note.links.map((l) => l.target)).toEqual(['Link']);
  });

  it('indexes only the first MAX_NOTE_BYTES of a 5 MB body and says so', () => {
    const line = 'word [[Target]] ünïcödé ✨ #tag\n';
    const body = line.repeat(Math.ceil((5 * 1024 * 1024) / enc.encode(line).byteLength));
    const text = `---\ntitle: Huge\n---\n${body}`;
    const bytes = enc.encode(text);
    const note = parseNote('Huge.md', bytes);
    expect(codes(note)).toEqual(['note_too_large']);
    expect(note.problems[0].message).toContain(String(bytes.byteLength));
    expect(note.problems[0].message).toContain(String(MAX_NOTE_BYTES));
    expect(note.meta.title).toBe('Huge');
    expect(note.meta.tags).toEqual(['tag']);
    const kept = enc.encode(note.body).byteLength;
    expect(kept).toBeLessThanOrEqual(MAX_NOTE_BYTES);
    expect(kept).toBeGreaterThan(MAX_NOTE_BYTES - 4);
    expect(body.startsWith(note.body)).toBe(true);
    expect(note.links.length).toBe(note.body.split('\n').filter((l) => l.includes('[[Target]]')).length);
    expect(note.size).toBe(bytes.byteLength);
    expect(note.contentHash).toBe(contentHash(text));
  });

  it.each([
    ['emoji', 'Ideas 💡/Plan 🚀.md', 'Plan 🚀', 'Ideas 💡'],
    ['spaces', 'My Notes/Meeting notes 2024.md', 'Meeting notes 2024', 'My Notes'],
    ['non-Latin', 'проект/заметка.md', 'заметка', 'проект'],
    ['dots in the name', 'v1.2/Release 1.2.md', 'Release 1.2', 'v1.2'],
  ])('takes the title and namespace from a path with %s', (_name, path, title, namespace) => {
    const note = parseNote(path, 'text');
    expect(note.meta.title).toBe(title);
    expect(note.meta.namespace).toBe(namespace);
  });
});
