import { LEDGER_KINDS, type LedgerKind } from '../../shared/model/ledger';
import {
  decodeOriginal,
  encodeOriginal,
  entrySection,
  fenceFor,
  frontmatterBlock,
  graveyardIntro,
  graveyardNote,
  isGraveyardPath,
  nextHeading,
  readEntry,
  reconstruct,
  sha256,
  stubText,
} from '../../shared/ledger/graveyard';

/**
 * The graveyard's text rules (docs/ledger.md → Graveyard): every original is reconstructed byte for byte from its
 * stub and its graveyard note, on every kind, whatever it holds (CRLF, code fences, unicode, no final newline).
 */

const RETIRED: Record<LedgerKind, string> = { decision: 'superseded', claim: 'refuted', workflow: 'merged', construct: 'dead' };

const ORIGINALS: Record<string, (kind: LedgerKind) => string> = {
  plain: (k) => `---\nnote_type: ${k}\nledger_id: X001-abcd\nstate: ${RETIRED[k]}\n---\n# Title\n\nBody text.\n`,
  crlf: (k) => `---\r\nnote_type: ${k}\r\nstate: ${RETIRED[k]}\r\n---\r\n# Title\r\n\r\nLine one.\r\nLine two.\r\n`,
  mixed: (k) => `---\nnote_type: ${k}\n---\r\nA line\rwith a lone CR\r\nand LF\n`,
  fences: (k) => `---\nnote_type: ${k}\n---\n# Code\n\n\`\`\`ts\nconst a = 1;\n\`\`\`\n\n\`\`\`\`\`\nfive\n\`\`\`\`\`\n## D001-abcd\n- sha256: 00\n~~~\ntilde\n~~~\n`,
  unicode: (k) => `---\nnote_type: ${k}\ntitle: "Ünïcødé 決定 🚀"\n---\n# Ünïcødé 決定 🚀\n\nZero\u200bwidth, RTL \u05e9\u05dc\u05d5\u05dd, combining e\u0301.\n`,
  'no final newline': (k) => `---\nnote_type: ${k}\n---\nNo newline at the end`,
  'no frontmatter': () => '# Just a body\n\nwith [[Links]] and E007 refs.\n',
  empty: () => '',
  'trailing blank lines': (k) => `---\nnote_type: ${k}\n---\nBody\n\n\n\n`,
  bom: (k) => `\uFEFF---\nnote_type: ${k}\n---\n# Title\n\nBody after a byte-order mark.\n`,
  'bom crlf': (k) => `\uFEFF---\r\nnote_type: ${k}\r\n---\r\nLine one.\r\nLine two.\r\n`,
  'bom mixed': (k) => `\uFEFF---\nnote_type: ${k}\n---\r\nmixed\rends\n`,
  'bom without frontmatter': () => '\uFEFF# Just a body\n',
  'bom only': () => '\uFEFF',
  'zero-width no-break space inside': (k) => `---\nnote_type: ${k}\n---\nword\uFEFFjoiner\n`,
  'managed blocks': (k) => `---\nnote_type: ${k}\n---\n%% lithos:begin status %%\n> [!lithos-status] Superseded\n\n%% lithos:end %%\n\nText with %%\\ lithos: and %%\\\\ lithos:begin x %% runs.\n`,
};

async function bury(kind: LedgerKind, original: string, graveyard: string, ledgerId = 'D001-abcd'): Promise<{ graveyard: string; stub: string; heading: string }> {
  const heading = nextHeading(graveyard, ledgerId);
  const section = entrySection({
    heading,
    ledgerId,
    kind,
    state: RETIRED[kind],
    path: 'notes/Entry.md',
    successor: 'D002-abcd',
    buried: '2026-11-27T10:00:00.000Z',
    sha256: await sha256(original),
    text: original,
  });
  const note = graveyardNote(kind, { namespace: 'default', access_scope: 'shared', author: null });
  const stub = stubText(original, { title: 'Entry', state: RETIRED[kind], note, heading, successor: 'D002-abcd' });
  return { graveyard: graveyard + section, stub, heading };
}

describe('reconstruction: stub + graveyard give back every original byte for byte', () => {
  for (const kind of LEDGER_KINDS) {
    test(`${kind}: every kind of text, buried one after another in one graveyard note`, async () => {
      let graveyard = graveyardIntro(kind);
      const stubs: [string, string][] = [];
      for (const [name, make] of Object.entries(ORIGINALS)) {
        const original = make(kind);
        const b = await bury(kind, original, graveyard, `${name.replace(/\W/g, '')}-abcd`);
        graveyard = b.graveyard;
        stubs.push([original, b.stub]);
      }
      const note = graveyardNote(kind, { namespace: 'default', access_scope: 'shared', author: null });
      for (const [original, stub] of stubs) {
        const back = await reconstruct(stub, (n) => (n === note ? graveyard : null));
        expect(new TextEncoder().encode(back)).toEqual(new TextEncoder().encode(original));
      }
    });
  }

  test('the stub keeps the frontmatter bytes and the line ends; its body is a heading, the state and the pointer', async () => {
    const original = ORIGINALS.crlf('construct');
    const { stub } = await bury('construct', original, '', 'C001-abcd');
    expect(stub.startsWith(frontmatterBlock(original))).toBe(true);
    expect(stub.slice(frontmatterBlock(original).length)).toBe(
      '# Entry\r\nDEAD. Replaced by [[D002-abcd]].\r\nFull text: [[Lithos/Graveyard/Constructs#C001-abcd]] (lithos_read {title: "Lithos/Graveyard/Constructs", section: "C001-abcd"}).\r\n',
    );
  });

  test('a correction is a new section; the first entry is left as it was', async () => {
    const first = await bury('construct', 'v1\n', '', 'C001-abcd');
    const second = await bury('construct', 'v2\n', first.graveyard, 'C001-abcd');
    expect(second.heading).toBe('C001-abcd correction 2');
    expect(second.graveyard.startsWith(first.graveyard)).toBe(true);
    expect(readEntry(second.graveyard, 'C001-abcd')!.text).toBe('v1\n');
    expect(await reconstruct(second.stub, () => second.graveyard)).toBe('v2\n');
  });

  test('an edited entry fails its sha256 and is not returned', async () => {
    const { graveyard, stub } = await bury('decision', 'Use Redis.\n', '');
    await expect(reconstruct(stub, () => graveyard.replace('Use Redis.', 'Use Kafka.'))).rejects.toMatchObject({ code: 'conflict' });
    await expect(reconstruct(stub, () => null)).rejects.toMatchObject({ code: 'not_found' });
    await expect(reconstruct('# No pointer\n', () => graveyard)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('encoding', () => {
  test('verbatim without CR, LF for an all-CRLF file, base64 for mixed line ends', () => {
    expect(encodeOriginal('a\nb\n').encoding).toBe('verbatim');
    expect(encodeOriginal('a\r\nb\r\n')).toEqual({ encoding: 'crlf', block: 'a\nb\n', bom: false });
    for (const t of ['a\r\nb\n', 'a\rb', 'é\r\n\n']) {
      const e = encodeOriginal(t);
      expect(e.encoding).toBe('base64');
      expect(decodeOriginal(e.encoding, e.block)).toBe(t);
    }
  });

  test('a byte-order mark is left out of the block and noted, whatever the encoding; it comes back on reading', async () => {
    for (const [t, encoding] of [['\uFEFFa\n', 'verbatim'], ['\uFEFFa\r\nb\r\n', 'crlf'], ['\uFEFFa\rb', 'base64']] as const) {
      const e = encodeOriginal(t);
      expect(e).toMatchObject({ encoding, bom: true });
      expect(e.block.startsWith('\uFEFF')).toBe(false);
      expect(decodeOriginal(e.encoding, e.block, e.bom)).toBe(t);
      const section = entrySection({ heading: 'C001-abcd', ledgerId: 'C001-abcd', kind: 'construct', state: 'dead', path: 'A.md', successor: null, buried: '2026-11-27T10:00:00.000Z', sha256: await sha256(t), text: t });
      expect(section).toContain('- bom: yes\n');
      expect(section).not.toContain('\uFEFF');
      expect(readEntry(section, 'C001-abcd')!.text).toBe(t);
    }
    // Without one, no field: entries written before the field existed read back as they always did.
    expect(entrySection({ heading: 'C001-abcd', ledgerId: 'C001-abcd', kind: 'construct', state: 'dead', path: 'A.md', successor: null, buried: '', sha256: '', text: 'a\n' })).not.toContain('bom');
  });

  test('managed-block markers never appear in a block (the callout keeper would take them), and read back exactly', () => {
    for (const t of ['%% lithos:begin status %%\nx\n%% lithos:end %%\n', 'a %%\\ lithos: b %%\\\\ lithos:end', '%% lithos:begin k %%\r\n%% lithos:end %%\r\n']) {
      const e = encodeOriginal(t);
      expect(e.block).not.toMatch(/%% lithos:/);
      expect(decodeOriginal(e.encoding, e.block)).toBe(t);
    }
  });

  test('the fence is longer than any backtick run inside', () => {
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('```\ncode\n```')).toBe('````');
    expect(fenceFor('inline `x` and ``````six``````')).toBe('```````');
  });

  test('sha256 is of the UTF-8 bytes', async () => {
    expect(await sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('where the graveyard is', () => {
  test('one note per kind for shared notes; another audience gets its own note', () => {
    expect(graveyardNote('decision', { namespace: 'default', access_scope: 'shared', author: null })).toBe('Lithos/Graveyard/Decisions');
    expect(graveyardNote('claim', { namespace: 'project/atlas', access_scope: 'project', author: 'a' })).toBe('Lithos/Graveyard/Claims (project project-atlas)');
    expect(graveyardNote('workflow', { namespace: 'agent/bot', access_scope: 'agent_private', author: 'bot' })).toBe('Lithos/Graveyard/Workflows (agent_private agent-bot bot)');
    expect(graveyardNote('construct', { namespace: 'x', access_scope: 'shared', author: null })).toBe('Lithos/Graveyard/Constructs');
    expect(graveyardNote('construct', { namespace: 'x', access_scope: 'shared', author: null, hidden_folder: 'private' })).toBe('private/Lithos/Graveyard/Constructs');
    expect(isGraveyardPath('lithos/graveyard/Decisions.md')).toBe(true);
    expect(isGraveyardPath('private/Lithos/Graveyard/Decisions.md')).toBe(true);
    expect(isGraveyardPath('Lithos/Graveyards.md')).toBe(false);
  });
});
