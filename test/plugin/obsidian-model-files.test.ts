import { downloadModel } from '../../shared/index/embedders/model-download';
import { ObsidianModelFiles } from '../../plugin/obsidian-model-files';
import { FakeAdapter } from './fake-obsidian';
import { streamingHub } from '../twins/streaming-hub';

/** The downloader's file port over Obsidian's DataAdapter, on apps with and without appendBinary (1.12.3+). */
const MODEL = 'o/m';
const CONTENT = { 'config.json': Uint8Array.from({ length: 3_000 }, (_, i) => i & 0xff), 'onnx/model.onnx': Uint8Array.from({ length: 20_000 }, (_, i) => (i * 3) & 0xff) };

test.each([['with appendBinary', true], ['without appendBinary (Obsidian < 1.12.3)', false]])('%s: folders are made, parts appended, then renamed into place', async (_label, append) => {
  const adapter = new FakeAdapter();
  if (!append) adapter.appendBinary = undefined;
  const hub = streamingHub(MODEL, CONTENT, 1_000);
  hub.dropAfter.set('onnx/model.onnx', 7_000);
  const files = new ObsidianModelFiles(adapter);
  const req = { modelId: MODEL, files: Object.keys(CONTENT), root: '.lithos/models', fetch: hub.fetch, port: files };
  await expect(downloadModel(req)).rejects.toMatchObject({ code: 'download_failed' });
  expect(adapter.files.get('.lithos/models/o/m/onnx/model.onnx.part')?.bytes.byteLength).toBe(7_000);
  hub.dropAfter.clear();
  await downloadModel(req);
  expect(adapter.files.get('.lithos/models/o/m/onnx/model.onnx')?.bytes).toEqual(CONTENT['onnx/model.onnx']);
  expect(adapter.files.get('.lithos/models/o/m/config.json')?.bytes).toEqual(CONTENT['config.json']);
  expect(adapter.folders.has('.lithos/models/o/m/onnx')).toBe(true);
  expect(await files.size('.lithos/models/o/m/onnx')).toBeNull();
});

test('replace removes an existing target first (DataAdapter.rename does not overwrite)', async () => {
  const adapter = new FakeAdapter();
  adapter.put('m/a.part', 'new');
  adapter.put('m/a', 'old');
  await new ObsidianModelFiles(adapter).replace('m/a.part', 'm/a');
  expect(adapter.text('m/a')).toBe('new');
  expect(adapter.files.has('m/a.part')).toBe(false);
});

test('sha256 is the file\'s digest (WebCrypto), so the downloader checks what the hub lists', async () => {
  const adapter = new FakeAdapter();
  adapter.put('m/a', 'abc');
  expect(await new ObsidianModelFiles(adapter).sha256('m/a')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
