import { runInNewContext } from 'node:vm';
import { resolve } from 'node:path';
import { build } from 'esbuild';

/**
 * The plugin bundle also runs on mobile, where Node's modules do not exist. BridgeHost must therefore load
 * them only when started: bundled the way the plugin is (browser platform, Node built-ins external), its
 * module evaluates without `require` and a host can be constructed; only start() needs Node.
 */
describe('the bridge host in a bundle without Node', () => {
  it('evaluates and constructs without touching require; start() is where Node is needed', async () => {
    const out = await build({
      stdin: {
        contents: "import { BridgeHost } from './plugin/bridge-host/bridge-host'; export const host = new BridgeHost({ lithosDir: '/x/.lithos', vaultName: 'v', pluginVersion: '0', dispatcher: { list: () => [], call: async () => null } });",
        resolveDir: resolve(__dirname, '../../..'),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'browser',
      external: ['node:*', 'ws'],
      logLevel: 'silent',
    });
    const required: string[] = [];
    const mod = { exports: {} as Record<string, unknown> };
    const sandbox = {
      module: mod,
      exports: mod.exports,
      require: (name: string) => {
        required.push(name);
        throw new Error(`no ${name} here`);
      },
    };
    runInNewContext(out.outputFiles[0].text, sandbox);
    expect(required).toEqual([]);
    const host = mod.exports.host as { port: number | null; start(): Promise<unknown> };
    expect(host.port).toBeNull();
    await expect(host.start()).rejects.toThrow('no node:crypto here');
  });
});
