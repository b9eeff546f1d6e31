import { note } from '../engine/harness';
import { FIXTURE, openTools, type ToolHarness } from './fixture';
import { MAX_HEADINGS } from '../../shared/tools/knowledge/read';

/**
 * lithos_read of a long note: an agent's context is a budget, so a read returns a bounded page of the body
 * with how to read the rest (offset, or one section by heading), and the outline stays bounded too.
 */

/** About 3 MB of Markdown: 300 chapters of 10 sections, each a heading and ten lines of prose. */
function bigBody(): string {
  const out: string[] = [];
  for (let c = 0; c < 300; c++) {
    out.push(`# Chapter ${c}`);
    for (let s = 0; s < 10; s++) {
      out.push(`## Section ${c}.${s}`);
      for (let l = 0; l < 10; l++) out.push(`Line ${l} of section ${c}.${s}: the "pool" grew from ${l} to ${l + 1} connections — ${'word '.repeat(12)}`);
    }
  }
  return out.join('\n') + '\n';
}

const BIG = 'project/atlas/Big.md';
let t: ToolHarness;
let body: string;
beforeAll(async () => {
  body = bigBody();
  t = await openTools({ ...FIXTURE, [BIG]: note({ title: 'Big' }, body) });
});
afterAll(async () => {
  await t.engine.close();
});

test('a 3 MB note reads as one page of at most 20,000 characters: truncated, with its length and the next offset', async () => {
  expect(body.length).toBeGreaterThan(3_000_000);
  const r = await t.call('lithos_read', { path: BIG });
  expect(r.content.length).toBeLessThanOrEqual(20_000);
  expect(body.startsWith(r.content)).toBe(true);
  expect(r).toMatchObject({ truncated: true, total_chars: body.length, offset: 0, next_offset: r.content.length });
  expect(r.hint).toContain(`offset ${r.content.length}`);
  // The whole result, as JSON (what an MCP client puts in the agent's context), stays within 25,000 characters.
  expect(JSON.stringify(r).length).toBeLessThanOrEqual(25_000);
});

test('following next_offset reads the rest, and the pages put together are the body', async () => {
  let read = '';
  let offset: number | null = 0;
  let pages = 0;
  while (offset !== null) {
    const r: { content: string; next_offset: number | null } = await t.call('lithos_read', { path: BIG, offset, max_chars: 100_000 });
    read += r.content;
    offset = r.next_offset;
    pages++;
  }
  expect(read).toBe(body);
  expect(pages).toBeGreaterThanOrEqual(31);
});

test('the outline lists at most 50 headings, the highest levels first, each with the offset it starts at', async () => {
  const r = await t.call('lithos_read', { path: BIG, max_chars: 100 });
  expect(r.headings_total).toBeGreaterThan(MAX_HEADINGS); // the indexed part of the note (its first 2 MB) only
  expect(r.headings.length).toBeLessThanOrEqual(MAX_HEADINGS);
  expect(r.headings.every((h: { level: number }) => h.level === 1)).toBe(true);
  const h = r.headings[7];
  expect(body.slice(h.offset, h.offset + h.text.length + 2)).toBe(`# ${h.text}`);
  const there = await t.call('lithos_read', { path: BIG, offset: h.offset, max_chars: 200 });
  expect(there.content.startsWith('# Chapter 7\n## Section 7.0\n')).toBe(true);
});

test('a section is paged the same way, and a short section comes back whole', async () => {
  const s = await t.call('lithos_read', { path: BIG, section: 'Section 12.3' });
  expect(s).toMatchObject({ section: 'Section 12.3', truncated: false, next_offset: null, hint: null });
  expect(s.content.startsWith('## Section 12.3\nLine 0 of section 12.3')).toBe(true);
  const ch = await t.call('lithos_read', { path: BIG, section: 'Chapter 12', max_chars: 1000 });
  expect(ch).toMatchObject({ truncated: true, offset: 0 });
  expect(ch.content.length).toBeLessThanOrEqual(1000);
});

test('a short note is not truncated, and max_chars outside 1..100,000 is refused', async () => {
  const r = await t.call('lithos_read', { path: 'project/atlas/Pool sizing.md' });
  expect(r).toMatchObject({ truncated: false, offset: 0, next_offset: null, hint: null, headings_total: 2, links_total: 2 });
  expect(r.headings).toEqual([{ level: 1, text: 'Pool sizing', offset: 0 }, { level: 2, text: 'Fix', offset: r.content.indexOf('## Fix') }]);
  await expect(t.call('lithos_read', { path: BIG, max_chars: 100_001 })).rejects.toMatchObject({ code: 'invalid_argument' });
  await expect(t.call('lithos_read', { path: BIG, offset: -1 })).rejects.toMatchObject({ code: 'invalid_argument' });
});
