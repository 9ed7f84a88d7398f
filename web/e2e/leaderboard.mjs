// The leaderboards page (leaderboard.html) and the lobby's "Rated" checkbox on the real server.
// The pages are opened at http://localhost:<port> of a small front server of the test's: the
// client's files from web/ on disk (a prebuilt server embeds the web/ it was built with), /api and
// the socket passed through with their Host, so a signed-in account's cookie is taken.
// Checked: on a server with no rated matches, every board says it is empty (all time and this
// week, people's and bots'), at 1366x768 in English and at 390x844 in Italian, never scrolling
// sideways, every text at WCAG AA; a board's rows (served by the test in the endpoint's shape,
// long names included) link to the player's page and still fit a phone; the lobby and the player
// page link here; a signed-in account sees "Rated" by quick play and create and its quick play
// sends `quick_play_rated`, while a guest sees no such box.
import assert from 'node:assert/strict';
import { readFileSync, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { resolve, extname } from 'node:path';
import { WEB_DIR } from './lib/harness.mjs';
import { assertFitsWindow } from './lib/layout.mjs';
import { assertContrast } from './lib/contrast.mjs';

export const name = 'leaderboards page (empty boards, rows, EN desktop and IT phone) and the lobby\'s Rated checkbox for accounts only';

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

export async function run({ browser, wsUrl, shots }) {
  const addr = new URL(wsUrl).host;
  const client = await clientFromDisk(addr);
  const base = client.base;
  const errors = [];

  // The endpoint itself, on a server with no rated match: an empty board in its documented shape.
  const api = await (await fetch(`${base}/api/leaderboards/two`)).json();
  assert.deepEqual({ category: api.category, period: api.period, bots: api.bots, rows: api.rows }, { category: 'two', period: 'all', bots: false, rows: [] });

  // Desktop, English: every board empty, said so.
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/leaderboard.html`);
  await page.waitForSelector('h1:has-text("Leaderboards")');
  await page.waitForSelector('[data-testid=leaderboard-empty]:has-text("No established ratings yet.")');
  for (const cat of ['four', 'pair', 'two']) {
    await page.click(`[data-testid=tab-${cat}]`);
    await page.waitForSelector(`[data-testid=tab-${cat}][aria-pressed=true]`);
    await page.waitForSelector('[data-testid=leaderboard-empty]:has-text("No established ratings yet.")');
  }
  await page.check('[data-testid=toggle-week]');
  await page.waitForSelector('[data-testid=leaderboard-empty]:has-text("No rated matches this week yet.")');
  await page.check('[data-testid=toggle-bots]');
  await page.waitForSelector('[data-testid=leaderboard-empty]:has-text("No rated matches this week yet.")');
  assert.equal(new URL(page.url()).search, '?cat=two&period=week&bots=true', 'the board shown is in the address');
  await assertFitsWindow(page, 'the leaderboards at 1366x768', { down: false });
  await assertContrast(page, 'the leaderboards (1366x768, English, empty)');
  await page.screenshot({ path: shots('leaderboard-desktop-en.png'), fullPage: true });
  // Linked from the player page.
  await page.goto(`${base}/player.html?name=nobody_${Date.now().toString(36)}`);
  await page.click('[data-testid=leaderboard-link]:has-text("Leaderboards")');
  await page.waitForSelector('[data-testid=leaderboard-empty]');
  await ctx.close();

  // A phone in Italian: the empty board in Italian, then a pair board with rows (long names).
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const p2 = await phone.newPage();
  p2.on('pageerror', (e) => errors.push(e.message));
  await p2.goto(`${base}/leaderboard.html`);
  await p2.click('[data-testid=lang-it]');
  await p2.waitForSelector('h1:has-text("Classifiche")');
  await p2.waitForSelector('[data-testid=leaderboard-empty]:has-text("Nessun punteggio ancora consolidato.")');
  await assertFitsWindow(p2, 'the leaderboards at 390x844 (empty)', { down: false });
  await assertContrast(p2, 'the leaderboards (390x844, Italian, empty)');
  await p2.screenshot({ path: shots('leaderboard-phone-it-empty.png'), fullPage: true });
  const rows = Array.from({ length: 12 }, (_, i) => ({ rank: i + 1, accounts: [`u-${i}a`, `u-${i}b`],
    names: [i === 0 ? 'Bartolomeo_Smeraldino24' : `Anna${i}`, i === 0 ? 'Massimiliana.Ottaviani' : `Bruno${i}`],
    rating: 1900 - i * 17.3, deviation: 60, level: i < 3 ? 'master' : 'expert', matches: 120 - i, last_ms: 1764163200000 }));
  await p2.route('**/api/leaderboards/pair', (route) => route.fulfill({ contentType: 'application/json',
    body: JSON.stringify({ category: 'pair', period: 'all', bots: false, rows }) }));
  await p2.click('[data-testid=tab-pair]');
  await p2.waitForSelector('[data-testid=leaderboard-row] >> nth=11');
  assert.equal(await p2.getAttribute('[data-testid=leaderboard-row] >> nth=0 >> a >> nth=1', 'href'), 'player.html?name=u-0b');
  assert.equal(await p2.textContent('[data-testid=leaderboard-row] >> nth=0 >> td >> nth=3'), 'Maestro');
  await p2.waitForSelector('[data-testid=leaderboard-table] th:has-text("Coppia")');
  await assertFitsWindow(p2, 'the leaderboards at 390x844 (twelve pairs)', { down: false });
  await assertContrast(p2, 'the leaderboards (390x844, Italian, a pair board)');
  await p2.screenshot({ path: shots('leaderboard-phone-it.png'), fullPage: true });
  await phone.close();

  // The lobby: a guest sees no "Rated"; a signed-in account does, and its quick play is rated.
  const user = `lb_${Date.now().toString(36)}`;
  const signup = await fetch(`${base}/api/signup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: user, password: 'correct horse battery' }),
  });
  assert.equal(signup.status, 201);
  const token = (signup.headers.get('set-cookie') ?? '').split(';')[0].split('=')[1];
  assert.ok(token, 'a session cookie');

  const gctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  const gp = await gctx.newPage();
  gp.on('pageerror', (e) => errors.push(e.message));
  await gp.goto(`${base}/`);
  await gp.click('[data-testid=leaderboard-link]');
  await gp.waitForSelector('[data-testid=leaderboard-empty]');
  await gp.goBack();
  await gp.fill('[data-testid=name-input]', 'Guido');
  await gp.click('[data-testid=enter]');
  await gp.waitForSelector('[data-testid=quick-play]');
  await gp.waitForFunction(() => /** @type {any} */ (window).__burraco?.conn?.frames.some((f) => f.includes('"identity"')));
  assert.equal(await gp.$('[data-testid=quick-rated]'), null, 'a guest has no Rated box');
  assert.equal(await gp.$('[data-testid=create-rated]'), null, 'a guest has no Rated box');
  await gctx.close();

  const actx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  await actx.addCookies([{ name: 'burraco_session', value: token, domain: 'localhost', path: '/' }]);
  const ap = await actx.newPage();
  ap.on('pageerror', (e) => errors.push(e.message));
  /** @type {string[]} */
  const sent = [];
  ap.on('websocket', (ws) => ws.on('framesent', (f) => { if (typeof f.payload === 'string') sent.push(f.payload); }));
  await ap.goto(`${base}/`);
  await ap.fill('[data-testid=name-input]', user);
  await ap.click('[data-testid=enter]');
  await ap.waitForSelector('[data-testid=quick-rated]');
  await ap.waitForSelector('[data-testid=create-rated]');
  assert.ok(sent.some((f) => JSON.parse(f).type === 'hello' && JSON.parse(f).version === '1.5'), 'the hello says 1.5');
  await ap.check('[data-testid=quick-rated]');
  // The page re-renders on the next animation frame: wait for it, then look.
  await ap.waitForFunction(() => /** @type {HTMLInputElement|null} */ (document.querySelector('[data-testid=create-rated]'))?.checked === true, null, { timeout: 5000 })
    .catch(() => {});
  assert.equal(await ap.isChecked('[data-testid=create-rated]'), true, 'one Rated choice for both');
  assert.equal(await ap.$('[data-testid=create-bots]'), null, 'a rated table takes no server bots');
  await assertFitsWindow(ap, 'the lobby with Rated at 390x844', { down: false });
  await ap.click('[data-testid=quick-play]');
  await ap.waitForFunction(() => document.body.dataset.view === 'table', null, { timeout: 15000 });
  assert.ok(sent.some((f) => JSON.parse(f).type === 'quick_play_rated'), 'quick play sent quick_play_rated');
  await actx.close();
  client.stop();
  assert.deepEqual(errors, [], 'no page errors');
}
