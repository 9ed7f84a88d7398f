// A bot account and the server's bots at one table, watched: each seat's bot badge says which it
// is (protocol 1.6 `seat_identities`: a bot account is its author's program, a server bot the
// server's own), in English on a desktop and in Italian on a phone.
import assert from 'node:assert/strict';
import { login } from './lib/page.mjs';
import { until } from './lib/harness.mjs';
import { signUp } from './lib/disk-client.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'seat labels: a bot account told from the server\'s bots at the table (1366x768 English, 390x844 Italian)';

/** Each seat's bot badge title, by seat (at the ready check before the first deal, around the table after it). @param {import('playwright-core').Page} page */
async function badgeTitles(page) {
  return page.evaluate(() => Object.fromEntries(['N', 'E', 'S', 'W'].map((seat) => [seat,
    document.querySelector(`[data-testid=seat-${seat}] [data-testid=bot-badge], .ready-row[data-seat=${seat}] [data-testid=bot-badge]`)?.getAttribute('title') ?? null])));
}

export async function run({ browser, pageUrl, wsUrl }) {
  const base = `http://${new URL(wsUrl).host}`;
  const { token } = await signUp(base, 'RoboGina');
  const made = await fetch(`${base}/api/account/bot`, { method: 'POST', headers: { cookie: `burraco_session=${token}` } });
  assert.equal(made.status, 200, 'the account became a bot account');
  const robo = new Bot(wsUrl, 'RoboGina', { delay: 400, version: '1.6', headers: { cookie: `burraco_session=${token}` } });
  await robo.connect();
  const { table } = await robo.request('create_table', { settings: { preset: 'fitab', players: 4 }, private: false, bots: 'greedy' });
  // The server's bots sit just after the table is made: asked until all four seats are held.
  const ids = await until(async () => {
    const r = await robo.request('seat_identities', { table });
    return r.seats.length === 4 ? r : null;
  }, { timeout: 5000, what: 'four seats held' });
  const own = ids.seats.find((/** @type {any} */ s) => s.kind === 'bot');
  assert.ok(own, `the bot account's seat: ${JSON.stringify(ids.seats)}`);
  assert.equal(own.account?.startsWith('u-'), true, 'a bot account names its account');
  assert.equal(ids.seats.filter((/** @type {any} */ s) => s.kind === 'server_bot' && /^L[0-3]$/.test(s.server_bot)).length, 3, 'three server bots, each with its level');

  for (const [viewport, locale, account, server] of /** @type {const} */ ([
    [{ width: 1366, height: 768 }, 'en-US', 'a bot account', 'a bot of the server'],
    [{ width: 390, height: 844 }, 'it-IT', 'un account bot', 'un bot del server']])) {
    const ctx = await browser.newContext({ viewport, locale });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await login(page, pageUrl, locale === 'en-US' ? 'Wanda' : 'Vera');
    await page.waitForSelector(`[data-testid=table-row][data-table="${table}"]`);
    await page.click(`[data-testid=table-row][data-table="${table}"] [data-action=watch]`);
    await page.waitForSelector('[data-testid=spectating]');
    const titles = await until(async () => {
      const t = await badgeTitles(page);
      return t[own.seat] === account ? t : null;
    }, { timeout: 10000, what: `the bot account's badge at ${own.seat}` });
    for (const s of ['N', 'E', 'S', 'W'].filter((x) => x !== own.seat)) assert.equal(titles[s], server, `seat ${s} is the server's bot`);
    assert.equal(errors.length, 0, errors.join('\n'));
    await ctx.close();
  }
  robo.close();
}
