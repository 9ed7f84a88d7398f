// The socket is cut mid-hand at a table of server bots. A short cut: the page says it is
// reconnecting, resumes with its token, catches up with sync, and the hand goes on with the same
// cards. A cut longer than the grace period: a server bot stands in for the seat (a spectator's
// page shows it), and when the page is back the seat is the player's again (shown too); what the
// player's page shows matches a fresh spectator's snapshot.
import assert from 'node:assert/strict';
import { login, handOnScreen, waitMyTurnOrEnd, playTurn, isMyTurn, scoreShown, discardKey } from './lib/page.mjs';
import { personWithServerBots } from './lib/tables.mjs';
import { Bot } from './lib/bot.mjs';
import { until, sleep, GRACE_SECS } from './lib/harness.mjs';

export const name = 'a cut socket reconnects by itself; past the grace a bot stands in until the player is back';

export async function run({ browser, pageUrl, proxiedUrl, proxy, wsUrl, shots }) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await ctx.newPage();
  await login(page, proxiedUrl, 'Carlo');
  const { table } = await personWithServerBots(page, { level: 'greedy', hands: 2, visibility: 'public' });
  const seat = await page.evaluate(() => /** @type {any} */ (window).__burraco.table.you);

  // Someone watching the table, on a connection of their own (not through the proxy).
  const wctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const watcher = await wctx.newPage();
  /** @type {any[]} */
  const watched = [];
  watcher.on('websocket', (ws) => ws.on('framereceived', (f) => { if (typeof f.payload === 'string') watched.push(JSON.parse(f.payload)); }));
  await login(watcher, pageUrl, 'Elena');
  await watcher.waitForSelector(`[data-testid=table-row][data-table="${table}"]`);
  await watcher.click(`[data-testid=table-row][data-table="${table}"] [data-action=watch]`);
  await watcher.waitForSelector(`[data-testid=seat-${seat}] .seat-name:has-text("Carlo")`);

  assert.ok(await waitMyTurnOrEnd(page));
  await playTurn(page, { open: false });
  const handBefore = (await handOnScreen(page)).map((c) => c.code).sort();
  const token = await page.evaluate(() => sessionStorage.getItem('burraco.session'));
  assert.ok(token, 'the resume token is kept');

  // 1. A short cut (the door kept shut for a second, well within the grace): same seat, same cards.
  proxy.hold(1000);
  proxy.cut();
  await page.waitForSelector('[data-testid=conn-state]:has-text("Reconnecting")', { timeout: 5000 });
  await page.screenshot({ path: shots('reconnecting.png'), animations: 'disabled' });
  await page.waitForSelector('[data-testid=conn-state]:has-text("Online")', { timeout: 10000 });
  assert.equal(await page.evaluate(() => sessionStorage.getItem('burraco.session')), token, 'same session');
  assert.ok(await waitMyTurnOrEnd(page));
  await sleep(300);
  assert.deepEqual((await handOnScreen(page)).map((c) => c.code).sort(), handBefore, 'the hand survived the reconnect');
  assert.ok(!watched.some((f) => f.type === 'player_replaced_by_bot'), 'no bot stood in for a short cut');
  await playTurn(page, { open: false });

  // 2. Away past the grace period: a bot plays the seat; the watcher sees it marked as a stand-in.
  // The page retries after 0.3, 0.6, 1.2 and 2.4 s (plus jitter): its fourth try, 4.5 s after the
  // cut at the earliest, gets through; the seat's grace ran out 1.5 s before that.
  proxy.hold(GRACE_SECS * 1000 + 400);
  proxy.cut();
  await watcher.waitForSelector(`[data-testid=seat-warn-${seat}].stand-in`, { timeout: (GRACE_SECS + 3) * 1000 });
  assert.match(await watcher.textContent(`[data-testid=seat-warn-${seat}]`), /a bot plays for Carlo/);
  assert.ok(await watcher.$(`[data-testid=seat-${seat}] [data-testid=bot-badge]`), 'the seat has the bot badge');
  await watcher.screenshot({ path: shots('stand-in.png'), animations: 'disabled' });
  // ... and when the page is back, the seat is Carlo's again, on both pages.
  await page.waitForSelector('[data-testid=conn-state]:has-text("Online")', { timeout: 15000 });
  await watcher.waitForSelector(`[data-testid=seat-warn-${seat}]`, { state: 'detached', timeout: 5000 });
  assert.equal(await watcher.$(`[data-testid=seat-${seat}] [data-testid=bot-badge]`), null, 'no bot badge once Carlo is back');
  const kinds = watched.filter((f) => f.table === table && f.seat === seat).map((f) => f.type);
  const replaced = kinds.indexOf('player_replaced_by_bot');
  assert.ok(replaced >= 0 && kinds.indexOf('player_reconnected', replaced) > replaced, 'replaced, then reconnected: ' + kinds.join(' '));
  assert.equal(await page.$(`[data-testid=seat-${seat}] [data-testid=bot-badge]`), null);

  // What the page shows matches a fresh spectator's snapshot, taken on Carlo's turn (nothing
  // moves then). The stand-in may have been kicked after its draw: then Carlo only discards.
  await until(async () => (await isMyTurn(page)) || scoreShown(page), { timeout: 60000, what: "Carlo's turn" });
  const live = !(await scoreShown(page));
  await sleep(300);
  const spy = new Bot(wsUrl, 'Spy');
  await spy.connect();
  await spy.request('spectate', { table });
  await until(() => spy.frames.find((f) => f.type === 'snapshot'), { what: 'snapshot' });
  const snap = spy.frames.find((f) => f.type === 'snapshot').view;
  const mine = snap.seats.find((s) => s.name === 'Carlo');
  assert.equal(mine.bot, false, 'the seat is not a bot\'s');
  assert.equal(mine.connected, true);
  if (live) {
    assert.equal(Number(await page.textContent('[data-testid=tallone-count]')), snap.hand.tallone, 'tallone count');
    const pileOnScreen = await page.$$eval('[data-testid=pile] .card', (els) => els.map((e) => e.dataset.code));
    assert.deepEqual(pileOnScreen, snap.hand.pile, 'the whole discard pile');
    assert.equal((await handOnScreen(page)).length, mine.cards, 'card count');
    // And the hand goes on.
    if (await page.$('[data-testid=draw]:not([disabled])')) await playTurn(page, { open: false });
    else {
      const hand = await handOnScreen(page);
      await discardKey(page, hand[hand.length - 1].key);
    }
  }
  spy.close();
  await wctx.close();
  await ctx.close();
}
