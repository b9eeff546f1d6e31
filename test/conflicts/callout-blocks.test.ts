import { applyBlocks, findBlocks, renderBlock, stripManagedBlocks } from '../../shared/conflicts/callout-blocks';

const FM = '---\ntitle: "Pool"   # a human comment\ntags: [a,  b]\n---\n';
const BODY = 'First line of the user.\n\nSecond paragraph, no newline at the end';
const ONE = new Map([['conflict e1', ['[!lithos-conflict] Contradicts [[B]]', 'State: **unreviewed**.']]]);

describe('managed callout blocks (pure text)', () => {
  it('a new block goes right after the frontmatter, wrapped in markers, separated by one blank line', () => {
    const out = applyBlocks(FM + BODY, ONE);
    expect(out).toBe(
      FM + '%% lithos:begin conflict e1 %%\n> [!lithos-conflict] Contradicts [[B]]\n> State: **unreviewed**.\n\n%% lithos:end %%\n\n' + BODY,
    );
    expect(findBlocks(out)).toEqual([{ key: 'conflict e1', start: FM.length, end: out.length - BODY.length, separated: true }]);
  });

  it('applying the same state twice changes nothing (same string back)', () => {
    const once = applyBlocks(FM + BODY, ONE);
    expect(applyBlocks(once, ONE)).toBe(once);
  });

  it('removing the block restores the original bytes exactly, frontmatter included', () => {
    for (const original of [FM + BODY, FM + '\n\nstarts with blank lines\n', BODY, '\ufeff' + FM + BODY, FM.replace(/\n/g, '\r\n') + 'crlf body\r\n']) {
      const withBlock = applyBlocks(original, ONE);
      expect(withBlock).not.toBe(original);
      expect(applyBlocks(withBlock, new Map())).toBe(original);
    }
  });

  it('a block is updated where it stands; text the user wrote around it is untouched', () => {
    const withBlock = applyBlocks(FM + BODY, ONE);
    const edited = withBlock.replace('First line of the user.', 'The user rewrote this line.') + '\n\nAnd added one at the end.\n';
    const moved = applyBlocks(edited, new Map([['conflict e1', ['[!lithos-conflict] Contradicts [[C]]']]]));
    expect(moved).toBe(edited.replace('> [!lithos-conflict] Contradicts [[B]]\n> State: **unreviewed**.\n', '> [!lithos-conflict] Contradicts [[C]]\n'));
  });

  it('one block per key; several keys keep their order; a removed key takes only its own block', () => {
    const two = new Map([...ONE, ['status', ['[!lithos-status] Quarantined']]]);
    const out = applyBlocks(FM + BODY, two);
    expect(findBlocks(out).map((b) => b.key)).toEqual(['conflict e1', 'status']);
    const onlyStatus = applyBlocks(out, new Map([['status', ['[!lithos-status] Quarantined']]]));
    expect(onlyStatus).toBe(FM + renderBlock('status', ['[!lithos-status] Quarantined']) + '\n' + BODY);
  });

  it('rule detection never reads managed blocks', () => {
    expect(stripManagedBlocks(applyBlocks(FM + BODY, ONE))).toBe(FM + BODY);
  });
});
