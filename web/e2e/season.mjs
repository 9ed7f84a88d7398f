// The season page (season.html) on the real server, its files from web/ on disk (the
// leaderboards test's front server: /api passed through).
// Checked: the endpoints' documented shapes on a server with no rated match; the current season
// selected and dated, every ladder empty and said so (people's and bots'), at 1366x768 in English
// and at 390x844 in Italian, never scrolling sideways, every text at WCAG AA; a past season chosen
// in the selector shows its ladder (served by the test in the endpoint's shape, long names
// included) linking to the player's page, kept in the address, still fitting a phone; "More" asks
// for the next page; the lobby and the leaderboards link here.
import assert from 'node:assert/strict';
import { assertFitsWindow } from './lib/layout.mjs';
import { assertContrast } from './lib/contrast.mjs';
import { clientFromDisk } from './lib/disk-client.mjs';

export const name = 'season page (current and past seasons, ladders, EN desktop and IT phone, paging)';

/** A ladder's rows in the endpoint's shape: `n` from rank `from`, pairs when `pair`. */
function rows(n, from, pair) {
  return Array.from({ length: n }, (_, i) => {
    const rank = from + i;
    const names = pair ? [rank === 1 ? 'Bartolomeo_Smeraldino24' : `Anna${rank}`, rank === 1 ? 'Massimiliana.Ottaviani' : `Bruno${rank}`] : [rank === 1 ? 'Bartolomeo_Smeraldino24' : `Anna${rank}`];
    const accounts = names.map((_, j) => `u-${rank}${'ab'[j]}`);
    return { rank, account: accounts[0], username: names[0], accounts, names, points: 200 - rank, matches: 40 + rank, bot: false };
  });
}

export async function run({ browser, wsUrl, shots }) {
  const client = await clientFromDisk(new URL(wsUrl).host);
  const base = client.base;
  const errors = [];

  // The endpoints themselves: the current season listed with its dates, an empty ladder.
  const list = await (await fetch(`${base}/api/seasons`)).json();
  const current = list.seasons.find((/** @type {any} */ s) => s.current);
  assert.equal(current.id, list.current);
  assert.match(current.id, /^\d{4}-q[1-4]$/);
  assert.ok(current.start_ms <= Date.now() && Date.now() < current.end_ms, 'now is in the current season');
  const empty = await (await fetch(`${base}/api/seasons/current/two`)).json();
  assert.deepEqual({ category: empty.category, bots: empty.bots, offset: empty.offset, rows: empty.rows, season: empty.season.id },
    { category: 'two', bots: false, offset: 0, rows: [], season: current.id });
  const refused = await fetch(`${base}/api/seasons/current/three`);
  assert.equal(refused.status, 404);
  assert.equal((await refused.json()).code, 'unknown_category');

  // Desktop, English: the current season, every ladder empty.
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/season.html`);
  await page.waitForSelector('h1:has-text("Season")');
  await page.waitForSelector(`[data-testid=season-select] option[value="${current.id}"]:has-text("(current)")`, { state: 'attached' });
  assert.equal(await page.inputValue('[data-testid=season-select]'), current.id);
  await page.waitForSelector('[data-testid=season-dates]');
  await page.waitForSelector('[data-testid=season-empty]:has-text("No points in this season yet.")');
  for (const cat of ['four', 'pair', 'two']) {
    await page.click(`[data-testid=tab-${cat}]`);
    await page.waitForSelector(`[data-testid=tab-${cat}][aria-pressed=true]`);
    await page.waitForSelector('[data-testid=season-empty]');
  }
  await page.check('[data-testid=toggle-bots]');
  await page.waitForSelector('[data-testid=toggle-bots]:checked');
  await page.waitForSelector('[data-testid=season-empty]');
  assert.equal(new URL(page.url()).search, '?cat=two&bots=true', 'the ladder shown is in the address');
  await assertFitsWindow(page, 'the season page at 1366x768', { down: false });
  await assertContrast(page, 'the season page (1366x768, English, empty)');
  await page.screenshot({ path: shots('season-desktop-en.png'), fullPage: true });
  await page.uncheck('[data-testid=toggle-bots]');
  await page.waitForSelector('[data-testid=toggle-bots]:not(:checked)');

  // A past season, chosen in the selector: its ladder (served here), a full page then "More".
  const past = { id: '2025-q1', year: 2025, quarter: 1, start_ms: 1735689600000, end_ms: 1743465600000, current: false };
  await page.route('**/api/seasons', (route) => route.fulfill({ contentType: 'application/json',
    body: JSON.stringify({ current: current.id, seasons: [current, past] }) }));
  /** @type {string[]} */
  const asked = [];
  await page.route(/\/api\/seasons\/2025-q1\/two/, (route) => {
    const offset = Number(new URL(route.request().url()).searchParams.get('offset') ?? 0);
    asked.push(route.request().url());
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ season: past, category: 'two', bots: false, limit: 50, offset,
      rows: offset ? rows(3, 51, false) : rows(50, 1, false) }) });
  });
  await page.reload();
  await page.waitForSelector('[data-testid=season-select] option[value="2025-q1"]', { state: 'attached' });
  await page.selectOption('[data-testid=season-select]', '2025-q1');
  await page.waitForSelector('[data-testid=season-row] >> nth=49');
  await page.waitForSelector('[data-testid=season-dates]:has-text("1 Jan 2025 – 31 Mar 2025")');
  assert.equal(new URL(page.url()).search, '?season=2025-q1&cat=two');
  assert.equal(await page.getAttribute('[data-testid=season-row] >> nth=0 >> a', 'href'), 'player.html?name=u-1a');
  await page.click('[data-testid=season-more]');
  await page.waitForSelector('[data-testid=season-row] >> nth=52');
  assert.equal(await page.$('[data-testid=season-more]'), null, 'no more after a short page');
  assert.ok(asked.some((u) => u.includes('offset=50')), 'the second page asked from 50');
  assert.equal(await page.textContent('[data-testid=season-row] >> nth=52 >> td >> nth=0'), '53');
  await assertFitsWindow(page, 'a past season at 1366x768', { down: false });
  // The player's page shows the current season's points (served here in the endpoint's shape).
  await page.route(/\/api\/players\/u-anna/, (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({
    account: { id: 'u-anna', username: 'Anna', bot: false }, totals: [], partners: [], tournaments: [], matches: [], next: null,
    season: { id: current.id, start_ms: current.start_ms, end_ms: current.end_ms, points: [
      { category: 'two', points: 13, matches: 4 },
      { category: 'pair', points: 3, matches: 1, partners: ['u-anna', 'u-bruno'], names: ['Anna', 'Bruno'] }] } }) }));
  await page.goto(`${base}/player.html?name=u-anna`);
  await page.waitForSelector('[data-testid=season-two]:has-text("13 points, 4 matches")');
  await page.waitForSelector('[data-testid=season-pair]:has-text("Fixed pair with Bruno")');
  await page.click('[data-testid=season-points] ~ p [data-testid=season-link]');
  await page.waitForSelector('h1:has-text("Season")');
  // Linked to the leaderboards, and from them.
  await page.click('[data-testid=leaderboards-link]');
  await page.waitForSelector('h1:has-text("Leaderboards")');
  await page.click('[data-testid=season-link]');
  await page.waitForSelector('h1:has-text("Season")');
  await ctx.close();

  // A phone in Italian: the empty ladder, then a past pair ladder with long names.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const p2 = await phone.newPage();
  p2.on('pageerror', (e) => errors.push(e.message));
  await p2.goto(`${base}/season.html`);
  await p2.click('[data-testid=lang-it]');
  await p2.waitForSelector('h1:has-text("Stagione")');
  await p2.waitForSelector('[data-testid=season-empty]:has-text("Nessun punto ancora in questa stagione.")');
  await p2.waitForSelector(`[data-testid=season-select] option[value="${current.id}"]:has-text("(in corso)")`, { state: 'attached' });
  await assertFitsWindow(p2, 'the season page at 390x844 (empty)', { down: false });
  await assertContrast(p2, 'the season page (390x844, Italian, empty)');
  await p2.screenshot({ path: shots('season-phone-it-empty.png'), fullPage: true });
  await p2.route(/\/api\/seasons\/2025-q1\/pair/, (route) => route.fulfill({ contentType: 'application/json',
    body: JSON.stringify({ season: past, category: 'pair', bots: false, limit: 50, offset: 0, rows: rows(12, 1, true) }) }));
  await p2.goto(`${base}/season.html?season=2025-q1&cat=pair`);
  await p2.waitForSelector('[data-testid=season-row] >> nth=11');
  // Named by the address though not listed (no points on this server): chosen, with its dates.
  assert.equal(await p2.inputValue('[data-testid=season-select]'), '2025-q1');
  await p2.waitForSelector('[data-testid=season-dates]:has-text("1 gen 2025 – 31 mar 2025")');
  await p2.waitForSelector('[data-testid=season-table] th:has-text("Coppia")');
  assert.equal(await p2.getAttribute('[data-testid=season-row] >> nth=0 >> a >> nth=1', 'href'), 'player.html?name=u-1b');
  await assertFitsWindow(p2, 'the season page at 390x844 (twelve pairs)', { down: false });
  await assertContrast(p2, 'the season page (390x844, Italian, a pair ladder)');
  await p2.screenshot({ path: shots('season-phone-it.png'), fullPage: true });
  await phone.close();

  // The lobby links here.
  const lctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  const lp = await lctx.newPage();
  lp.on('pageerror', (e) => errors.push(e.message));
  await lp.goto(`${base}/`);
  await lp.click('[data-testid=season-link]:has-text("Season")');
  await lp.waitForSelector('[data-testid=season-empty]');
  await lctx.close();
  client.stop();
  assert.deepEqual(errors, [], 'no page errors');
}
