// Quick play brings people together (1.9 `quick_play_moved`, 1280x860, English). Gino's table of
// a kind is passed over while he is gone, so Irene's quick play opens another; Gino comes back
// within the grace, and the two waiting tables are brought together: Irene's page joins the seat
// held for her at Gino's (older) table, shows it and says so, and the match starts there.
import assert from 'node:assert/strict';
import { login } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';
import { waitForSeats } from './lib/tables.mjs';

export const name = 'quick play moves a waiting player to the table of the kind whose player came back (1.9)';

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const errors = [];
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, pageUrl, 'Irene');

  // Gino (a 1.9 client) quick-plays two-player FEDIBUR (nobody else's kind here), then goes.
  const gino = new Bot(wsUrl, 'Gino', { version: '1.9' });
  await gino.connect();
  const first = await gino.request('quick_play', { preset: 'fedibur', players: 2 });
  gino.close();
  await waitForSeats(wsUrl, first.table, (seats) => seats.some((s) => s.name && !s.connected));
  await page.selectOption('[data-field=preset] >> nth=0', 'fedibur');
  await page.selectOption('[data-field=players] >> nth=0', '2');
  await page.click('[data-testid=quick-play]');
  await page.waitForSelector('[data-testid=ready-check]');
  const second = await page.evaluate(() => /** @type {any} */ (window).__burraco.table.table);
  assert.notEqual(second, first.table, 'quick play passed over the table Gino left');

  // Gino is back (within the grace): the newer table's player goes to the older table.
  await gino.connect({ resume: true });
  await page.waitForFunction((t) => /** @type {any} */ (window).__burraco.table?.table === t, first.table, { timeout: 10000 });
  await page.waitForSelector(`[data-testid=message]:has-text("you now sit at table ${first.table}")`);
  await page.waitForFunction(() => {
    const st = /** @type {any} */ (window).__burraco.table;
    return st?.you && st.seats.some((/** @type {any} */ s) => s.name === 'Gino' && s.connected) && st.seats.some((/** @type {any} */ s) => s.seat === st.you && s.name === 'Irene');
  }, undefined, { timeout: 10000 });
  await page.waitForSelector('[data-testid=ready-check]');
  await page.screenshot({ path: shots('quick-play-moved.png'), animations: 'disabled' });
  assert.ok(!gino.frames.some((f) => f.type === 'quick_play_moved'), 'the older table\'s player stays');

  // Both ready: the match starts at Gino's table.
  await gino.request('ready', { table: first.table });
  await page.click('[data-testid=ready]');
  await page.waitForSelector('[data-testid=hand-card]', { timeout: 15000 });
  assert.deepEqual(errors, []);
  gino.close();
  await ctx.close();
}
