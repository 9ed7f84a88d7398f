// The socket is cut mid-hand: the page says it is reconnecting, resumes with its token, catches
// up with sync, and the hand goes on; what it shows matches a fresh spectator's snapshot.
import assert from 'node:assert/strict';
import { login, handOnScreen, waitMyTurnOrEnd, playTurn } from './lib/page.mjs';
import { personWithBots } from './lib/tables.mjs';
import { Bot } from './lib/bot.mjs';
import { until, sleep } from './lib/harness.mjs';

export const name = 'a cut socket reconnects by itself and resumes the hand';

export async function run({ browser, proxiedUrl, proxy, wsUrl, shots }) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await ctx.newPage();
  await login(page, proxiedUrl, 'Carlo');
  const { bots, table } = await personWithBots(page, wsUrl, { delay: 80 });
  assert.ok(await waitMyTurnOrEnd(page));
  await playTurn(page, { open: false });
  const handBefore = (await handOnScreen(page)).map((c) => c.code).sort();
  const token = await page.evaluate(() => sessionStorage.getItem('burraco.session'));
  assert.ok(token, 'the resume token is kept');

  // Cut the connection and keep the door shut for a moment: the bots play on meanwhile.
  proxy.hold(2500);
  proxy.cut();
  await page.waitForSelector('[data-testid=conn-state]:has-text("Reconnecting")', { timeout: 5000 });
  await page.screenshot({ path: shots('reconnecting.png') });
  await page.waitForSelector('[data-testid=conn-state]:has-text("Online")', { timeout: 20000 });
  assert.equal(await page.evaluate(() => sessionStorage.getItem('burraco.session')), token, 'same session');

  // Back on turn with the same cards (the others played while we were away).
  assert.ok(await waitMyTurnOrEnd(page));
  await sleep(300);
  assert.deepEqual((await handOnScreen(page)).map((c) => c.code).sort(), handBefore, 'the hand survived the reconnect');
  const spy = new Bot(wsUrl, 'Spy');
  await spy.connect();
  await spy.request('spectate', { table });
  await until(() => spy.frames.find((f) => f.type === 'snapshot'), { what: 'snapshot' });
  const snap = spy.frames.find((f) => f.type === 'snapshot').view;
  assert.equal(Number(await page.textContent('[data-testid=tallone-count]')), snap.hand.tallone, 'tallone count');
  const pileOnScreen = await page.$$eval('[data-testid=pile] .card', (els) => els.map((e) => e.dataset.code));
  assert.deepEqual(pileOnScreen, snap.hand.pile, 'the whole discard pile');
  const mine = snap.seats.find((s) => s.name === 'Carlo');
  assert.equal((await handOnScreen(page)).length, mine.cards, 'card count');
  assert.equal(mine.connected, true);

  // And the hand goes on.
  await playTurn(page, { open: false });
  spy.close();
  for (const b of bots) b.close();
  await ctx.close();
}
