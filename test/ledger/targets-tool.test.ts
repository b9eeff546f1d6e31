import { note } from '../engine/harness';
import { openTools } from '../tools/fixture';
import { LIST_MAX_CHARS } from '../../shared/tools/text-budget';

/** lithos_targets answers in bounded pages: following next_cursor gives every target (and every decision of a history) once. */

const TARGETS = 300;
const long = (i: number) => `subsystem ${String(i).padStart(3, '0')} ${'component '.repeat(18)}`;
const files: Record<string, string> = {};
for (let i = 0; i < TARGETS; i++) files[`d/T${i}.md`] = note({ title: `T${i}`, note_type: 'decision', target: long(i) }, 'x\n');
for (let i = 0; i < 40; i++) files[`d/H${i}.md`] = note({ title: `H${i} ${'h'.repeat(250)}`, note_type: 'decision', target: 'hot', state: 'superseded', created_at: `2024-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:${String(i).padStart(2, '0')}Z` }, 'x\n');

test('list and history page within the list budget and cover everything once', async () => {
  const h = await openTools(files);
  const pages = async (args: Record<string, unknown>, list: string): Promise<{ items: unknown[]; pages: number }> => {
    const items: unknown[] = [];
    let cursor: string | undefined;
    let n = 0;
    do {
      const r = await h.call('lithos_targets', { ...args, ...(cursor && { cursor }) });
      expect(JSON.stringify(r[list]).length).toBeLessThanOrEqual(LIST_MAX_CHARS + 1_000);
      items.push(...r[list]);
      cursor = r.next_cursor ?? undefined;
      n++;
    } while (cursor);
    return { items, pages: n };
  };
  const all = await pages({ limit: 500 }, 'targets');
  expect(all.pages).toBeGreaterThan(1);
  expect(new Set(all.items.map((t) => (t as { target: string }).target)).size).toBe(TARGETS + 1);
  const hot = await pages({ history: 'hot', limit: 15 }, 'decisions');
  expect(hot.items).toHaveLength(40);
  expect(hot.pages).toBe(3);
  expect((await h.call('lithos_targets', { suggest: 'subsystem 007 component', limit: 500 })).suggestions.length).toBeLessThanOrEqual(20);
  await expect(h.call('lithos_targets', { suggest: 'a', history: 'b' })).rejects.toMatchObject({ code: 'invalid_argument' });
  await h.engine.close();
});
