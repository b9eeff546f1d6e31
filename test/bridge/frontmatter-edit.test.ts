import { editFrontMatter } from '../../bridge/frontmatter-edit';
import { LithosError } from '../../shared/errors';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof LithosError) return err.code;
    throw err;
  }
  return 'returned';
}

describe('editFrontMatter', () => {
  it('adds a block in front of a note that had none, leaving the text after it identical', () => {
    const text = '# Title\n\nBody';
    expect(editFrontMatter(text, 'n.md', (fm) => void (fm.id = 'abc'))).toBe(`---\nid: abc\n---\n${text}`);
  });

  it('returns null when fn changes nothing, with or without a block', () => {
    expect(editFrontMatter('body', 'n.md', () => undefined)).toBeNull();
    expect(editFrontMatter('---\na: [1, 2]\nb: {c: d}\n---\nbody', 'n.md', (fm) => void (fm.a = [1, 2]))).toBeNull();
  });

  it('keeps comments, key order and quoting of untouched and changed scalars', () => {
    const text = '---\n# top comment\ntitle: "Old"   # why\nz: 1\na: \'single\'\n---\nbody\n';
    const out = editFrontMatter(text, 'n.md', (fm) => {
      fm.title = 'New';
      fm.added = true;
    });
    expect(out).toBe('---\n# top comment\ntitle: "New" # why\nz: 1\na: \'single\'\nadded: true\n---\nbody\n');
  });

  it('keeps flow lists as people write them: `[a, b]`, not `[ a, b ]`', () => {
    const text = '---\ntags: [atlas, retries, policy]\nstatus: active\n---\nbody\n';
    expect(editFrontMatter(text, 'n.md', (fm) => void (fm.status = 'quarantined'))).toBe('---\ntags: [atlas, retries, policy]\nstatus: quarantined\n---\nbody\n');
    expect(editFrontMatter('---\ntags: [a]\n---\n', 'n.md', (fm) => void (fm.tags = ['a', 'b']))).toBe('---\ntags: [a, b]\n---\n');
  });

  it('edits nested mappings in place and keeps their comments', () => {
    const text = '---\nsummaries:\n  # generated\n  short: one\n  long: two\n---\nB';
    const out = editFrontMatter(text, 'n.md', (fm) => {
      (fm.summaries as Record<string, unknown>).short = 'uno';
    });
    expect(out).toBe('---\nsummaries:\n  # generated\n  short: uno\n  long: two\n---\nB');
  });

  it('removes keys deleted or set to undefined, and keeps an emptied block', () => {
    const text = '---\na: 1\nb: 2\n---\nbody';
    expect(editFrontMatter(text, 'n.md', (fm) => void delete fm.a)).toBe('---\nb: 2\n---\nbody');
    expect(editFrontMatter(text, 'n.md', (fm) => Object.assign(fm, { a: undefined, b: undefined }))).toBe('---\n---\nbody');
  });

  it('fills an empty block, keeps a BOM and a file that ends right after the closing fence', () => {
    expect(editFrontMatter('---\n---\nbody', 'n.md', (fm) => void (fm.k = 'v'))).toBe('---\nk: v\n---\nbody');
    expect(editFrontMatter('\uFEFF---\nk: v\n---', 'n.md', (fm) => void (fm.k = 'w'))).toBe('\uFEFF---\nk: w\n---');
  });

  it('keeps the indentation style of block sequences', () => {
    expect(editFrontMatter('---\ntags:\n- a\n---\nB', 'n.md', (fm) => void (fm.x = 1))).toBe('---\ntags:\n- a\nx: 1\n---\nB');
    expect(editFrontMatter('---\ntags:\n  - a\n---\nB', 'n.md', (fm) => void (fm.x = 1))).toBe('---\ntags:\n  - a\nx: 1\n---\nB');
  });

  it('does not fold long values onto several lines', () => {
    const long = 'word '.repeat(40).trim();
    expect(editFrontMatter('x', 'n.md', (fm) => void (fm.long = long))).toBe(`---\nlong: ${long}\n---\nx`);
  });

  it('refuses malformed YAML, non-mapping frontmatter and duplicate keys without calling fn', () => {
    const fn = jest.fn();
    expect(codeOf(() => editFrontMatter('---\na: [1\n---\nbody', 'n.md', fn))).toBe('invalid_argument');
    expect(codeOf(() => editFrontMatter('---\n- a\n- b\n---\nbody', 'n.md', fn))).toBe('invalid_argument');
    expect(codeOf(() => editFrontMatter('---\na: 1\na: 2\n---\nbody', 'n.md', fn))).toBe('invalid_argument');
    expect(fn).not.toHaveBeenCalled();
  });
});
