import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { RelayClient } from '../../../bridge/relay/relay-client';
import type { LithosError } from '../../../shared/errors';
import { BRIDGE_FILE } from '../../../shared/protocol/bridge-file';
import { failure } from '../../twins/error-code';
import { bundleTestHost, type HostBundle } from './host-process';
import { makeVault } from './test-host';
import { HANG_MS } from '../../eventually';

describe('killing the host process mid-call', () => {
  let bundle: HostBundle;
  let root: string;
  beforeAll(async () => {
    bundle = await bundleTestHost();
    root = await makeVault(3);
  });
  afterAll(async () => {
    await bundle.dispose();
    await rm(root, { recursive: true, force: true });
  });

  it('fails the in-flight call at once with a retryable error, and reconnects when the host returns on its port', async () => {
    const first = await bundle.start(root, 0);
    const client = new RelayClient({ vaultRoot: root, agentId: 'survivor', bridgeVersion: '0.1.0', backoff: { initialMs: 10, maxMs: 100 } });
    client.start();
    try {
      await client.waitConnected(HANG_MS);
      expect(await client.call('note_count', {})).toBe(3);

      // The default 45 s deadline stays: the failure must come from the dropped connection, not a timer.
      const inFlight = failure(client.call('hold', { key: 'mid-call' }));
      const disconnected = new Promise<LithosError>((r) => client.once('disconnected', r));
      await first.held('mid-call');
      await first.kill();

      const err = await inFlight;
      expect(err.code).toBe('unavailable');
      expect(err.data).toMatchObject({ retryable: true, tool: 'hold' });
      expect(err.message).toMatch(/while "hold" was in flight; it may or may not have run\. Retry\./);
      expect((await disconnected).code).toBe('unavailable');
      expect((await failure(client.call('note_count', {}))).data.retryable).toBe(true);

      // The killed host left its bridge.json behind; the client sees its pid is dead and keeps trying.
      const stale = JSON.parse(await readFile(join(root, '.lithos', BRIDGE_FILE), 'utf8')) as { pid: number };
      expect(stale.pid).toBe(first.child.pid);
      const deadPid = await new Promise<LithosError>((r) => {
        const onFail = (e: LithosError) => {
          if (!e.message.includes('not running')) return;
          client.off('connect_failed', onFail);
          r(e);
        };
        client.on('connect_failed', onFail);
      });
      expect(deadPid.message).toContain(`names process ${stale.pid}, which is not running`);

      const reconnected = new Promise((r) => client.once('connected', r));
      const second = await bundle.start(root, first.port);
      expect(second.port).toBe(first.port);
      expect(await reconnected).toMatchObject({ port: first.port, vault: 'test-vault' });
      expect(await client.call('note_count', {})).toBe(3);
      await second.kill();
    } finally {
      await client.close();
    }
  });
});
