/**
 * The test host as a process of its own, so a test can kill it (SIGKILL: no cleanup, bridge.json left behind).
 * Usage: node <bundled this> <vaultRoot> <port>. Reports on stdout, one JSON object a line:
 * {"ready": port} once listening, {"hold": key} when a `hold` call starts.
 */
import { startTestHost } from './test-host';

const [root, port] = process.argv.slice(2);
const say = (o: unknown): void => void process.stdout.write(`${JSON.stringify(o)}\n`);

startTestHost(root, { port: Number(port), onHold: (key) => say({ hold: key }) }).then(
  (h) => say({ ready: h.port }),
  (err: unknown) => {
    process.stderr.write(`test host failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
