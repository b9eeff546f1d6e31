import { compileFilters, onlyDefaultFilters, type FilterableNote } from '../../shared/index/filters';

const note = (o: Partial<FilterableNote>): FilterableNote => ({
  path: 'projects/lithos/a.md',
  namespace: 'project/lithos',
  note_type: 'observation',
  status: 'active',
  tags: ['Project/Lithos', 'ideas'],
  ...o,
});

describe('compileFilters', () => {
  it('excludes quarantined notes by default, unless asked for', () => {
    expect(compileFilters()(note({ status: 'quarantined' }))).toBe(false);
    expect(compileFilters()(note({ status: 'archived' }))).toBe(true);
    expect(compileFilters({ include_quarantined: true })(note({ status: 'quarantined' }))).toBe(true);
    expect(compileFilters({ statuses: ['quarantined'] })(note({ status: 'quarantined' }))).toBe(true);
    expect(compileFilters({ statuses: ['quarantined'] })(note({ status: 'active' }))).toBe(false);
  });

  it('matches namespaces by whole segments', () => {
    expect(compileFilters({ namespaces: ['project'] })(note({}))).toBe(true);
    expect(compileFilters({ namespaces: ['project/'] })(note({}))).toBe(true);
    expect(compileFilters({ namespaces: ['proj'] })(note({}))).toBe(false);
    expect(compileFilters({ namespaces: ['other', 'project/lithos'] })(note({}))).toBe(true);
  });

  it('filters by note type and path prefix', () => {
    expect(compileFilters({ note_types: ['concept'] })(note({}))).toBe(false);
    expect(compileFilters({ note_types: ['concept', 'observation'] })(note({}))).toBe(true);
    expect(compileFilters({ path_prefix: 'projects/' })(note({}))).toBe(true);
    expect(compileFilters({ path_prefix: 'daily/' })(note({}))).toBe(false);
  });

  it('requires every tag, case-insensitively, nested tags included, # optional', () => {
    expect(compileFilters({ tags: ['project'] })(note({}))).toBe(true);
    expect(compileFilters({ tags: ['#project/lithos', 'IDEAS'] })(note({}))).toBe(true);
    expect(compileFilters({ tags: ['project', 'missing'] })(note({}))).toBe(false);
    expect(compileFilters({ tags: ['proj'] })(note({}))).toBe(false);
  });

  it('treats empty lists as no filter', () => {
    expect(compileFilters({ namespaces: [], note_types: [], tags: [] })(note({}))).toBe(true);
    expect(onlyDefaultFilters({ namespaces: [], tags: [] })).toBe(true);
    expect(onlyDefaultFilters({ path_prefix: 'x' })).toBe(false);
  });
});
