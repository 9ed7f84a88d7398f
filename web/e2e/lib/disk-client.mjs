// The client's files from web/ on disk in front of the real server, for pages whose signed-in
// account's cookie must reach the server (the socket's upgrade and /api): leaderboard, levels,
// moderation.
import { readFileSync, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { resolve, extname } from 'node:path';
import { WEB_DIR } from './harness.mjs';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

/**
 * The client's files from web/ on disk, with /api and the socket passed to the server at `addr`
 * untouched (the Host header kept, so the page's origin is the one the server sees: a
 * signed-in account's cookie is taken by the upgrade). A page the browser fetched over the
 * network: Chromium lets it open a socket to a loopback server, which it refuses to a page a
 * test fulfilled itself. @param {string} addr the server's host:port
 */
export async function clientFromDisk(addr) {
  const [host, port] = [addr.slice(0, addr.lastIndexOf(':')), Number(addr.slice(addr.lastIndexOf(':') + 1))];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/api/')) {
      const up = http.request({ host, port, path: req.url, method: req.method, headers: req.headers }, (r) => { res.writeHead(r.statusCode ?? 502, r.headers); r.pipe(res); });
      up.on('error', () => { res.writeHead(502); res.end('bad gateway'); });
      req.pipe(up);
      return;
    }
    const file = resolve(WEB_DIR, path === '/' ? 'index.html' : decodeURIComponent(path.slice(1)));
    if (!file.startsWith(WEB_DIR + '/') || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end('not found'); return; }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(readFileSync(file));
  });
  server.on('upgrade', (req, socket, head) => {
    const up = net.connect(port, host, () => {
      let lines = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      up.write(lines + '\r\n');
      if (head.length) up.write(head);
      up.pipe(socket); socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  const { port: own } = /** @type {net.AddressInfo} */ (server.address());
  return { base: `http://localhost:${own}`, stop: () => { server.closeAllConnections(); server.close(); } };
}

/**
 * Signs up `username` on the server behind `base`: its session cookie's value and its account id.
 * @param {string} base @param {string} username
 */
export async function signUp(base, username) {
  const res = await fetch(`${base}/api/signup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'correct horse battery' }),
  });
  if (res.status !== 201) throw new Error(`signup of ${username}: ${res.status} ${await res.text()}`);
  const token = (res.headers.get('set-cookie') ?? '').split(';')[0].split('=')[1];
  const me = await (await fetch(`${base}/api/me`, { headers: { cookie: `burraco_session=${token}` } })).json();
  return { token, id: /** @type {string} */ (me.id) };
}
