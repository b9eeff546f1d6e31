import { HashingEmbedder } from '../../../shared/index/embedders/hashing-embedder';

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('HashingEmbedder', () => {
  const e = new HashingEmbedder();

  it('names its space by version and size and returns that many dimensions', async () => {
    expect(e.spaceId).toBe('hash-ngram-v2-384');
    expect(e.dimensions).toBe(384);
    expect(new HashingEmbedder(512).spaceId).toBe('hash-ngram-v2-512');
    const [vec] = await e.embed(['hello world']);
    expect(vec).toBeInstanceOf(Float32Array);
    expect(vec).toHaveLength(384);
  });

  it('is deterministic across calls and instances', async () => {
    const [a] = await e.embed(['The mitochondria is the powerhouse of the cell']);
    const [b] = await new HashingEmbedder().embed(['The mitochondria is the powerhouse of the cell']);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('returns unit vectors, and a zero vector for text without tokens', async () => {
    const [a, empty] = await e.embed(['some ordinary sentence about notes', '   ']);
    expect(Math.sqrt(cos(a, a))).toBeCloseTo(1, 5);
    expect(empty.every((x) => x === 0)).toBe(true);
  });

  it('keeps one vector per text, in order', async () => {
    const texts = ['alpha', 'beta gamma', 'delta'];
    const out = await e.embed(texts);
    expect(out).toHaveLength(3);
    expect(Array.from(out[1])).toEqual(Array.from(e.embedOne('beta gamma')));
  });

  it('puts a paraphrase closer than an unrelated text', () => {
    const q = e.embedOne('How do I migrate the database from MongoDB to Postgres?');
    const para = e.embedOne('Migrating our databases: moving MongoDB collections into PostgreSQL tables');
    const unrelated = e.embedOne('The recipe needs two eggs, flour and a pinch of salt');
    expect(cos(q, para)).toBeGreaterThan(cos(q, unrelated) + 0.1);
  });

  it('shares character n-grams between inflections of a word', () => {
    const cells = e.embedOne('cells');
    expect(cos(e.embedOne('cell'), cells)).toBeGreaterThan(cos(e.embedOne('stars'), cells));
  });

  it('handles CJK, emoji and very long text', () => {
    expect(cos(e.embedOne('東京の天気'), e.embedOne('東京の天気予報'))).toBeGreaterThan(0.5);
    expect(Math.sqrt(cos(e.embedOne('🚀🚀 launch'), e.embedOne('🚀🚀 launch')))).toBeCloseTo(1, 5);
    expect(e.embedOne('word '.repeat(20000))).toHaveLength(384);
  });
});
