// What a screen reader gets (1366x768, English): the name field has the focus on load; at the
// table the live region says others' moves and whose turn it is (not only toasts); a playable
// card's label says "playable now" (not an unexplained ✓); the discard pile is a labelled group.
// With the bell on, a desktop notification says it is my turn when the player looks elsewhere.
import assert from 'node:assert/strict';
import { until } from './lib/harness.mjs';
import { waitMyTurnOrEnd } from './lib/page.mjs';
import { personWithServerBots } from './lib/tables.mjs';

export const name = 'screen readers: focus on load, moves and turns announced, labelled cards and pile; a notification for my turn (1366x768)';

export async function run({ browser, pageUrl }) {
  const errors = [];
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  // The browser's notifications, as the page sees them (the player allows them; looks elsewhere).
  await ctx.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__notes = [];
    w.Notification = class {
      constructor(title, opts) { w.__notes.push({ title, body: opts?.body }); }
      static permission = 'default';
      static async requestPermission() { w.Notification.permission = 'granted'; return 'granted'; }
    };
    document.hasFocus = () => false;
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pageUrl);
  await page.waitForSelector('[data-testid=name-input]');
  await until(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'name-input'), { timeout: 3000, what: 'the name field focused on load' });
  await page.keyboard.type('Sara');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=conn-state].conn-online');
  // The bell turns desktop notifications on (the browser asks the first time).
  await page.click('[data-testid=notify]');
  await page.waitForSelector('[data-testid=notify][aria-pressed=true]');

  // The live region follows the game: lines are collected as they are said.
  await page.evaluate(() => {
    const said = /** @type {string[]} */ ((/** @type {any} */ (window).__said = []));
    new MutationObserver(() => { const x = document.getElementById('announce')?.textContent; if (x) said.push(x); })
      .observe(/** @type {Node} */ (document.getElementById('announce')), { childList: true, characterData: true, subtree: true });
  });
  await personWithServerBots(page, { level: 'expert', visibility: 'public' });
  assert.equal(await page.getAttribute('#announce', 'aria-live'), 'polite');
  await waitMyTurnOrEnd(page);
  const said = await page.evaluate(() => /** @type {any} */ (window).__said);
  assert.ok(said.some((x) => /Your turn/.test(x)), `my turn said: ${JSON.stringify(said)}`);
  assert.ok(said.some((x) => /Bot \(expert\)/.test(x)), `others' moves said: ${JSON.stringify(said)}`);
  const notes = await page.evaluate(() => /** @type {any} */ (window).__notes);
  assert.ok(notes.some((n) => n.title === 'Your turn'), `a notification for my turn: ${JSON.stringify(notes)}`);

  const labels = await page.$$eval('[data-testid=hand-card]', (els) => els.map((e) => e.getAttribute('aria-label')));
  assert.ok(labels.every((l) => !l.includes('✓')), labels.join(' | '));
  const pile = await page.$('[data-testid=pile]');
  assert.equal(await pile.getAttribute('role'), 'group');
  assert.match(await pile.getAttribute('aria-label'), /^Discard pile: (empty|\d+ cards, .+ on top)$/);
  // After a draw, cards that can be played say so in their label.
  await page.click('[data-testid=draw]');
  await until(async () => (await page.$$eval('[data-testid=hand-card]', (els) => els.length)) === 12, { what: 'the drawn card' });
  const after = await page.$$eval('[data-testid=hand-card]', (els) => els.map((e) => ({ label: e.getAttribute('aria-label'), playable: e.classList.contains('playable') })));
  for (const c of after) assert.equal(/, playable now$/.test(c.label), c.playable, JSON.stringify(c));
  assert.equal(errors.length, 0, errors.join('\n'));
  await ctx.close();
}
