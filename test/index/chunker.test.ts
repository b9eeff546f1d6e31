import { CHUNK_MAX, CHUNK_MIN, chunkBody, embeddingText } from '../../shared/index/chunker';
import { tokenize } from '../../shared/index/tokenizer';

/** A paragraph of about `n` characters of distinct words. */
function para(seed: string, n: number): string {
  const words: string[] = [];
  let len = 0;
  for (let i = 0; len < n; i++) {
    const w = `${seed}${i}`;
    words.push(w);
    len += w.length + 1;
  }
  return words.join(' ').slice(0, n).trim() + '.';
}

describe('chunkBody', () => {
  it('returns [] for an empty or blank body', () => {
    expect(chunkBody('')).toEqual([]);
    expect(chunkBody('  \n\n \t\n')).toEqual([]);
  });

  it('keeps a short body as one chunk with its text trimmed', () => {
    expect(chunkBody('\n\nHello world.\n\n')).toEqual([{ index: 0, text: 'Hello world.', heading: null }]);
  });

  it('packs paragraphs into chunks of at most max characters, cutting only between paragraphs', () => {
    const paras = Array.from({ length: 12 }, (_, i) => para(`p${i}w`, 300));
    const chunks = chunkBody(paras.join('\n\n'));
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(CHUNK_MAX);
    for (const c of chunks.slice(0, -1)) expect(c.text.length).toBeGreaterThanOrEqual(CHUNK_MIN);
    // every chunk is a run of whole paragraphs
    for (const c of chunks) for (const piece of c.text.split('\n\n')) expect(paras).toContain(piece);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });

  it('starts a new chunk at a heading once the current chunk is big enough, and records the heading', () => {
    const body = ['# Intro', para('a', 600), '## Setup', para('b', 300), '## Usage', para('c', 300)].join('\n\n');
    const chunks = chunkBody(body);
    expect(chunks).toHaveLength(2);
    expect(chunks[0].heading).toBe('Intro');
    expect(chunks[0].text.startsWith('# Intro')).toBe(true);
    expect(chunks[1].heading).toBe('Setup');
    expect(chunks[1].text.startsWith('## Setup')).toBe(true);
    expect(chunks[1].text).toContain('## Usage'); // small sections merge forward
  });

  it('gives chunks that start mid-section the heading in effect', () => {
    const body = ['## Long section', para('x', 900), para('y', 900)].join('\n\n');
    const chunks = chunkBody(body);
    expect(chunks).toHaveLength(2);
    expect(chunks.map((c) => c.heading)).toEqual(['Long section', 'Long section']);
  });

  it('has a null heading before the first heading and strips closing hashes', () => {
    const chunks = chunkBody(`${para('a', 700)}\n\n## Title ##\n\n${para('b', 100)}`);
    expect(chunks[0].heading).toBeNull();
    expect(chunks[1].heading).toBe('Title');
  });

  it('cuts a paragraph longer than max at sentence boundaries', () => {
    const sentences = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} says something rather plain.`);
    const chunks = chunkBody(sentences.join(' '));
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(CHUNK_MAX);
      expect(c.text.endsWith('.')).toBe(true);
    }
  });

  it('cuts text without spaces (CJK, a long token) without splitting surrogate pairs', () => {
    const cjk = '記憶'.repeat(1500);
    const chunks = chunkBody(cjk);
    expect(chunks.length).toBe(3);
    expect(chunks.map((c) => c.text).join('')).toBe(cjk);
    const emoji = '🚀'.repeat(700); // 1400 UTF-16 units
    const parts = chunkBody(emoji, { max: 999 });
    expect(parts.map((c) => c.text).join('')).toBe(emoji);
    for (const p of parts) expect(p.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
  });

  it('keeps a fenced code block whole, even with blank lines and # lines inside', () => {
    const code = '```python\n# not a heading\n\nprint(1)\n```';
    const chunks = chunkBody(`Before.\n\n${code}\n\nAfter.`);
    expect(chunks).toHaveLength(1);
    expect(chunks[0].text).toContain(code);
    expect(chunks[0].heading).toBeNull();
  });

  it('honours custom min and max', () => {
    const body = Array.from({ length: 10 }, (_, i) => para(`q${i}`, 90)).join('\n\n');
    const chunks = chunkBody(body, { min: 100, max: 200 });
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(200);
    expect(chunks.length).toBeGreaterThanOrEqual(5);
  });

  it('loses no words: the chunks hold every token of the body', () => {
    const body = ['# A', para('a', 1500), '## B', '- item one\n- item two', para('b', 2500), '```\ncode here\n```'].join('\n\n');
    const joined = chunkBody(body).map((c) => c.text).join('\n');
    expect(tokenize(joined).sort()).toEqual(tokenize(body).sort());
  });
});

describe('embeddingText', () => {
  it('prefixes the title, and the heading unless the chunk starts with it', () => {
    expect(embeddingText('Note', { index: 0, text: '## H\nbody', heading: 'H' })).toBe('Note\n## H\nbody');
    expect(embeddingText('Note', { index: 1, text: 'more body', heading: 'H' })).toBe('Note\nH\nmore body');
    expect(embeddingText('', { index: 0, text: 'x', heading: null })).toBe('x');
  });
});
