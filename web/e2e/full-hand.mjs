// A person's full hand against three server bots, through the page only: the lobby, a private
// one-hand table created with "Empty seats: Bots: expert", the ready check, draw/open/discard every
// turn by clicks, an illegal move refused and shown (nothing changes), the score screen, verify the
// shuffle, the replay. Saves the screenshots.
import assert from 'node:assert/strict';
import { Bot } from './lib/bot.mjs';
import { until, sleep } from './lib/harness.mjs';
import { login, handOnScreen, playTurn, waitMyTurnOrEnd, meldCount, selectCards, discardKey, scoreShown, clearSelection, cardTravels } from './lib/page.mjs';
import { personWithServerBots } from './lib/tables.mjs';
import { assertFitsWindow, assertOurMeldsVisible, assertClockwise } from './lib/layout.mjs';
import { isMeld } from '../js/cards.js';

export const name = 'a person plays a full hand against server bots';

export async function run({ browser, pageUrl, wsUrl, shots }) {
  // Some other tables in the lobby, so it looks like a lobby: two waiting for people, one whose
  // empty seats the server filled with its bots.
  const others = [];
  for (const [who, preset, players, bots] of [['Bruno', 'feburit', 4, null], ['Carla', 'fitab', 2, null], ['Dario', 'fitab', 4, 'greedy']]) {
    const b = new Bot(wsUrl, who);
    await b.connect();
    const r = await b.request('create_table', { settings: { preset, players }, private: false, bots });
    b.table = r.table;
    others.push(b);
  }

  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, pageUrl, 'Anna');
  await page.waitForSelector('[data-testid=table-row]');
  // Dario's table lists its three server bots as bots.
  await page.waitForSelector(`[data-testid=table-row][data-table="${others[2].table}"]`);
  assert.equal(await page.$$eval(`[data-testid=table-row][data-table="${others[2].table}"] [data-testid=bot-seat]`, (e) => e.length), 3, 'bot seats marked in the lobby');
  assert.equal(await page.$$eval(`[data-testid=table-row][data-table="${others[0].table}"] [data-testid=bot-seat]`, (e) => e.length), 0, 'no bot at a table of people');
  await sleep(200);
  await page.screenshot({ path: shots('lobby.png') });

  // A private one-hand table; the form's "Empty seats" puts expert server bots in the other three.
  const { invite } = await personWithServerBots(page, {
    level: 'expert',
    onReadyCheck: async () => {
      const names = await page.$$eval('.ready-row .grow', (els) => els.map((e) => e.textContent.trim()));
      assert.equal(names.filter((n) => /^Bot \(expert\)/.test(n)).length, 3, 'three expert bots: ' + names.join(' | '));
      await page.screenshot({ path: shots('ready-check.png') });
    },
  });
  assert.match(invite, /^[0-9A-F]{8}$/);
  assert.equal((await handOnScreen(page)).length, 11, 'eleven cards dealt');
  assert.equal(await page.$$eval('.seat [data-testid=bot-badge]', (e) => e.length), 3, 'three bot seats at the table');

  let turns = 0;
  let illegalDone = false;
  let shotMid = false;
  let meldTravelled = false;
  while (await waitMyTurnOrEnd(page)) {
    turns++;
    if (!illegalDone) {
      // Draw, then try to open three cards that are not a meld: refused, shown, nothing moves.
      const before = (await handOnScreen(page)).length;
      await page.click('[data-testid=draw]');
      await until(async () => (await handOnScreen(page)).length === before + 1, { what: 'drawn card' });
      const hand = await handOnScreen(page);
      let bad = null;
      for (let i = 0; i < hand.length && !bad; i++) for (let j = i + 1; j < hand.length && !bad; j++) for (let k = j + 1; k < hand.length && !bad; k++) {
        if (!isMeld([hand[i].code, hand[j].code, hand[k].code])) bad = [hand[i], hand[j], hand[k]];
      }
      const melds = await meldCount(page);
      // A grey "Open" says why beside it: too few cards, then cards that are no meld.
      await selectCards(page, bad.slice(0, 2).map((c) => c.key));
      assert.match(await page.textContent('[data-testid=open-why]'), /To open a meld, select at least 3 cards \(2 selected\)/);
      await selectCards(page, bad.slice(2).map((c) => c.key));
      // "Open" lights up only for a meld (a hint); the keyboard's O still asks the server, which refuses.
      assert.ok(await page.$('[data-testid=open][disabled]'), 'Open is disabled for three cards that are no meld');
      assert.match(await page.textContent('[data-testid=open-why]'), /Not a meld: 3 or more cards of one rank, or a run of one suit/);
      assert.equal(await page.getAttribute('[data-testid=open]', 'aria-describedby'), 'open-why', 'the reason is the button\'s description');
      await page.keyboard.press('o');
      const msg = await page.waitForSelector('[data-testid=message]');
      const text = await msg.textContent();
      assert.match(text, /Not allowed/);
      assert.deepEqual(await handOnScreen(page), hand, 'the refused meld left the hand as it was');
      assert.equal(await meldCount(page), melds, 'no meld appeared');
      assert.equal(await page.$$eval('[data-testid=hand-card][aria-pressed=true]', (e) => e.length), 3, 'the selection is kept');
      // The refusal is not over the cards, and says no file names.
      const [toast, handBox] = await Promise.all([page.$eval('[data-testid=message]', (e) => e.getBoundingClientRect().toJSON()),
        page.$eval('[data-testid=hand]', (e) => e.getBoundingClientRect().toJSON())]);
      assert.ok(toast.bottom <= handBox.top || toast.top >= handBox.bottom, 'the refusal does not cover the hand');
      assert.doesNotMatch(text, /RULES|REGOLE|\.md|art\./, text);
      await page.screenshot({ path: shots('illegal-move.png'), animations: 'disabled' });
      await page.click('[data-action=dismiss]');
      // finish the turn: discard a card
      const h2 = await handOnScreen(page);
      await discardKey(page, h2[h2.length - 1].key);
      illegalDone = true;
      continue;
    }
    if (!shotMid) {
      const n0 = (await handOnScreen(page)).length;
      // The drawn card travels from the tallone into the hand.
      const drawnTravels = cardTravels(page, '[data-testid=hand-card].drawn');
      await page.click('[data-testid=draw]');
      await until(async () => (await handOnScreen(page)).length === n0 + 1, { what: 'drawn card' });
      await drawnTravels;
      await sleep(150);
      // Select a playable card for the picture, if any.
      const playable = await page.$$eval('[data-testid=hand-card].playable', (els) => els.map((e) => e.dataset.key));
      if (playable.length) await selectCards(page, playable.slice(0, Math.min(3, playable.length)));
      // The table fits a 1366x768 window; the hand panel does not cover the side's melds; play runs clockwise.
      await assertFitsWindow(page, 'the table at 1366x768');
      await assertOurMeldsVisible(page);
      await assertClockwise(page);
      await page.screenshot({ path: shots('table-mid-hand.png'), animations: 'disabled' });
      shotMid = true;
      // Arrange the hand by dragging: the last card dropped on the first goes first, and stays there after a reload.
      const before = await handOnScreen(page);
      const last = before[before.length - 1];
      await clearSelection(page);
      await page.dragAndDrop(`[data-testid=hand-card][data-key="${last.key}"]`, `[data-testid=hand-card][data-key="${before[0].key}"]`);
      await until(async () => (await handOnScreen(page))[0].code === last.code, { timeout: 5000, what: 'the card moved first' });
      const arranged = (await handOnScreen(page)).map((c) => c.code);
      await page.reload();
      await page.waitForSelector('[data-testid=hand-card]');
      await until(async () => (await handOnScreen(page)).length === arranged.length, { what: 'the hand after the reload' });
      assert.deepEqual((await handOnScreen(page)).map((c) => c.code), arranged, 'the arranged order is kept');
      // From the keyboard: Shift+ArrowRight moves the focused first card one place right.
      await page.focus(`[data-testid=hand-card][data-key="${(await handOnScreen(page))[0].key}"]`);
      await page.keyboard.press('Shift+ArrowRight');
      const swapped = [arranged[1], arranged[0], ...arranged.slice(2)];
      await until(async () => (await handOnScreen(page)).map((c) => c.code).join() === swapped.join(), { timeout: 5000, what: 'the card moved by Shift+ArrowRight' });
      // Discard by dragging the card onto the pile ("drag where it helps").
      const hand = await handOnScreen(page);
      const dragged = hand.find((c) => !c.code.startsWith('2') && c.code !== 'JK') ?? hand[0];
      // The discard travels from the hand to the pile.
      const discardTravels = cardTravels(page, '[data-testid=pile] .card.top');
      discardTravels.catch(() => {});
      await page.dragAndDrop(`[data-testid=hand-card][data-key="${dragged.key}"]`, '[data-testid=pile]');
      await until(async () => (await handOnScreen(page)).length === hand.length - 1 || scoreShown(page), { what: 'the dragged discard' });
      if (!(await scoreShown(page))) {
        const copies = (cards) => cards.filter((c) => c.code === dragged.code).length;
        assert.equal(copies(await handOnScreen(page)), copies(hand) - 1, 'the dragged card left the hand');
        await discardTravels;
      }
      continue;
    }
    // The first meld the person opens travels from the hand to the table.
    if (await playTurn(page, { motion: !meldTravelled })) meldTravelled = true;
  }
  // The person's second turn is the mid-hand one; an expert side can close the hand before a
  // third, so the test asks for no more than that.
  assert.ok(shotMid, `the mid-hand checks ran (the person played ${turns} turns)`);
  console.log(`     the person played ${turns} turns`);
  console.log(`     ${meldTravelled ? 'a meld the person opened was seen travelling to the table' : 'the person opened no meld this hand'}`);

  // The score screen.
  await page.waitForSelector('[data-testid=score-table]');
  await page.waitForSelector('[data-testid=match-over]', { timeout: 10000 });
  await sleep(300);
  await page.screenshot({ path: shots('score.png'), fullPage: false });
  await page.click('[data-testid=verify]');
  const verdict = await page.waitForSelector('[data-testid=verify-verdict]');
  assert.match(await verdict.getAttribute('class'), /ok/, await page.textContent('[data-testid=verify-result]'));
  const checks = await page.$$eval('[data-testid=verify-result] li', (els) => els.map((e) => e.textContent));
  assert.ok(checks.length >= 4, 'commitment, up card, own hand and replay checked: ' + checks.join(' | '));
  await page.$eval('[data-testid=verify]', (e) => e.scrollIntoView());
  await page.screenshot({ path: shots('verify-shuffle.png') });
  await page.click('[data-testid=replay]');
  await page.waitForSelector('[data-testid=replay-dialog]');
  for (let i = 0; i < 6; i++) await page.click('[data-testid=replay-next]');
  assert.ok((await page.textContent('[data-testid=replay-desc]')).length > 3);
  await page.screenshot({ path: shots('replay.png') });

  // The table log: every entry kept (it scrolls), melds named, the hand's end logged, seats said plainly.
  await page.click('[data-action=overlay-close]');
  const log = await page.$$eval('.log li', (els) => els.map((e) => e.textContent.trim()));
  assert.ok(log.length > 8, `${log.length} log entries`);
  assert.ok(log.some((l) => /^Hand 1 over: NS [+-]?\d+ · EW [+-]?\d+$/.test(l)), 'the hand end logged: ' + log.slice(0, 3).join(' | '));
  assert.ok(log.some((l) => /opened meld \d+: \S+ \S+ \S+/.test(l)), 'opened melds named');
  assert.ok(log.some((l) => /^Bot \(expert\) sat down \((East|South|West|North)\)$/.test(l)), 'a bot sat down, said plainly');
  assert.ok(!log.some((l) => /sat at Bot/.test(l)));
  // Whether a short hand's log overflows depends on the hand: what must hold is that it can scroll
  // (every entry kept, none cut off) whatever its length.
  // Waited for: the page may be re-rendering the table just as the check runs.
  await page.waitForFunction(() => [...document.querySelectorAll('.log')]
    .some((e) => e.isConnected && /^(auto|scroll)$/.test(getComputedStyle(e).overflowY)), null, { timeout: 5000 });
  // Italian.
  await page.click('[data-action=lang][data-lang=it]');
  await page.waitForSelector('text=Smazzata');
  assert.deepEqual(errors, [], 'no page errors');
  for (const b of others) b.close();
  await ctx.close();
}
