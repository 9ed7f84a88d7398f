// The bot arena's page (arena.html) on the real server, its files from web/ on disk (the
// leaderboards test's front server: /api passed through).
// Checked: on a server where no bot account has played the arena, `GET /api/arena/leaderboard`
// still lists the server bots' four levels as fixed anchors (server/src/arena/http.rs), and the
// page says no bot is rated yet yet draws those anchors with their 95% intervals as bars, at
// 1366x768 in English and at 390x844 in Italian, every text at WCAG AA, no page error; on the
// phone the board inside its panel within 390 px (a mobile layout viewport widens to fit what
// overflows, so scrollWidth alone would not tell) and each level's name on one line; the lobby
// and the leaderboards page link here.
import assert from 'node:assert/strict';
import { assertFitsWindow } from './lib/layout.mjs';
import { assertContrast } from './lib/contrast.mjs';
import { clientFromDisk } from './lib/disk-client.mjs';

export const name = 'bot arena page (the server bots as anchors, intervals drawn, EN desktop and IT phone, linked)';

const LEVELS = { L0: 'random', L1: 'greedy', L2: 'expert', L3: 'search' };

/**
 * The anchors' rows on the page: each level named, italic as an anchor, its interval drawn as a
 * bar of some width inside its track. @param {import('playwright-core').Page} page @param {string} anchorWord
 */
async function checkAnchors(page, anchorWord) {
  await page.waitForSelector('[data-testid=arena-row].arena-anchor >> nth=3');
  const rows = await page.$$eval('[data-testid=arena-row]', (trs) => trs.map((tr) => {
    const bar = /** @type {HTMLElement} */ (tr.querySelector('.arena-bar'));
    const fill = /** @type {HTMLElement} */ (tr.querySelector('.arena-bar > span'));
    const track = bar.getBoundingClientRect(), drawn = fill.getBoundingClientRect();
    return { text: tr.textContent ?? '', anchor: tr.classList.contains('arena-anchor'), track: [track.left, track.right], drawn: [drawn.left, drawn.right] };
  }));
  assert.equal(rows.length, 4, 'the four levels, no bot');
  for (const [level, code] of Object.entries(LEVELS)) {
    const row = rows.find((r) => r.text.includes(`Bot (${code})`));
    assert.ok(row, `the level ${level} (${code}) is on the board`);
    assert.ok(row.anchor, `${code} is an anchor`);
    assert.ok(row.text.includes(`(${level}, ${anchorWord})`), `${code} is labelled ${level}, ${anchorWord}: ${row.text}`);
    assert.ok(row.drawn[1] - row.drawn[0] > 1, `${code}'s interval is drawn: ${JSON.stringify(row)}`);
    assert.ok(row.drawn[0] >= row.track[0] - 0.5 && row.drawn[1] <= row.track[1] + 0.5, `${code}'s bar inside its track: ${JSON.stringify(row)}`);
  }
}

export async function run({ browser, wsUrl, shots }) {
  const client = await clientFromDisk(new URL(wsUrl).host);
  const base = client.base;
  const errors = [];

  // The endpoint itself: the anchors alone, highest first, each interval rating ± 2 deviations.
  const board = await (await fetch(`${base}/api/arena/leaderboard`)).json();
  assert.equal(board.category, 'two');
  assert.deepEqual(board.rows.map((/** @type {any} */ r) => r.server_bot).sort(), Object.keys(LEVELS));
  for (const r of board.rows) {
    assert.equal(r.anchor, true);
    assert.equal(r.low, r.rating - 2 * r.deviation);
    assert.equal(r.high, r.rating + 2 * r.deviation);
  }
  assert.deepEqual(board.rows.map((/** @type {any} */ r) => r.rank), [1, 2, 3, 4]);

  // Desktop, English, reached from the lobby and from the leaderboards page.
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  await page.click('[data-testid=arena-link]:has-text("Bot arena")');
  await page.waitForSelector('h1:has-text("Bot arena")');
  await page.waitForSelector('[data-testid=arena-empty]:has-text("No arena matches rated yet.")');
  await checkAnchors(page, 'anchor');
  await assertFitsWindow(page, 'the arena page at 1366x768', { down: false });
  await assertContrast(page, 'the arena page (1366x768, English)');
  await page.screenshot({ path: shots('arena-desktop-en.png'), fullPage: true });
  await page.goto(`${base}/leaderboard.html`);
  await page.click('[data-testid=arena-link]:has-text("The bot arena")');
  await page.waitForSelector('h1:has-text("Bot arena")');
  await ctx.close();

  // A phone in Italian.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const p2 = await phone.newPage();
  p2.on('pageerror', (e) => errors.push(e.message));
  await p2.goto(`${base}/arena.html`);
  await p2.click('[data-testid=lang-it]');
  await p2.waitForSelector('h1:has-text("Arena dei bot")');
  await p2.waitForSelector('[data-testid=arena-empty]:has-text("Nessuna partita dell\'arena ancora valutata.")');
  await checkAnchors(p2, 'ancora');
  await assertFitsWindow(p2, 'the arena page at 390x844', { down: false });
  // A phone's layout viewport grows to what overflows it: held to the device's 390 px here, and
  // the board inside its panel.
  const wide = await p2.evaluate(() => {
    const panel = /** @type {Element} */ (document.querySelector('main .panel')).getBoundingClientRect();
    const shown = [...document.querySelectorAll('main .panel *')].filter((e) => e.getClientRects().length > 0);
    return { page: document.documentElement.scrollWidth, panel: panel.right, content: Math.max(...shown.map((e) => e.getBoundingClientRect().right)) };
  });
  assert.ok(wide.page <= 391 && wide.panel <= 391 && wide.content <= wide.panel, `the arena page fits 390 px: ${JSON.stringify(wide)}`);
  // Each level's name ("Bot (search)") on one line, not broken letter by letter in a squeezed column.
  const lines = await p2.$$eval('[data-testid=arena-row] .lb-names', (tds) => tds.map((td) => {
    const range = document.createRange();
    range.selectNodeContents(/** @type {Node} */ (td.firstChild));
    return [td.firstChild?.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
  }));
  assert.ok(lines.every(([, n]) => n === 1), `each level's name on one line: ${JSON.stringify(lines)}`);
  await assertContrast(p2, 'the arena page (390x844, Italian)');
  await p2.screenshot({ path: shots('arena-phone-it.png'), fullPage: true });
  // The leaderboards page and the lobby link here in Italian too.
  await p2.goto(`${base}/leaderboard.html`);
  await p2.click('[data-testid=arena-link]:has-text("L\'arena dei bot")');
  await p2.waitForSelector('h1:has-text("Arena dei bot")');
  await p2.goto(`${base}/`);
  await p2.waitForSelector('[data-testid=arena-link]:has-text("Arena dei bot")');
  await phone.close();
  client.stop();
  assert.deepEqual(errors, [], 'no page errors');
}
