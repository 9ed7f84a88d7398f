// "Verify the shuffle" after a reload, and every hand of the match reachable (a two-hand match
// against server bots): hand 1 is played on a phone in Italian with a reload in the middle; its
// verify shows every check and passes. Hand 2 is dealt; hand 1 is still reachable from "Smazzate".
// Then the desktop in English, reloaded again: the history comes back from /api/tables/{id}/hands,
// hand 1 verifies again; hand 2 is played to the end of the match: the match end says who won,
// lists both hands, offers a new match, and hand 2 verifies too. Screenshots at both sizes.
// Between the hands the next hand waits for the player's "ready" (the server's limit is a minute).
import assert from 'node:assert/strict';
import { login, handOnScreen, playTurn, waitMyTurnOrEnd, scoreShown } from './lib/page.mjs';
import { personWithServerBots } from './lib/tables.mjs';
import { until } from './lib/harness.mjs';
import { assertFitsWindow } from './lib/layout.mjs';

export const name = 'verify the shuffle after a reload, and the hands history (phone IT, desktop EN)';

/** Opens hand `n` from the history, runs verify, checks every line passed; returns the lines. */
async function verifyHand(page, n, fail) {
  if (!(await page.$('[data-testid=score-dialog], [data-testid=history-dialog]'))) await page.click('[data-testid=show-history]');
  await page.click(`[data-testid=history-hand][data-hand="${n}"] [data-testid=history-score]`);
  await page.waitForSelector(`[data-testid=history-hand][data-hand="${n}"].current`);
  await page.click(`[data-testid=verify][data-hand="${n}"]`);
  const verdict = await page.waitForSelector('[data-testid=verify-verdict]');
  const lines = await page.$$eval('[data-testid=verify-result] li', (els) => els.map((e) => e.textContent.trim()));
  assert.match(await verdict.getAttribute('class'), /ok/, `hand ${n}: ${lines.join(' | ')}`);
  assert.ok(lines.length >= 4, `hand ${n}: all four checks shown: ${lines.join(' | ')}`);
  assert.ok(lines.every((l) => l.startsWith('✔')), lines.join(' | '));
  assert.ok(!(await page.textContent('[data-testid=score-dialog]')).includes(fail), 'no mismatch shown');
  return lines;
}

/** Plays until the end of the hand in progress, reloading the page once after `reloadAfter` turns. */
async function playHand(page, { reloadAfter = -1 } = {}) {
  let turns = 0;
  while (await waitMyTurnOrEnd(page)) {
    if (turns === reloadAfter) {
      const log = await page.$$eval('.log li', (els) => els.map((e) => e.textContent));
      await page.reload();
      await page.waitForSelector('[data-testid=hand-card]');
      // The table log comes back, once.
      const after = await page.$$eval('.log li', (els) => els.map((e) => e.textContent));
      assert.deepEqual(after.slice(-log.length), log, 'the log after the reload');
      assert.equal(after.filter((l) => /^Smazzata 1, mazziere/.test(l)).length, 1, 'the deal logged once: ' + after.join(' | '));
    }
    turns++;
    if (await page.$('[data-testid=draw]:not([disabled])')) await playTurn(page, { open: true });
  }
  return turns;
}

export async function run({ browser, pageUrl, shots }) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, pageUrl, 'Vera');
  await page.click('[data-action=lang][data-lang=it]');
  const { table } = await personWithServerBots(page, { level: 'greedy', hands: 2, visibility: 'private' });

  // Hand 1, with a reload in the middle.
  await playHand(page, { reloadAfter: 2 });
  await page.waitForSelector('[data-testid=score-table]');
  await page.waitForSelector('[data-testid=verify][data-hand="1"]', { timeout: 10000 });
  const lines = await verifyHand(page, 1, 'Discrepanza');
  assert.ok(lines.some((l) => /carta scoperta/.test(l)), 'the up card is named');
  assert.match(await page.textContent('[data-testid=score-dialog]'), /Chiave di mescolamento/);
  assert.match(await page.textContent('[data-testid=standing]'), /Situazione: (NS|EW) -?\d+ – (NS|EW) -?\d+ · siete (avanti|indietro) di \d+|in parità/);
  await page.$eval('.dialog', (e) => { e.scrollTop = 0; });
  await page.screenshot({ path: shots('score-phone.png') });

  // Hand 2 is dealt when the player says ready (the bots are; the server would wait a minute):
  // the score screen closes, hand 1 stays reachable.
  await page.click('[data-testid=next-hand-ready]');
  await page.waitForSelector('[data-testid=score-dialog]', { state: 'detached', timeout: 15000 });
  await page.waitForSelector('[data-testid=show-history]');
  await verifyHand(page, 1, 'Discrepanza');
  await page.click('[data-action=overlay-close]');
  // The phone table in Italian, with the hands history button in the top bar: still one screen.
  await page.waitForSelector('[data-testid=hand-card]');
  await assertFitsWindow(page, 'the phone table in Italian with the hands history');

  // The desktop, in English, reloaded: the history comes back from the server.
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.click('[data-action=lang][data-lang=en]');
  await page.reload();
  await page.waitForSelector('[data-testid=hand-card]');
  await page.waitForSelector('[data-testid=show-history]:has-text("Hands (1)")');
  await verifyHand(page, 1, 'Mismatch');
  await page.click('[data-action=overlay-close]');
  await playHand(page);

  // The match is over.
  await page.waitForSelector('[data-testid=match-over]', { timeout: 15000 });
  await page.waitForSelector('[data-testid=history-hand][data-hand="2"]', { timeout: 10000 });
  const verdict = await page.textContent('[data-testid=match-verdict]');
  assert.match(verdict, /You (won|lost) the match|Draw/);
  assert.equal(await page.$$eval('[data-testid=match-hands] [data-testid=match-hand-row]', (e) => e.length), 2, 'a row per hand');
  assert.ok(await page.$('[data-testid=rematch]'), 'a new match is offered');
  await page.screenshot({ path: shots('match-end.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: shots('match-end-phone.png') });
  await page.setViewportSize({ width: 1366, height: 768 });
  await verifyHand(page, 2, 'Mismatch');
  await page.$eval('.dialog', (e) => { e.scrollTop = 0; });
  await page.screenshot({ path: shots('score-history.png') });
  // Hand 1's replay says which bot moves.
  await page.click('[data-testid=history-hand][data-hand="1"] [data-action=replay]');
  await page.waitForSelector('[data-testid=replay-dialog]');
  await until(async () => {
    await page.click('[data-testid=replay-next]');
    return /Bot \(greedy\) · (North|East|West|South)/.test(await page.textContent('[data-testid=replay-desc]'));
  }, { timeout: 10000, what: 'a bot named by its seat in the replay' });
  // A new match with the same settings: a new table, the same bots, the ready check.
  await page.click('[data-action=overlay-close]');
  await page.click('[data-testid=show-score]');
  await page.click('[data-testid=rematch]');
  await page.waitForSelector('[data-testid=ready-check]');
  await until(async () => (await page.$$eval('.ready-row [data-testid=bot-badge]', (e) => e.length)) === 3, { timeout: 10000, what: 'the bots of the new match' });
  assert.notEqual(await page.evaluate(() => /** @type {any} */ (window).__burraco.table.table), table, 'a new table');
  assert.match(await page.textContent('[data-testid=ready-settings]'), /2 hands/);
  void handOnScreen; void scoreShown;
  assert.deepEqual(errors, [], 'no page errors');
  await ctx.close();
}
