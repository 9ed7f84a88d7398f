// Quick play just after other players closed their tabs (1366x768, English). A waiting table
// whose seated players are all gone is passed over: the newcomer gets a table of its own, and
// with nobody else present the "Play with bots now" offer comes. A table where someone is still
// connected is joined, and the ready check marks the seat of the one who left as gone, not
// "Not ready".
import assert from 'node:assert/strict';
import { login } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';
import { waitForSeats } from './lib/tables.mjs';

export const name = 'quick play passes over a deserted table; beside a player who is gone, the seat says so; bots are offered (1366x768)';

/** @param {import('playwright-core').Page} page */
async function quickPlay(page, players) {
  await page.selectOption('[data-field=preset] >> nth=0', 'feburit');
  await page.selectOption('[data-field=players] >> nth=0', String(players));
  await page.click('[data-testid=quick-play]');
  await page.waitForSelector('[data-testid=ready-check]');
  return page.evaluate(() => /** @type {any} */ (window).__burraco.table.table);
}

/** @param {any[]} seats */
const someoneLeft = (seats) => seats.some((s) => s.name && !s.connected);

export async function run({ browser, pageUrl, wsUrl }) {
  const errors = [];
  const newContext = () => browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });

  // Nina quick-plays a two-player FEBURIT table (nobody else's kind here), then closes her tab:
  // Vera is not seated beside nobody.
  const vera = await newContext();
  const page = await vera.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, pageUrl, 'Vera');
  const nina = new Bot(wsUrl, 'Nina');
  await nina.connect();
  const deserted = await nina.request('quick_play', { preset: 'feburit', players: 2 });
  nina.close();
  await waitForSeats(wsUrl, deserted.table, someoneLeft);
  assert.notEqual(await quickPlay(page, 2), deserted.table, 'quick play passed over the table Nina left');
  // Nobody present: the offer of server bots comes.
  await page.waitForSelector('[data-testid=bots-offer]', { timeout: 10000 });

  // Otto stays, Olga leaves a four-player table: Wanda joins Otto, and Olga's seat says she left.
  const wanda = await newContext();
  const second = await wanda.newPage();
  second.on('pageerror', (e) => errors.push(e.message));
  await login(second, pageUrl, 'Wanda');
  const otto = new Bot(wsUrl, 'Otto');
  const olga = new Bot(wsUrl, 'Olga');
  await otto.connect();
  await olga.connect();
  const shared = await otto.request('quick_play', { preset: 'feburit', players: 4 });
  await olga.request('quick_play', { preset: 'feburit', players: 4 });
  olga.close();
  await waitForSeats(wsUrl, shared.table, someoneLeft);
  assert.equal(await quickPlay(second, 4), shared.table, 'quick play seated Wanda beside Otto');
  // Within the seat's grace (3 s here): Olga's seat is marked gone.
  const gone = await second.waitForSelector('[data-testid=ready-gone]', { timeout: 2500 });
  assert.match(await gone.textContent(), /Gone \(offline\)/);
  otto.close();
  assert.equal(errors.length, 0, errors.join('\n'));
  await vera.close();
  await wanda.close();
}
