import http from 'http';
import type { AddressInfo } from 'net';
import { nodePost } from '../../bridge/http-post';

/** The bridge's webhook POST against a real loopback server: the body and headers arrive; redirects are not followed. */

let server: http.Server;
const got: { url: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
let base = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      got.push({ url: req.url ?? '', body, headers: req.headers });
      if (req.url === '/moved') {
        res.writeHead(302, { location: '/hook' }).end();
        return;
      }
      res.writeHead(req.url === '/hook' ? 204 : 500).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('POSTs the body with its headers and answers the status', async () => {
  expect(await nodePost(`${base}/hook`, '{"type":"note.written"}', { 'content-type': 'application/json', 'x-lithos-event': 'note.written' })).toEqual({ status: 204 });
  expect(got.at(-1)).toMatchObject({ url: '/hook', body: '{"type":"note.written"}', headers: { 'content-type': 'application/json', 'x-lithos-event': 'note.written' } });
  expect(await nodePost(`${base}/broken`, '{}', {})).toEqual({ status: 500 });
});

test('a redirect is an answer, not followed (it could lead off the allowed hosts)', async () => {
  const before = got.length;
  expect(await nodePost(`${base}/moved`, '{}', {})).toEqual({ status: 302 });
  expect(got.length).toBe(before + 1);
});
