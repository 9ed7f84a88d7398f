// Test harness: the real server, a static server for web/ (for a server that does not serve it at /,
// or E2E_STATIC=1 to test the files on disk without rebuilding), a cuttable TCP proxy, headless Debian Chromium.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, existsSync, statSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import net from 'node:net';
import { chromium } from 'playwright-core';

export const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const REPO = resolve(WEB_DIR, '..');

/**
 * Seconds a disconnected seat is kept before a server bot stands in (the server's
 * --disconnect-grace-secs). The reconnect test's short outage (1 s, back within 1.5 s with the
 * page's backoff) stays well inside it, so no stand-in plays that player's turn; its long outage
 * (GRACE_SECS + 0.4 s, back at the page's fourth retry, 4.5 s at the earliest) outlasts it, so a
 * stand-in plays the seat for 1.5 s or more, until the page is back.
 */
export const GRACE_SECS = 3;

/** The server binary the tests run (also for its `admin` commands on a test's data dir). */
export function serverBin() {
  return process.env.BURRACO_SERVER_BIN ?? join(REPO, 'target/release/burraco-server');
}

/**
 * Starts burraco-server on a free port; resolves with {addr, data (its data dir), stop (async:
 * the server gone and its data dir removed)}. Its bots wait
 * `--bot-delay-ms` 50 (E2E_BOT_DELAY_MS) before each move, and a seat gone for GRACE_SECS gets a
 * bot standing in.
 */
export async function startServer(extraEnv = {}) {
  const bin = serverBin();
  if (!existsSync(bin)) throw new Error(`${bin} not found: cargo build --release -p burraco-server`);
  const data = mkdtempSync(join(tmpdir(), 'burraco-e2e-'));
  const args = ['--listen', '127.0.0.1:0', '--data', data,
    '--bot-delay-ms', process.env.E2E_BOT_DELAY_MS ?? '50', '--disconnect-grace-secs', String(GRACE_SECS)];
  const child = spawn(bin, args, {
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'warn', BURRACO_NEXT_HAND_DELAY_SECS: '60', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; if (process.env.E2E_VERBOSE) process.stderr.write(d); });
  const addr = await new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error('server did not start: ' + stderr)), 20000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (\S+)/);
      if (m) { clearTimeout(timer); res(m[1]); }
    });
    child.on('exit', (code) => rej(new Error(`server exited ${code}: ${stderr}`)));
  });
  /** Stops the server (SIGTERM, SIGKILL after 5 s) and removes its data dir once it is gone. */
  const stop = () => new Promise((res) => {
    const gone = () => { rmSync(data, { recursive: true, force: true }); res(undefined); };
    if (child.exitCode !== null || child.signalCode !== null) { gone(); return; }
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => { clearTimeout(kill); gone(); });
    child.kill('SIGTERM');
  });
  return { addr, data, stop };
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png' };

/**
 * Serves web/ (only the shipped assets) the way the server will: index.html at /, and the
 * server's /api on the same origin (passed through to `apiAddr`, host:port), as the page expects it.
 */
export async function startStatic(apiAddr) {
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (apiAddr && path.startsWith('/api/')) {
      const [host, port] = [apiAddr.slice(0, apiAddr.lastIndexOf(':')), Number(apiAddr.slice(apiAddr.lastIndexOf(':') + 1))];
      const up = http.request({ host, port, path: req.url, method: req.method, headers: { ...req.headers, host: apiAddr } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => { res.writeHead(502); res.end('bad gateway'); });
      req.pipe(up);
      return;
    }
    const rel = path === '/' ? 'index.html' : path.slice(1);
    const file = resolve(WEB_DIR, rel);
    const shipped = file.startsWith(WEB_DIR) && (rel === 'index.html' || rel === 'account.html' || rel === 'player.html' || rel === 'leaderboard.html' || rel === 'styles.css' || rel === 'favicon.svg' || rel.startsWith('js/'));
    if (!shipped || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end('not found'); return; }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}/`, stop: () => server.close() };
}

/** A TCP proxy in front of `target` (host:port): `cut()` drops every open connection, `hold(ms)` refuses new ones for a while. */
export async function startProxy(target) {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const sockets = new Set();
  let holdUntil = 0;
  const server = net.createServer((client) => {
    if (Date.now() < holdUntil) { client.destroy(); return; }
    const upstream = net.connect(port, host);
    sockets.add(client); sockets.add(upstream);
    client.pipe(upstream); upstream.pipe(client);
    const done = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('error', done); upstream.on('error', done); client.on('close', done); upstream.on('close', done);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const addr = `127.0.0.1:${server.address().port}`;
  return {
    addr,
    cut() { for (const s of sockets) s.destroy(); sockets.clear(); },
    hold(ms) { holdUntil = Date.now() + ms; },
    stop() { for (const s of sockets) s.destroy(); server.close(); },
  };
}

/** The files a browser loads from web/ (what the server embeds), relative to web/. */
function shippedFiles() {
  const js = readdirSync(join(WEB_DIR, 'js')).filter((f) => f.endsWith('.js')).map((f) => `js/${f}`);
  return ['index.html', 'account.html', 'player.html', 'leaderboard.html', 'styles.css', 'favicon.svg', ...js];
}

/**
 * Where a browser opens the client for a server at `addr`: the server's own / when it serves
 * exactly the web/ on disk (its copy is embedded when it is built: a prebuilt binary may hold an
 * older one), else the static server with ?server=. E2E_STATIC=1: always the files on disk.
 */
export async function pageUrlFor(addr, staticUrl) {
  const fromDisk = `${staticUrl}?server=${encodeURIComponent(`ws://${addr}/ws`)}`;
  if (process.env.E2E_STATIC === '1') return fromDisk;
  try {
    for (const f of shippedFiles()) {
      const res = await fetch(`http://${addr}/${f === 'index.html' ? '' : f}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (!res.ok || !body.equals(readFileSync(join(WEB_DIR, f)))) {
        if (res.ok) console.log(`the server's embedded ${f} differs from web/${f}: testing the files on disk`);
        return fromDisk;
      }
    }
    return `http://${addr}/`;
  } catch { /* not served */ }
  return fromDisk;
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a truthy value. */
export async function until(fn, { timeout = 30000, interval = 100, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(interval);
  }
}
