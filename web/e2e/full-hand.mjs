// A person's full hand against three bots, through the page only: lobby, private table with an
// invite code, ready check, draw/open/discard every turn, an illegal move refused and shown
// (nothing changes), the score screen, verify the shuffle, the replay. Saves the screenshots.
import assert from 'node:assert/strict';
import { Bot } from './lib/bot.mjs';
import { until, sleep } from './lib/harness.mjs';
import { login, handOnScreen, isMyTurn, playTurn, waitMyTurnOrEnd, meldCount, selectCards, clearSelection, discardKey } from './lib/page.mjs';
import { isMeld } from '../js/cards.js';

export const name = 'a person plays a full hand against bots';

export async function run({ browser, pageUrl, wsUrl, shots }) {
  // Some other tables in the lobby, so it looks like a lobby.
  const others = [];
  for (const [who, preset, players] of [['Bruno', 'feburit', 4], ['Carla', 'fitab', 2]]) {
    const b = new Bot(wsUrl, who);
    await b.connect();
    const r = await b.request('create_table', { settings: { preset, players }, private: false, bots: null });
    b.table = r.table;
    others.push(b);
  }

  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, pageUrl, 'Anna');
  await page.waitForSelector('[data-testid=table-row]');
  await sleep(200);
  await page.screenshot({ path: shots('lobby.png') });

  // Create a private one-hand table; bots join with the invite code shown on the page.
  await page.selectOption('[data-testid=create-length]', 'hands');
  await page.fill('[data-testid=create-hands]', '1');
  await page.dispatchEvent('[data-testid=create-hands]', 'change');
  await page.selectOption('[data-testid=create-visibility]', 'private');
  await page.click('[data-testid=create]');
  const invite = (await page.textContent('[data-testid=invite-code]')).trim();
  assert.match(invite, /^[0-9A-F]{8}$/);
  const bots = [];
  for (const who of ['Bot Est', 'Bot Nord', 'Bot Ovest']) {
    const b = new Bot(wsUrl, who);
    await b.connect();
    await b.join({ invite });
    bots.push(b);
  }
  for (const b of bots) await b.ready();
  await page.waitForSelector('[data-testid=ready]');
  await page.screenshot({ path: shots('ready-check.png') });
  await page.click('[data-testid=ready]');
  await page.waitForSelector('[data-testid=hand-card]');
  assert.equal((await handOnScreen(page)).length, 11, 'eleven cards dealt');

  let turns = 0;
  let illegalDone = false;
  let shotMid = false;
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
      await selectCards(page, bad.map((c) => c.key));
      await page.click('[data-testid=open]');
      const msg = await page.waitForSelector('[data-testid=message]');
      const text = await msg.textContent();
      assert.match(text, /Not allowed/);
      assert.deepEqual(await handOnScreen(page), hand, 'the refused meld left the hand as it was');
      assert.equal(await meldCount(page), melds, 'no meld appeared');
      assert.equal(await page.$$eval('[data-testid=hand-card][aria-pressed=true]', (e) => e.length), 3, 'the selection is kept');
      await page.screenshot({ path: shots('illegal-move.png') });
      await page.click('[data-action=dismiss]');
      // finish the turn: discard a card
      const h2 = await handOnScreen(page);
      await discardKey(page, h2[h2.length - 1].key);
      illegalDone = true;
      continue;
    }
    if (!shotMid && turns >= 3) {
      const n0 = (await handOnScreen(page)).length;
      await page.click('[data-testid=draw]');
      await until(async () => (await handOnScreen(page)).length === n0 + 1, { what: 'drawn card' });
      await sleep(150);
      // Select a playable card for the picture, if any.
      const playable = await page.$$eval('[data-testid=hand-card].playable', (els) => els.map((e) => e.dataset.key));
      if (playable.length) await selectCards(page, playable.slice(0, Math.min(3, playable.length)));
      await page.screenshot({ path: shots('table-mid-hand.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await sleep(200);
      await page.screenshot({ path: shots('table-phone.png'), fullPage: true });
      await page.setViewportSize({ width: 1360, height: 900 });
      shotMid = true;
      const hand = await handOnScreen(page);
      await discardKey(page, hand[0].key);
      continue;
    }
    await playTurn(page);
  }
  assert.ok(turns >= 3, `played ${turns} turns`);

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

  // Italian.
  await page.click('[data-action=overlay-close]');
  await page.click('[data-action=lang][data-lang=it]');
  await page.waitForSelector('text=Smazzata');
  assert.deepEqual(errors, [], 'no page errors');
  for (const b of [...bots, ...others]) b.close();
  await ctx.close();
}
