import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokenLinks, githubSlug, headingAnchors, linkTargets } from './markdown-links';

/** Every relative link in the user docs resolves: README.md, CHANGELOG.md and docs/**.md. */

const root = join(__dirname, '../..');

function docFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  return ['README.md', 'CHANGELOG.md', ...docs.sort()];
}

test('every relative link and anchor in README.md, CHANGELOG.md and docs/ resolves', () => {
  expect(brokenLinks(root, docFiles())).toEqual([]);
});

test('the docs have pages to check', () => {
  expect(docFiles().length).toBeGreaterThan(5);
});

describe('the link check', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lithos-links-'));
    mkdirSync(join(dir, 'docs'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('reports a missing file, a missing heading and a link out of the repository', () => {
    writeFileSync(join(dir, 'docs', 'a.md'), '# A page\n\n## Set-up & use\n');
    writeFileSync(
      join(dir, 'README.md'),
      [
        '# Read me',
        'Fine: [a](docs/a.md), [section](docs/a.md#set-up--use), [here](#read-me), [web](https://example.com).',
        'Broken: [gone](docs/gone.md) and [no heading](docs/a.md#usage).',
        '![missing picture](docs/shot.png) [outside](../elsewhere.md)',
        '```',
        '[in a code block](nowhere.md)',
        '```',
        'Inline code is text: `[x](nowhere.md)`.',
      ].join('\n'),
    );
    expect(brokenLinks(dir, ['README.md', 'docs/a.md'])).toEqual([
      'README.md:3: docs/gone.md (no such file)',
      'README.md:3: docs/a.md#usage (no heading with anchor #usage)',
      'README.md:4: docs/shot.png (no such file)',
      'README.md:4: ../elsewhere.md (outside the repository)',
    ]);
  });
});

test('anchors follow GitHub: lower case, punctuation dropped, spaces to hyphens, repeats numbered', () => {
  expect(githubSlug('Connecting an MCP client')).toBe('connecting-an-mcp-client');
  expect(githubSlug('Does feedback help? — `lithos eval --feedback-split`')).toBe('does-feedback-help--lithos-eval---feedback-split');
  expect(githubSlug('Stores (`<vault>/.lithos/`)')).toBe('stores-vaultlithos');
  expect(githubSlug('Term–tag affinity')).toBe('termtag-affinity');
  expect([...headingAnchors('# Notes\n## Notes\n## Notes\n')]).toEqual(['notes', 'notes-1', 'notes-2']);
});

test('links and images are found with their line, reference definitions too', () => {
  expect(linkTargets('See [a](x.md "title") and ![b](<y z.png>).\n[ref]: ./r.md\n')).toEqual([
    { line: 1, target: 'x.md' },
    { line: 1, target: 'y z.png' },
    { line: 2, target: './r.md' },
  ]);
});
