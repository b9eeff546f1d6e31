import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalEmbedders } from '../../bridge/eval/eval-spaces';
import { runEval } from '../../bridge/eval/run-eval';
import { DEFAULT_VAULT_SPACE_OPTIONS } from '../../shared/index/embedders/vault-space';
import { HashingEmbedder } from '../../shared/index/embedders/hashing-embedder';

const OPTIONS = { ...DEFAULT_VAULT_SPACE_OPTIONS, dims: 12, minCount: 1, minPairCount: 1 };
const HASH = new HashingEmbedder().spaceId;

async function withVault(notes: Record<string, string>, fn: (root: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'lithos-eval-spaces-'));
  try {
    for (const [path, text] of Object.entries(notes)) await writeFile(join(root, path), text);
    await fn(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Enough distinct words for a 12-dimension fit (frontmatter is not learned from: only title and body). */
function notes(count: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let n = 0; n < count; n++) out[`n${n}.md`] = `---\nid: note-${n}\n---\nword${n % 30} near word${(n + 1) % 30} and word${(n + 2) % 30}\n`;
  return out;
}

describe('eval --space', () => {
  it('leaves the engine its default for hash', async () => {
    await withVault(notes(3), async (root) => expect(await evalEmbedders('hash', root, OPTIONS)).toBeUndefined());
  });

  it('learns the vault space from the notes, alone or beside hashing', async () => {
    await withVault(notes(60), async (root) => {
      expect((await evalEmbedders('vault', root, OPTIONS))!.map((e) => e.spaceId)).toEqual(['vault-ppmi-v1-12']);
      expect((await evalEmbedders('vault+hash', root, OPTIONS))!.map((e) => e.spaceId)).toEqual(['vault-ppmi-v1-12', HASH]);
    });
  });

  it('falls back to hashing when the vault is too small to learn from', async () => {
    await withVault(notes(2), async (root) => expect((await evalEmbedders('vault', root, OPTIONS))!.map((e) => e.spaceId)).toEqual([HASH]));
  });

  it('refuses --space with --feedback-split', async () => {
    const lines: string[] = [];
    const code = await runEval({ datasets: [join(__dirname, '..', 'fixtures', 'beir-mini')], mode: 'pts', feedbackSplit: 0.5, space: 'vault', json: true, out: (s) => lines.push(s) });
    expect(code).toBe(2);
    expect(lines.join('')).toContain('--feedback-split runs with the default space only');
  });
});
