// Addresses (1366x768, English): the app's views have addresses that Back, reload and a shared
// link respect. At a table in play Back does not leave the app (it asked nothing and left the
// move clock running): it asks first and the table stays. The tournament page opened over one's
// own table has "Back to my table", and Back goes there too. A tournament's page: its address
// survives a reload, Back goes to the Tournaments tab and Forward returns; the link opened
// elsewhere shows the page; a table's link opened elsewhere watches the table.
import assert from 'node:assert/strict';
import { until } from './lib/harness.mjs';
import { login } from './lib/page.mjs';
import { personWithServerBots } from './lib/tables.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'addresses: Back, reload and shared links for a table and a tournament (1366x768)';

export async function run({ browser, pageUrl, wsUrl }) {
  const errors = [];
  const ezio = new Bot(wsUrl, 'Ezio', { version: '1.3' });
  await ezio.connect();
  const cup = await ezio.request('create_tournament', { settings: { name: 'Address cup', kind: 'pairs', rounds: ['mitchell'], hands: 1, preset: 'fitab',
    max_entrants: null, seating: 'registration', start_when_full: false, clocks: null, duplicate: false } });

  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, pageUrl, 'Remo');
  const { table } = await personWithServerBots(page, { level: 'expert', visibility: 'public' });
  await until(() => page.evaluate((id) => location.hash === `#table/${id}`, table), { timeout: 3000, what: 'the table\'s address' });

  // Back at a match in play: asked first, still at the table, still its address.
  await page.goBack();
  await page.waitForSelector('[data-testid=leave-dialog]');
  assert.ok(await page.$('[data-testid=hand-card]'), 'still at the table');
  await until(() => page.evaluate((id) => location.hash === `#table/${id}`, table), { timeout: 3000, what: 'the table\'s address again' });
  await page.click('[data-testid=leave-cancel]');

  // The tournament page over the table (as a director who plays opens it): "Back to my table".
  await page.evaluate((id) => { location.hash = `#tournament/${id}`; }, cup.tournament);
  await page.waitForSelector('[data-testid=tournament-page]');
  await page.click('[data-testid=back-to-table]');
  await page.waitForSelector('[data-testid=hand-card]');
  assert.equal(await page.$('[data-testid=tournament-page]'), null);
  // And Back from the tournament page goes to the table too.
  await page.evaluate((id) => { location.hash = `#tournament/${id}`; }, cup.tournament);
  await page.waitForSelector('[data-testid=tournament-page]');
  await page.goBack();
  await page.waitForSelector('[data-testid=hand-card]');

  // A table's link opened in another browser: it watches the table.
  const ctx2 = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  const other = await ctx2.newPage();
  other.on('pageerror', (e) => errors.push(e.message));
  await other.goto(`${pageUrl}#table/${table}`);
  await other.fill('[data-testid=name-input]', 'Lia');
  await other.click('[data-testid=enter]');
  await other.waitForSelector('[data-testid=seat-N]', { timeout: 10000 });
  assert.equal(await other.evaluate(() => /** @type {any} */ (window).__burraco.spectating), true, 'the link watches the table');

  // A tournament's link: the page; reload keeps it; Back is the Tournaments tab, Forward the page.
  await other.evaluate(() => { /** @type {any} */ (window).__burraco.leaveTable(); });
  await other.goto(`${pageUrl}#tournament/${cup.tournament}`);
  await other.waitForSelector(`[data-testid=tournament-page][data-tournament="${cup.tournament}"]`);
  await other.reload();
  await other.waitForSelector(`[data-testid=tournament-page][data-tournament="${cup.tournament}"]`);
  await other.click('[data-testid=all-tournaments]');
  await other.waitForSelector('[data-testid=create-tournament-form]');
  assert.equal(await other.evaluate(() => location.hash), '#tournaments');
  await other.goBack();
  await other.waitForSelector(`[data-testid=tournament-page][data-tournament="${cup.tournament}"]`);
  await other.goBack();
  await other.waitForSelector('[data-testid=create-tournament-form], [data-testid=tables], .lobby', { timeout: 5000 });
  assert.equal(await other.$('[data-testid=tournament-page]'), null);
  await other.goForward();
  await other.waitForSelector(`[data-testid=tournament-page][data-tournament="${cup.tournament}"]`);
  ezio.close();
  assert.equal(errors.length, 0, errors.join('\n'));
  await ctx2.close();
  await ctx.close();
}
