// A newcomer on a server where nobody plays: on a phone, following only what the page shows
// (name, Quick play, the offer to play with bots, I'm ready, Draw), makes a first move within
// 30 seconds. Then the phone table: it fits the window, the melds are not under the hand, cards
// are big enough to tap, seats run clockwise. Played on until each side has three melds, the
// whole table still fits the window with nothing scrolling; the hand is arranged by touch (a tap
// still selects) and keeps its order. Leaving mid-hand asks first; the lobby's refresh keeps the
// caret in the invite field.
import assert from 'node:assert/strict';
import { until, sleep } from './lib/harness.mjs';
import { handOnScreen, discardKey, waitMyTurnOrEnd, openMeld, scoreShown, cardTravels } from './lib/page.mjs';
import { assertFitsWindow, assertOurMeldsVisible, assertHandTappable, assertClockwise, tableCounts } from './lib/layout.mjs';
import { isWildish, normaKey } from '../js/cards.js';

export const name = 'a newcomer makes a first move within 30 s on an empty server (phone); phone layout, leave, lobby caret';

/** A finger drags from `from` to `to` (touch events, as a phone's screen sends them). */
async function touchDrag(page, from, to) {
  const cdp = await page.context().newCDPSession(page);
  const at = (t) => [{ x: Math.round(from.x + (to.x - from.x) * t), y: Math.round(from.y + (to.y - from.y) * t) }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
  for (let i = 1; i <= 10; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i / 10) });
    await sleep(16);
  }
  // The finger rests on the spot before it lifts, as when one places a card: lifted while still
  // moving, the browser would take it for a fling and spend the next tap on stopping it.
  for (let i = 0; i < 4; i++) {
    await sleep(50);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(1) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

export async function run({ browser, pageUrl, shots }) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const t0 = Date.now();
  await page.goto(pageUrl);
  await page.fill('[data-testid=name-input]', 'Nina');
  await page.click('[data-testid=enter]');
  await page.waitForSelector('[data-testid=quick-play]');
  await page.waitForSelector('[data-testid=conn-state]:has-text("Online")');
  await assertFitsWindow(page, 'the lobby on a phone', { down: false });
  await page.click('[data-testid=quick-play]');
  await page.waitForSelector('[data-testid=ready-check]');
  // Nobody comes: the page offers server bots.
  await page.click('[data-testid=play-bots]', { timeout: 10000 });
  await until(async () => (await page.$$eval('.ready-row [data-testid=bot-badge]', (e) => e.length)) === 3, { timeout: 10000, what: 'three bots' });
  assert.match(await page.textContent('[data-testid=ready-settings]'), /relaxed/, 'a casual table with bots has relaxed clocks');
  await page.click('[data-testid=ready]');
  await page.waitForSelector('[data-testid=hand-card]');
  await page.waitForSelector('[data-testid=draw]:not([disabled])', { timeout: 25000 });
  const n = (await handOnScreen(page)).length;
  await page.click('[data-testid=draw]');
  await until(async () => (await handOnScreen(page)).length === n + 1, { what: 'the drawn card' });
  const secs = (Date.now() - t0) / 1000;
  assert.ok(secs < 30, `first move after ${secs.toFixed(1)} s`);
  console.log(`     newcomer's first move after ${secs.toFixed(1)} s`);

  // The phone table.
  assert.ok(await page.$('[data-testid=hand-card].drawn'), 'the drawn card is marked');
  await assertFitsWindow(page, 'the table on a phone');
  await assertHandTappable(page, 36);
  await assertOurMeldsVisible(page);
  await assertClockwise(page);
  const hand = await handOnScreen(page);
  const naturals = hand.filter((c) => !isWildish(c.code));
  const pick = [...(naturals.length ? naturals : hand)].sort((a, b) => normaKey(b.code) - normaKey(a.code))[0];
  await discardKey(page, pick.key);

  // The how-to-play page, and the sound switch.
  await page.click('[data-testid=how-to]');
  assert.match(await page.textContent('[data-testid=how-to-page]'), /clockwise/);
  await page.click('[data-action=overlay-close]');
  await page.click('[data-testid=mute]');
  await page.waitForSelector('[data-testid=mute][aria-pressed=true]');
  await page.click('[data-testid=mute]');
  await page.waitForSelector('[data-testid=mute][aria-pressed=false]');

  // Mid-hand: each side with three melds or more, a hand of 11-14 cards. The person draws and
  // discards; while the side has fewer than three melds it picks up a pile of two to eight cards
  // and opens melds from it, holding 11 or more after the discard. A hand that ends first (the
  // bots close fast) is followed by the match's second one.
  let counts;
  for (let turn = 0; ; turn++) {
    assert.ok(turn < 60, `still not three melds a side after ${turn} turns: ${JSON.stringify(counts)}`);
    if (!(await waitMyTurnOrEnd(page))) {
      assert.ok(await page.$('[data-testid=next-hand-ready]'), `the match ended before each side had three melds: ${JSON.stringify(counts)}`);
      await page.click('[data-testid=next-hand-ready]');
      await page.waitForSelector('[data-testid=score-dialog]', { state: 'detached', timeout: 15000 });
      continue;
    }
    counts = await tableCounts(page);
    const pile = await page.$$eval('[data-testid=pile] .card', (e) => e.length);
    // The cards taken travel into the hand: the pile's from the pile, a drawn one from the tallone.
    if (counts.ours < 3 && pile >= 2 && pile <= 8) {
      const travels = cardTravels(page, '[data-testid=hand-card]');
      await page.tap('[data-testid=pick-up]');
      await until(async () => (await tableCounts(page)).hand === counts.hand + pile, { what: 'the picked-up pile' });
      await travels;
    } else {
      const travels = cardTravels(page, '[data-testid=hand-card].drawn');
      travels.catch(() => {});
      await page.tap('[data-testid=draw]');
      await until(async () => (await tableCounts(page)).hand === counts.hand + 1 || scoreShown(page), { what: 'the drawn card' });
      if (await scoreShown(page)) continue;
      await travels;
    }
    const more = async () => { const c = await tableCounts(page); return c.hand >= 15 || (c.ours < 3 && c.hand >= 14); };
    while (await more() && await openMeld(page, { motion: true })) { /* the next: each travels to the table */ }
    counts = await tableCounts(page);
    if (counts.ours >= 3 && counts.their >= 3 && counts.hand >= 11 && counts.hand <= 14) break;
    const hand = await handOnScreen(page);
    const naturals = hand.filter((c) => !isWildish(c.code));
    await discardKey(page, [...(naturals.length ? naturals : hand)].sort((x, y) => normaKey(y.code) - normaKey(x.code))[0].key);
  }
  counts = await tableCounts(page);
  assert.ok(counts.hand >= 11 && counts.hand <= 14, `a mid-hand hand: ${counts.hand} cards`);
  console.log(`     the phone table mid-hand: ${counts.ours} melds ours, ${counts.their} theirs, ${counts.hand} cards in hand`);
  // Everything on one screen: no page scroll, no felt scroll, every meld, the pile and the hand in the window.
  await assertFitsWindow(page, `the phone table mid-hand (${JSON.stringify(counts)})`);
  await assertHandTappable(page, 36);
  await assertOurMeldsVisible(page);
  await page.screenshot({ path: shots('table-phone.png'), animations: 'disabled' });
  // The log and chat open over the table and fold away again.
  await page.tap('[data-testid=side-toggle]');
  await page.waitForSelector('[data-testid=side-panel] .log', { state: 'visible' });
  const [toggleBox, panelBox] = [await (await page.$('[data-testid=side-toggle]')).boundingBox(), await (await page.$('[data-testid=side-panel]')).boundingBox()];
  assert.ok(panelBox.y >= toggleBox.y + toggleBox.height, `the open panel (top ${panelBox.y}) leaves its toggle (bottom ${toggleBox.y + toggleBox.height}) free`);
  await page.tap('[data-testid=side-toggle]');
  await page.waitForSelector('[data-testid=side-panel]', { state: 'hidden' });

  // Arranging the hand by touch: a tap selects, a drag moves the last card onto the first.
  const shown = await handOnScreen(page);
  const first = shown[0], last = shown[shown.length - 1];
  await page.tap(`[data-testid=hand-card][data-key="${first.key}"]`);
  await page.waitForSelector(`[data-testid=hand-card][data-key="${first.key}"][aria-pressed=true]`);
  await page.tap(`[data-testid=hand-card][data-key="${first.key}"]`);
  await page.waitForSelector(`[data-testid=hand-card][data-key="${first.key}"][aria-pressed=false]`);
  const box = async (key) => page.$eval(`[data-testid=hand-card][data-key="${key}"]`, (e) => e.getBoundingClientRect().toJSON());
  const [a, b] = [await box(last.key), await box(first.key)];
  await touchDrag(page, { x: a.left + a.width / 2, y: a.top + a.height / 2 }, { x: b.left + 12, y: b.top + b.height / 2 });
  const arranged = [last.code, ...shown.slice(0, -1).map((c) => c.code)];
  await until(async () => (await handOnScreen(page))[0].code === last.code, { timeout: 5000, what: 'the card moved first by touch' });
  assert.deepEqual((await handOnScreen(page)).map((c) => c.code), arranged, 'the hand in its new order');
  assert.equal(await page.$$eval('[data-testid=hand-card][aria-pressed=true]', (e) => e.length), 0, 'the drag selected nothing');
  // The order stays through later renders: a selection, then the discard of a card (the rest keeps its order).
  const keep = shown.find((c) => c.key !== last.key && !isWildish(c.code)) ?? shown[1];
  await page.tap(`[data-testid=hand-card][data-key="${keep.key}"]`);
  await page.waitForSelector(`[data-testid=hand-card][data-key="${keep.key}"][aria-pressed=true]`);
  assert.deepEqual((await handOnScreen(page)).map((c) => c.code), arranged, 'the order after a re-render');
  // Leaving mid-hand asks first, and says a bot takes the seat for good (asked on this player's
  // turn: the hand is surely still on). The hand keeps its order under the dialog too.
  await page.click('[data-testid=leave]');
  await page.waitForSelector('[data-testid=leave-dialog]');
  assert.match(await page.textContent('[data-testid=leave-dialog]'), /bot/i);
  await page.click('[data-testid=leave-cancel]');
  await page.waitForSelector('[data-testid=leave-dialog]', { state: 'detached' });
  assert.ok(await page.$('[data-testid=hand]'), 'still at the table');
  assert.deepEqual((await handOnScreen(page)).map((c) => c.code), arranged, 'the order after the leave dialog');
  await page.tap('[data-testid=discard]');
  await until(async () => (await handOnScreen(page)).length === arranged.length - 1, { what: 'the discard' });
  const rest = [...arranged];
  rest.splice(rest.indexOf(keep.code), 1);
  assert.deepEqual((await handOnScreen(page)).map((c) => c.code), rest, 'the order after the discard');


  // Leaving asks first mid-match (the hand may have ended since the discard: then from the score screen).
  if (await scoreShown(page)) await page.click('[data-action=overlay-close]');
  await page.click('[data-testid=leave]');
  await page.click('[data-testid=leave-confirm]');
  await page.waitForSelector('[data-testid=quick-play]');

  // The lobby refreshes every 5 s: what is typed stays in order.
  await page.click('[data-testid=invite-input]');
  await page.keyboard.type('AB');
  // The lobby's reply: `lobby` (1.5, with levels), `tables` from an older server.
  const frames = () => page.evaluate(() => /** @type {any} */ (window).__burraco.conn.frames.filter((f) => f.includes('"type":"lobby"') || f.includes('"type":"tables"')).length);
  const before = await frames();
  await until(async () => (await frames()) > before, { timeout: 8000, what: 'a lobby refresh' });
  await page.keyboard.type('CD');
  assert.equal(await page.inputValue('[data-testid=invite-input]'), 'ABCD');
  // Typing done: the field lets go of the focus, so nothing keeps it in view for the screenshot.
  await page.evaluate(() => { /** @type {HTMLElement|null} */ (document.activeElement)?.blur(); window.scrollTo(0, 0); });
  await page.waitForFunction(() => window.scrollY === 0);
  await page.screenshot({ path: shots('lobby-phone.png') });
  assert.deepEqual(errors, [], 'no page errors');
  await ctx.close();
}
