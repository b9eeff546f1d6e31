import { VaultSpaceModel, DEFAULT_VAULT_SPACE_OPTIONS, REFIT_SHARE, type VaultSpaceOptions } from '../../../shared/index/embedders/vault-space';
import { wordCosine } from '../../../shared/index/embedders/word-vectors';
import { type LithosError } from '../../../shared/errors';

// Small enough for a test vault, large enough to separate three topics.
const OPTIONS: VaultSpaceOptions = { ...DEFAULT_VAULT_SPACE_OPTIONS, dims: 12, minCount: 1, minPairCount: 1 };

/** A seeded vault: car and automobile share their contexts but never one note; carpet and tomatoes have their own. */
function vault(notes = 90): Map<string, string> {
  let s = 7;
  const pick = <T>(xs: T[]): T => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return xs[(s >>> 8) % xs.length];
  };
  const topics = [
    { nouns: ['car'], ctx: ['engine', 'drove', 'highway', 'parked', 'garage', 'tyres', 'fuel', 'mechanic', 'brakes'] },
    { nouns: ['automobile'], ctx: ['engine', 'drove', 'highway', 'parked', 'garage', 'tyres', 'fuel', 'mechanic', 'brakes'] },
    { nouns: ['carpet', 'rug'], ctx: ['vacuumed', 'living', 'room', 'floor', 'stain', 'cleaning', 'wool', 'hallway', 'soft'] },
    { nouns: ['tomatoes', 'seedlings'], ctx: ['planted', 'garden', 'raised', 'beds', 'spring', 'soil', 'compost', 'watered', 'sunny'] },
  ];
  const out = new Map<string, string>();
  for (let n = 0; n < notes; n++) {
    const t = topics[n % topics.length];
    const words: string[] = [];
    for (let w = 0; w < 24; w++) words.push(w % 3 === 0 ? pick(t.nouns) : pick(t.ctx));
    out.set(`note-${n}.md`, words.join(' '));
  }
  return out;
}

function build(texts: Iterable<[string, string]>, options = OPTIONS): VaultSpaceModel {
  const m = new VaultSpaceModel(options);
  for (const [id, text] of texts) m.set(id, text);
  m.fit();
  return m;
}

describe('the vault-learned space', () => {
  it('places words that share contexts closer than words that do not', () => {
    const wv = build(vault()).wordVectors()!;
    const carAutomobile = wordCosine(wv, 'car', 'automobile')!;
    expect(carAutomobile).toBeGreaterThan(0.8);
    expect(carAutomobile).toBeGreaterThan(wordCosine(wv, 'car', 'carpet')! + 0.5);
    expect(carAutomobile).toBeGreaterThan(wordCosine(wv, 'car', 'tomatoes')! + 0.5);
  });

  it('finds a note about automobiles from a question about cars, with no shared word', async () => {
    const model = build(vault());
    const embedder = model.current()!;
    const [q, automobile, carpet] = await embedder.embed(['my car engine', 'automobile brakes mechanic', 'carpet stain hallway']);
    const cos = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0);
    expect(cos(q, automobile)).toBeGreaterThan(cos(q, carpet) + 0.5);
  });

  it('is deterministic: the same notes in any order give the same bytes', () => {
    const notes = [...vault()];
    const a = build(notes).save()!;
    const b = build([...notes].reverse()).save()!;
    expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
  });

  it('updated note by note equals a fresh build of the final notes once refitted', () => {
    const all = vault(120);
    const start = [...all].slice(0, 100);
    const model = build(start);
    model.remove('note-3.md');
    model.remove('note-50.md');
    model.set('note-7.md', 'automobile parked garage fuel engine drove');
    for (const [id, text] of [...all].slice(100)) model.set(id, text);
    model.fit();

    const final = new Map(start);
    final.delete('note-3.md');
    final.delete('note-50.md');
    final.set('note-7.md', 'automobile parked garage fuel engine drove');
    for (const [id, text] of [...all].slice(100)) final.set(id, text);
    expect(Buffer.from(model.save()!).equals(Buffer.from(build(final).save()!))).toBe(true);
  });

  it(`refits only once the text has changed by more than ${REFIT_SHARE * 100}% of its tokens`, () => {
    const notes = [...vault(100)];
    const model = build(notes);
    expect(model.refitDue()).toBe(false);
    model.set('note-0.md', `${notes[0][1]} engine`);
    expect(model.refitDue()).toBe(false); // one note rewritten: 24 + 25 tokens of ~2400
    for (let n = 1; n < 8; n++) model.remove(`note-${n}.md`);
    expect(model.refitDue()).toBe(false); // 49 + 7 × 24 = 217 tokens changed, under 240
    for (let n = 8; n < 11; n++) model.remove(`note-${n}.md`);
    expect(model.refitDue()).toBe(true); // 289
    model.fit();
    expect(model.refitDue()).toBe(false);
  });

  it('keeps its fit across a reopen: the same texts get the same vectors', async () => {
    const notes = vault();
    const before = build(notes);
    const bytes = before.save()!;
    const reopened = new VaultSpaceModel(OPTIONS);
    for (const [id, text] of notes) reopened.set(id, text);
    const embedder = reopened.restore(bytes);
    expect(reopened.refitDue()).toBe(false);
    const texts = ['car engine', 'carpet stain', 'spring seedlings in raised beds'];
    expect(await embedder.embed(texts)).toEqual(await before.current()!.embed(texts));
  });

  it('refuses bytes that are not a fit of its space', () => {
    const bytes = build(vault()).save()!;
    const other = new VaultSpaceModel({ ...OPTIONS, dims: 16 });
    expect(() => other.restore(bytes)).toThrow(expect.objectContaining({ code: 'store_corrupt' }) as LithosError);
    const model = new VaultSpaceModel(OPTIONS);
    expect(() => model.restore(bytes.subarray(0, bytes.length - 4))).toThrow(expect.objectContaining({ code: 'store_corrupt' }) as LithosError);
    expect(() => model.restore(new TextEncoder().encode('not json\n'))).toThrow(expect.objectContaining({ code: 'store_corrupt' }) as LithosError);
  });

  it('learns nothing from an empty or tiny vault and says so (no fit, no embedder)', () => {
    const empty = new VaultSpaceModel(OPTIONS);
    expect(empty.fit()).toBeNull();
    expect(empty.current()).toBeNull();
    expect(empty.save()).toBeNull();
    const tiny = build([['a.md', 'one small note about a car']]);
    expect(tiny.current()).toBeNull();
  });

  it('gives a text of only unknown words the zero vector, which matches nothing', async () => {
    const [v] = await build(vault()).current()!.embed(['xyzzy plugh']);
    expect(v.every((x) => x === 0)).toBe(true);
    expect(v).toHaveLength(OPTIONS.dims);
  });

  it('names its space by version and size', () => {
    expect(new VaultSpaceModel(OPTIONS).spaceId).toBe('vault-ppmi-v1-12');
  });
});
