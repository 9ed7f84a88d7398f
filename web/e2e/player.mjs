// The player's page (player.html) on the real server: two accounts (protocol bots with their
// session cookies) play a rated one-hand head-to-head match against each other (the rival never
// melds, so the rating moves), and a guest a
// casual one against a server bot; the account's page shows the rating the server wrote
// ("1500?"-style while provisional) and its history as a chart, and lists the match with its
// totals, replay link and a shuffle that verifies, on a 1366x768 desktop in English and a 390x844
// phone in Italian, neither scrolling sideways; every text meeting WCAG AA contrast; the replay
// link opens the hand in the game; the guest's tab finds its own game by its session; an unknown
// name is refused in words; the lobby's header shows the account's rating beside its name.
// The test runs a server of its own, whose rated matches count however quickly they are played
// (the hidden BURRACO_TEST_RATED_MIN_PLAY_MS=0: a real match otherwise needs a minute of moves), so
// the other tests' server stays without rated matches. The ratings' answer is held to
// web/test/fixtures/ratings-first-match.json (the unit tests' fixture): same shape, or this fails;
// E2E_WRITE_FIXTURES=1 writes that file from this run's answer instead.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, startServer, startStatic, pageUrlFor, WEB_DIR } from './lib/harness.mjs';
import { assertFitsWindow } from './lib/layout.mjs';
import { assertContrast } from './lib/contrast.mjs';
import { shapeDifferences } from './lib/json-shape.mjs';
import { Bot } from './lib/bot.mjs';
import { normaKey } from '../js/cards.js';

/** A player who never melds: draws and discards its highest card, so the other wins and the ratings move. */
class Discarder extends Bot {
  /** @param {string} phase */
  async play(phase) {
    const table = this.table;
    if (phase === 'take') await this.request('draw', { table });
    for (const card of [...this.hand].sort((a, b) => normaKey(b) - normaKey(a))) {
      try { await this.request('discard', { table, card }); return; } catch { /* try the next */ }
    }
  }
}

export const name = 'player page: a real rated match\'s rating and chart, an account\'s and a guest\'s finished matches, totals, verify, desktop EN and phone IT';

const FIXTURE = join(WEB_DIR, 'test/fixtures/ratings-first-match.json');

/** Plays a one-hand head-to-head match against a server bot; resolves with its table id. @param {Bot} bot */
async function playOneHand(bot) {
  await bot.connect();
  const r = await bot.request('create_table', { settings: { preset: 'fitab', players: 2, hands: 1 }, private: false, bots: 'random' });
  bot.table = r.table; bot.seat = r.seat;
  await bot.request('ready', { table: r.table });
  await until(() => bot.ended, { timeout: 180000, interval: 250, what: `the hand at ${r.table} to end` });
  return r.table;
}

/** Two accounts play a rated one-hand head-to-head match; resolves with its table id. @param {Bot} a @param {Bot} b */
async function playRatedHand(a, b) {
  await Promise.all([a.connect(), b.connect()]);
  const r = await a.request('create_rated_table', { settings: { preset: 'fitab', players: 2, hands: 1 }, private: false });
  a.table = r.table; a.seat = r.seat;
  await b.join({ table: r.table });
  await Promise.all([a.ready(), b.ready()]);
  await until(() => a.ended && b.ended, { timeout: 180000, interval: 250, what: `the rated hand at ${r.table} to end` });
  return r.table;
}

/** Signs `username` up; its session token. @param {string} base @param {string} username */
async function signUp(base, username) {
  const res = await fetch(`${base}/api/signup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'correct horse battery' }),
  });
  assert.equal(res.status, 201);
  const token = (res.headers.get('set-cookie') ?? '').split(';')[0].split('=')[1];
  assert.ok(token, 'a session cookie');
  return token;
}

export async function run({ browser, shots }) {
  const server = await startServer({ BURRACO_TEST_RATED_MIN_PLAY_MS: '0' });
  const stat = await startStatic(server.addr);
  try {
    await checks(browser, shots, server.addr, await pageUrlFor(server.addr, stat.url));
  } finally {
    stat.stop();
    await server.stop();
  }
}

/**
 * @param {import('playwright-core').Browser} browser @param {(f: string) => string} shots
 * @param {string} addr @param {string} pageUrl
 */
async function checks(browser, shots, addr, pageUrl) {
  const wsUrl = `ws://${addr}/ws`;
  const api = `http://${addr}`;
  // The pages' origin: the server's own, or the static server (which passes /api through).
  const base = new URL(pageUrl).origin;
  const errors = [];
  const user = `pp_${Date.now().toString(36)}`;
  const rival = `pr_${Date.now().toString(36)}`;
  const token = await signUp(api, user);
  const rivalToken = await signUp(api, rival);

  // The two accounts play a rated match (the rival never melds, so the account wins) while a guest plays a casual one against a server bot.
  const player = new Bot(wsUrl, user, { delay: 20, version: '1.5', headers: { cookie: `burraco_session=${token}` } });
  const opponent = new Discarder(wsUrl, rival, { delay: 20, version: '1.5', headers: { cookie: `burraco_session=${rivalToken}` } });
  const guest = new Bot(wsUrl, 'Gina', { delay: 20 });
  const [table, guestTable] = await Promise.all([playRatedHand(player, opponent), playOneHand(guest)]);
  const guestToken = guest.frames.find((f) => f.type === 'welcome')?.session;
  player.close(); opponent.close(); guest.close();
  const index = await until(async () => {
    const page = await (await fetch(`${api}/api/players/${user}`)).json();
    return page.matches?.length ? page : null;
  }, { timeout: 10000, what: 'the match in the account\'s index' });
  assert.equal(index.matches[0].table, table);
  assert.equal(index.totals[0].category, 'two');
  assert.equal(index.totals[0].matches, 1);

  // The rating the server wrote for this match, as the page will read it.
  const ratings = await until(async () => {
    const json = await (await fetch(`${api}/api/ratings/${user}`)).json();
    return json.ratings?.length ? json : null;
  }, { timeout: 10000, what: 'the rated match in the account\'s ratings' });
  const two = ratings.ratings.find((/** @type {any} */ r) => r.category === 'two');
  assert.ok(two, JSON.stringify(ratings));
  assert.equal(two.provisional, true, 'one rated match: provisional');
  assert.ok(two.rating > ratings.history[0].before, `a won match moves the rating up: ${JSON.stringify(ratings)}`);
  assert.equal(ratings.history.length, 1);
  assert.equal(ratings.history[0].match, table);
  if (process.env.E2E_WRITE_FIXTURES === '1') {
    writeFileSync(FIXTURE, `${JSON.stringify(ratings, null, 2)}\n`);
    console.log(`wrote ${FIXTURE}`);
  } else {
    const differences = shapeDifferences(JSON.parse(readFileSync(FIXTURE, 'utf8')), ratings);
    assert.deepEqual(differences, [], `${FIXTURE} no longer has the shape of GET /api/ratings (E2E_WRITE_FIXTURES=1 node e2e/run.mjs player writes it again)`);
  }
  const figure = `${Math.round(two.rating)}?`;
  const start = ratings.history[0].before;

  // Desktop, English, signed in: one's own page (no ?name).
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  await ctx.addCookies([{ name: 'burraco_session', value: token, url: base }]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/player.html`);
  await page.waitForSelector(`[data-testid=player-name]:has-text("${user}")`);
  assert.equal(await page.textContent('[data-testid=totals] tr[data-row=matches_played] td'), '1');
  // The rating the server wrote, "?" while provisional, and its history from the start.
  await page.waitForSelector(`[data-testid=rating-two] [data-testid=rating-figure]:text-is("${figure}")`);
  await page.waitForSelector('[data-testid=rating-two] [data-testid=rating-provisional]:has-text("provisional")');
  await page.waitForSelector('[data-testid=rating-two]:has-text("1 rated match")');
  assert.deepEqual(await chartOf(page), [{ category: 'two', points: [Math.round(start), Math.round(two.rating)] }], 'one line, from the rating before the match to after it');
  const row = `[data-testid=match-row][data-table="${table}"]`;
  await page.waitForSelector(row);
  assert.equal(await page.getAttribute(`${row} [data-testid=replay-link]`, 'href'), `./#replay/${table}`);
  await page.click(`${row} [data-testid=verify-button]`);
  await page.waitForSelector(`${row} [data-testid=verify-ok]:has-text("Hand 1: the shuffle checks out.")`, { timeout: 20000 });
  assert.equal(await page.$(`${row} [data-testid=verify-bad]`), null, 'no hand fails its checks');
  await assertFitsWindow(page, 'the player page at 1366x768', { down: false });
  await assertContrast(page, 'the player page (1366x768, English)');
  await page.screenshot({ path: shots('player-desktop-en.png'), fullPage: true });

  // The lobby's header: the account's rating beside its name, linking to this page. Only where
  // the server serves this web/ itself: a page served apart could not send the account's cookie
  // on its WebSocket (CI builds the server from this tree, so there it always runs).
  const served = base === `http://${addr}`;
  if (served) await headerShows(page, base, user, figure, 'the lobby at 1366x768');
  else console.log('player: the server embeds another web/: the lobby header\'s rating is not checked');

  // An unknown name.
  await page.goto(`${base}/player.html?name=nobody_${Date.now().toString(36)}`);
  await page.waitForSelector('[data-testid=player-error]:has-text("no player of that name")');
  await ctx.close();

  // The replay link opens that table's hand, step by step, in the game (for anyone: a context
  // without the account's cookie, which a page served apart from the server could not send on
  // its WebSocket).
  const viewer = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  const vp = await viewer.newPage();
  vp.on('pageerror', (e) => errors.push(e.message));
  await vp.goto(`${pageUrl}#replay/${table}`);
  await vp.waitForSelector('[data-testid=name-input], [data-testid=replay-next]');
  if (await vp.$('[data-testid=name-input]')) {
    await vp.fill('[data-testid=name-input]', 'Viewer');
    await vp.click('[data-testid=enter]');
  }
  await vp.waitForSelector('[data-testid=replay-next]', { timeout: 15000 });
  await viewer.close();

  // A phone in Italian, signed out, looking at the account by name.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const p2 = await phone.newPage();
  p2.on('pageerror', (e) => errors.push(e.message));
  if (served) {
    await phone.addCookies([{ name: 'burraco_session', value: token, url: base }]);
    await headerShows(p2, base, user, figure, 'the lobby at 390x844');
    await phone.clearCookies();
  }
  await p2.goto(`${base}/player.html?name=${encodeURIComponent(user)}`);
  await p2.waitForSelector(`[data-testid=rating-two] [data-testid=rating-figure]:text-is("${figure}")`);
  await p2.waitForSelector('[data-testid=rating-two]:has-text("Testa a testa")');
  await p2.waitForSelector('[data-testid=rating-two] [data-testid=rating-provisional]:has-text("provvisorio")');
  await p2.waitForSelector('[data-testid=rating-two]:has-text("1 partita valida")');
  assert.equal((await chartOf(p2)).length, 1);
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

/** The chart's lines as drawn: each category's points' ratings (their tooltips), left to right. @param {import('playwright-core').Page} page */
function chartOf(page) {
  return page.$$eval('[data-testid=rating-chart] g[data-category]', (gs) => gs.map((g) => ({
    category: g.getAttribute('data-category'),
    points: [...g.querySelectorAll('circle title')].map((t) => Number(t.textContent)),
  })));
}

/**
 * The signed-in lobby's header shows `figure` ("1516?") beside the account's name, linking to the
 * player page, and fits the window.
 * @param {import('playwright-core').Page} page @param {string} base @param {string} user
 * @param {string} figure @param {string} what
 */
async function headerShows(page, base, user, figure, what) {
  await page.goto(`${base}/`);
  await page.waitForSelector('[data-testid=name-input], [data-testid=change-name]');
  if (await page.$('[data-testid=name-input]')) {
    await page.fill('[data-testid=name-input]', user);
    await page.click('[data-testid=enter]');
  }
  await page.waitForSelector(`[data-testid=header-rating]:text-is("${figure}")`, { timeout: 10000 });
  assert.equal(await page.getAttribute('[data-testid=header-rating]', 'href'), 'player.html');
  await assertFitsWindow(page, what, { down: false });
}
