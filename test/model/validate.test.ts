import { buildMeta } from '../../shared/model/validate';
import type { NoteProblem } from '../../shared/model/types';

describe('buildMeta', () => {
  it('merges frontmatter tags before inline tags, de-duplicated case-insensitively', () => {
    const problems: NoteProblem[] = [];
    const meta = buildMeta({ tags: ['#Memory', 'search', 'memory'] }, 'a.md', ['SEARCH', 'inline'], problems);
    expect(meta.tags).toEqual(['Memory', 'search', 'inline']);
    expect(problems).toEqual([]);
  });

  it('turns dates into ISO strings (frontmatter handed over by hosts that parse timestamps)', () => {
    const meta = buildMeta({ created_at: new Date(Date.UTC(2024, 0, 2)) }, 'a.md', [], []);
    expect(meta.created_at).toBe('2024-01-02T00:00:00.000Z');
  });

  it('drops empty and duplicate list items without complaint', () => {
    const problems: NoteProblem[] = [];
    expect(buildMeta({ aliases: ['A', '', ' A ', null, 'B'] }, 'a.md', [], problems).aliases).toEqual(['A', 'B']);
    expect(problems).toEqual([]);
  });

  it('reads only own fields (a "constructor" or "toString" key is just data)', () => {
    const problems: NoteProblem[] = [];
    const meta = buildMeta(JSON.parse('{"constructor": "x", "toString": 1}') as Record<string, unknown>, 'a.md', [], problems);
    expect(meta.title).toBe('a');
    expect(problems).toEqual([]);
  });

  it('records one problem per bad field, naming the field and the note', () => {
    const problems: NoteProblem[] = [];
    buildMeta({ confidence: 'high', note_type: 'musing', tags: 'a b' }, 'dir/n.md', [], problems);
    expect(problems.map((p) => [p.path, p.field, p.code])).toEqual([
      ['dir/n.md', 'tags', 'wrong_type'],
      ['dir/n.md', 'confidence', 'wrong_type'],
      ['dir/n.md', 'note_type', 'unknown_enum'],
    ]);
  });
});
