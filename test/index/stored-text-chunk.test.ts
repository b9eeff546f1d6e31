import { copyDoc, lexicalText, StoredTextChunk } from '../../shared/index/index-doc';
import { LexicalIndex } from '../../shared/index/lexical-index';
import { SearchIndex } from '../../shared/index/search-index';
import { lexicalHash } from '../../shared/index/term-bags';
import { chunkBody } from '../../shared/index/chunker';
import { note } from './helpers';

const utf8 = new TextEncoder();

/** The chunks of `body` as StoredTextChunks over one UTF-8 buffer, the way a warm start builds them. */
function stored(body: string): StoredTextChunk[] {
  const plain = chunkBody(body);
  const parts = plain.map((c) => utf8.encode(c.text));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  return plain.map((c, i) => {
    bytes.set(parts[i], at);
    const chunk = new StoredTextChunk(i, c.heading, bytes, at, at + parts[i].byteLength);
    at += parts[i].byteLength;
    return chunk;
  });
}

const BODY = '# Otters\nSea otters hold hands while sleeping, so they do not drift apart. Naïve café ✓.\n\n'.repeat(12);

describe('StoredTextChunk', () => {
  it('reads as the chunk it was stored from, and is kept (not copied) by the index', () => {
    const chunks = stored(BODY);
    expect(chunks.map((c) => ({ index: c.index, text: c.text, heading: c.heading }))).toEqual(chunkBody(BODY));
    const doc = note('a', 'Otters', '', { chunks });
    const copy = copyDoc(doc);
    expect(copy.chunks[0]).toBe(chunks[0]);
    expect(Object.isFrozen(chunks[0])).toBe(true);
    expect(lexicalText(copy)).toBe(lexicalText(note('a', 'Otters', BODY)));
  });

  it('a note loaded with stored chunks searches and snippets exactly like one given plain text', async () => {
    const plain = await SearchIndex.create({ yieldToHost: async () => {} });
    const lazy = await SearchIndex.create({ yieldToHost: async () => {} });
    await plain.bulkLoad([{ doc: note('a', 'Otters', BODY), vectors: new Map() }, { doc: note('b', 'Rivers', 'Rivers carry sediment.'), vectors: new Map() }]);
    await lazy.bulkLoad([{ doc: note('a', 'Otters', '', { chunks: stored(BODY) }), vectors: new Map() }, { doc: note('b', 'Rivers', '', { chunks: stored('Rivers carry sediment.') }), vectors: new Map() }]);
    for (const text of ['otters drift', 'café', 'sediment']) {
      expect(await lazy.search({ text, mode: 'lexical' })).toEqual(await plain.search({ text, mode: 'lexical' }));
    }
  });
});

describe('LexicalIndex: a bag its caller vouches for', () => {
  const text = 'cell biology of the cell membrane';

  function counted() {
    const idx = LexicalIndex.create();
    idx.addMany([{ id: 'a', text }]);
    return { terms: idx.termsFrom(0), bag: idx.bagOf('a')! };
  }

  it('is inserted without building or hashing the text', () => {
    const { terms, bag } = counted();
    const idx = LexicalIndex.create();
    idx.seedTerms(terms);
    let built = 0;
    idx.addMany([{ id: 'a', text: () => (built++, text), bag: { ...bag, current: true } }]);
    expect(built).toBe(0);
    expect(idx.bagsUsed).toBe(1);
    expect(idx.bagOf('a')?.lexHash).toBe(lexicalHash(text));
    expect(idx.scores('membrane')[idx.slotOf('a')]).toBeGreaterThan(0);
  });

  it('falls back to the text when the bag is malformed or from another tokenizer', () => {
    const { terms, bag } = counted();
    for (const bad of [{ ...bag, ids: Uint32Array.of(9999), tfs: Uint16Array.of(1) }, { ...bag, lexHash: `${'0'.repeat(16)}${bag.lexHash.slice(16)}` }]) {
      const idx = LexicalIndex.create();
      idx.seedTerms(terms);
      let built = 0;
      idx.addMany([{ id: 'a', text: () => (built++, text), bag: { ...bad, current: true } }]);
      expect(built).toBe(1);
      expect(idx.bagsUsed).toBe(0);
      expect(idx.bagOf('a')?.ids).toEqual(bag.ids);
    }
  });
});
