import { DEFAULT_NAMESPACE, isValidNamespace, namespaceFromPath } from '../../shared/model/namespace';
import { parseNote } from '../../shared/model/note';

describe('namespaceFromPath', () => {
  it.each([
    ['project/lithos/x.md', 'project/lithos'],
    ['project/x.md', 'project'],
    ['x.md', DEFAULT_NAMESPACE],
    ['My Notes/Ideas 💡/x.md', 'My Notes/Ideas 💡'],
    ['a\\b\\x.md', 'a/b'],
  ])('%s → %s', (path, ns) => {
    expect(namespaceFromPath(path)).toBe(ns);
  });

  it('uses "default" for the root', () => {
    expect(DEFAULT_NAMESPACE).toBe('default');
  });
});

describe('isValidNamespace', () => {
  it.each(['default', 'project/lithos', 'team_a/v1.2/sub-x', 'знание/日本', 'a'])('accepts %j', (ns) => {
    expect(isValidNamespace(ns)).toBe(true);
  });

  it.each(['', ' ', 'a b', '/a', 'a/', 'a//b', '../a', 'a/./b', 'a:b', 'a#b'])('refuses %j', (ns) => {
    expect(isValidNamespace(ns)).toBe(false);
  });
});

describe('namespace in parsed notes', () => {
  it('lets a valid frontmatter namespace win over the folder', () => {
    const note = parseNote('inbox/x.md', '---\nnamespace: project/lithos\n---\n');
    expect(note.meta.namespace).toBe('project/lithos');
    expect(note.problems).toEqual([]);
  });

  it('falls back to the folder and records a problem for an invalid one', () => {
    const note = parseNote('inbox/x.md', '---\nnamespace: "bad name/"\n---\n');
    expect(note.meta.namespace).toBe('inbox');
    expect(note.problems).toEqual([expect.objectContaining({ field: 'namespace', code: 'out_of_range' })]);
  });
});
