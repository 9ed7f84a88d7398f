// Quick play just after another player closed their tab (1366x768, English): the newcomer is
// seated at that player's waiting table (the seat is kept for the grace), and the ready check
// marks the seat as gone, not "Not ready"; with nobody else present the "Play with bots now"
// offer comes all the same.
import assert from 'node:assert/strict';
import { login } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'quick play beside a player who is gone: the seat says so, bots are offered (1366x768)';

export async function run({ browser, pageUrl, wsUrl }) {
  const errors = [];
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, pageUrl, 'Vera');
  // Nina quick-plays a two-player FEBURIT table (nobody else's kind here), then closes her tab.
  const nina = new Bot(wsUrl, 'Nina');
  await nina.connect();
  const seated = await nina.request('quick_play', { preset: 'feburit', players: 2 });
  nina.close();
  await page.selectOption('[data-field=preset] >> nth=0', 'feburit');
  await page.selectOption('[data-field=players] >> nth=0', '2');
  await page.click('[data-testid=quick-play]');
  await page.waitForSelector('[data-testid=ready-check]');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).__burraco.table.table), seated.table, 'quick play seated Vera at Nina\'s table');
  // Within the seat's grace (3 s here): Nina's seat is marked gone.
  const gone = await page.waitForSelector('[data-testid=ready-gone]', { timeout: 2500 });
  assert.match(await gone.textContent(), /Gone \(offline\)/);
  // Nobody present: the offer of server bots comes.
  await page.waitForSelector('[data-testid=bots-offer]', { timeout: 10000 });
  assert.equal(errors.length, 0, errors.join('\n'));
  await ctx.close();
}
