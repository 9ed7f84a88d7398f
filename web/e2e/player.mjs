// The player's page (player.html) on the real server: a signed-in account (a protocol bot with
// its session cookie) and a guest each play a one-hand head-to-head match against a server bot;
// the account's page lists the match with its totals, replay link and a shuffle that verifies,
// on a 1366x768 desktop in English and a 390x844 phone in Italian (with a rating history drawn
// from the ratings endpoint's JSON), neither scrolling sideways;
// every text meeting WCAG AA contrast; the replay link opens the hand in the game; the guest's
// tab finds its own game by its session; an unknown name is refused in words.
// The pages are opened at http://localhost:<port>, where the session cookie was set; the
// protocol bot sends no Origin (not a browser), so its cookie is taken.
import assert from 'node:assert/strict';
import { until } from './lib/harness.mjs';
import { assertFitsWindow } from './lib/layout.mjs';
import { assertContrast } from './lib/contrast.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'player page: an account\'s and a guest\'s finished matches, totals, verify, desktop EN and phone IT';

/** Plays a one-hand head-to-head match against a server bot; resolves with its table id. @param {Bot} bot */
async function playOneHand(bot) {
  await bot.connect();
  const r = await bot.request('create_table', { settings: { preset: 'fitab', players: 2, hands: 1 }, private: false, bots: 'random' });
  bot.table = r.table; bot.seat = r.seat;
  await bot.request('ready', { table: r.table });
  await until(() => bot.ended, { timeout: 180000, interval: 250, what: `the hand at ${r.table} to end` });
  return r.table;
}

export async function run({ browser, wsUrl, shots }) {
  const addr = new URL(wsUrl).host;
  const port = addr.slice(addr.lastIndexOf(':') + 1);
  const base = `http://localhost:${port}`;
  const errors = [];
  const user = `pp_${Date.now().toString(36)}`;
  const signup = await fetch(`${base}/api/signup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: user, password: 'correct horse battery' }),
  });
  assert.equal(signup.status, 201);
  const token = (signup.headers.get('set-cookie') ?? '').split(';')[0].split('=')[1];
  assert.ok(token, 'a session cookie');

  // The account and a guest play at once, each against a server bot.
  const player = new Bot(wsUrl, user, { delay: 20, headers: { cookie: `burraco_session=${token}` } });
  const guest = new Bot(wsUrl, 'Gina', { delay: 20 });
  const [table, guestTable] = await Promise.all([playOneHand(player), playOneHand(guest)]);
  const guestToken = guest.frames.find((f) => f.type === 'welcome')?.session;
  player.close(); guest.close();
  const api = await until(async () => {
    const page = await (await fetch(`${base}/api/players/${user}`)).json();
    return page.matches?.length ? page : null;
  }, { timeout: 10000, what: 'the match in the account\'s index' });
  assert.equal(api.matches[0].table, table);
  assert.equal(api.totals[0].category, 'two');
  assert.equal(api.totals[0].matches, 1);

  // Desktop, English, signed in: one's own page (no ?name).
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  await ctx.addCookies([{ name: 'burraco_session', value: token, domain: 'localhost', path: '/' }]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/player.html`);
  await page.waitForSelector(`[data-testid=player-name]:has-text("${user}")`);
  assert.equal(await page.textContent('[data-testid=totals] tr[data-row=matches_played] td'), '1');
  // No ratings on this server yet (or none for a casual match): said so, or the rating shown.
  await page.waitForSelector('[data-testid=no-rating], [data-testid^=rating-]');
  const row = `[data-testid=match-row][data-table="${table}"]`;
  await page.waitForSelector(row);
  assert.equal(await page.getAttribute(`${row} [data-testid=replay-link]`, 'href'), `./#replay/${table}`);
  await page.click(`${row} [data-testid=verify-button]`);
  await page.waitForSelector(`${row} [data-testid=verify-ok]:has-text("Hand 1: the shuffle checks out.")`, { timeout: 20000 });
  assert.equal(await page.$(`${row} [data-testid=verify-bad]`), null, 'no hand fails its checks');
  await assertFitsWindow(page, 'the player page at 1366x768', { down: false });
  await assertContrast(page, 'the player page (1366x768, English)');
  await page.screenshot({ path: shots('player-desktop-en.png'), fullPage: true });

  // The replay link opens that table's hand, step by step, in the game.
  await page.goto(`${base}/#replay/${table}`);
  await page.waitForSelector('[data-testid=name-input], [data-testid=replay-next]');
  if (await page.$('[data-testid=name-input]')) {
    await page.fill('[data-testid=name-input]', 'Viewer');
    await page.click('[data-testid=enter]');
  }
  await page.waitForSelector('[data-testid=replay-next]', { timeout: 15000 });

  // An unknown name.
  await page.goto(`${base}/player.html?name=nobody_${Date.now().toString(36)}`);
  await page.waitForSelector('[data-testid=player-error]:has-text("no player of that name")');
  await ctx.close();

  // A phone in Italian, signed out, looking at the account by name.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const p2 = await phone.newPage();
  p2.on('pageerror', (e) => errors.push(e.message));
  // The ratings as GET /api/ratings/{account} writes them (served here by the test: the chart is
  // drawn from that JSON alone, whichever server answers it).
  await p2.route('**/api/ratings/*', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ categories: [
    { category: 'two', rating: 1562.4, deviation: 88.1, provisional: false, level: 'silver',
      history: [{ at_ms: 1764100000000, rating: 1500 }, { at_ms: 1764200000000, rating: 1531 }, { at_ms: 1764300000000, rating: 1562.4 }] },
    { category: 'four', rating: 1500, deviation: 350, provisional: true, level: null, history: [] },
  ] }) }));
  await p2.goto(`${base}/player.html?name=${encodeURIComponent(user)}`);
  await p2.waitForSelector('[data-testid=rating-two]:has-text("1562 ± 88")');
  await p2.waitForSelector('[data-testid=rating-four]:has-text("provvisorio")');
  assert.equal(await p2.$$eval('[data-testid=rating-chart] polyline', (l) => l.length), 1, 'one line: the category with a history');
  const chart = await p2.$eval('[data-testid=rating-chart]', (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, w: innerWidth }; });
  assert.ok(chart.left >= 0 && chart.right <= chart.w, `the chart inside the screen: ${JSON.stringify(chart)}`);
  await p2.waitForSelector('#recent-title:has-text("Partite recenti")');
  await p2.waitForSelector(`[data-testid=match-row][data-table="${table}"]`);
  await p2.waitForSelector('[data-testid=totals] th:has-text("Testa a testa")');
  await assertFitsWindow(p2, 'the player page at 390x844', { down: false });
  await assertContrast(p2, 'the player page (390x844, Italian, a rating chart)');
  await p2.screenshot({ path: shots('player-phone-it.png'), fullPage: true });
  await phone.close();

  // The guest's tab (its session's resume token in sessionStorage, as the game keeps it) finds
  // its own game, and only that.
  const gctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  await gctx.addInitScript((t) => sessionStorage.setItem('burraco.session', t), guestToken);
  const gp = await gctx.newPage();
  gp.on('pageerror', (e) => errors.push(e.message));
  await gp.goto(`${base}/player.html`);
  await gp.waitForSelector('[data-testid=player-name]:has-text("Your games this session")');
  await gp.waitForSelector(`[data-testid=match-row][data-table="${guestTable}"]`);
  assert.equal(await gp.$$eval('[data-testid=match-row]', (rows) => rows.length), 1, 'the guest\'s game only');
  await gctx.close();
  assert.deepEqual(errors, [], 'no page errors');
}
