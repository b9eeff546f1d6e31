import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { BRIDGE_FILE, BridgeFileSchema } from '../../../shared/protocol/bridge-file';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { MAX_BUFFERED_BYTES } from '../../../plugin/bridge-host/bridge-host';
import { makeVault, startTestHost, type TestHost } from './test-host';
import { eventually } from '../../eventually';

/** What one admitted connection may cost the host: answers it does not read are not buffered without end. */

let h: TestHost;
beforeAll(async () => {
  h = await startTestHost(await makeVault(1));
});
afterAll(async () => {
  await h.stop();
  await rm(h.root, { recursive: true, force: true });
});

test('a client that stops reading its answers is disconnected once MAX_BUFFERED_BYTES are waiting, and the host serves others', async () => {
  const { token } = BridgeFileSchema.parse(JSON.parse(await readFile(join(h.root, '.lithos', BRIDGE_FILE), 'utf8')));
  const ws = new WebSocket(`ws://127.0.0.1:${h.port}/`, { headers: { Authorization: `Bearer ${token}` } });
  await new Promise((r) => ws.once('open', r));
  const welcomed = new Promise((r) => ws.once('message', r));
  ws.send(JSON.stringify({ type: 'hello', protocol_version: PROTOCOL_VERSION, bridge_version: 'test', agent_id: 'slow-reader' }));
  await welcomed;
  (ws as unknown as { _socket: { pause(): void } })._socket.pause(); // reads nothing from here on
  const answers = Math.ceil((MAX_BUFFERED_BYTES * 1.5) / 900_000);
  for (let i = 0; i < answers; i++) ws.send(JSON.stringify({ type: 'call', id: `b${i}`, tool: 'big', args: { bytes: 900_000 }, caller: { kind: 'agent', agent_id: 'slow-reader' }, deadline_ms: 30_000 }));
  expect(h.host.connectedAgents).toContain('slow-reader');
  await eventually(() => !h.host.connectedAgents.includes('slow-reader'), () => h.host.connectedAgents);
  ws.terminate();
  // Another client is served as before.
  const other = new WebSocket(`ws://127.0.0.1:${h.port}/`, { headers: { Authorization: `Bearer ${token}` } });
  await new Promise((r) => other.once('open', r));
  const welcome = new Promise<string>((r) => other.once('message', (d: Buffer) => r(d.toString('utf8'))));
  other.send(JSON.stringify({ type: 'hello', protocol_version: PROTOCOL_VERSION, bridge_version: 'test', agent_id: 'next' }));
  expect(JSON.parse(await welcome)).toMatchObject({ type: 'welcome' });
  other.close();
}, 60_000);
