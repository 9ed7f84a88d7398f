// A duplicated tab (1366x768, English): the copy resumes the session and takes the seat; the old
// tab does not go on showing "Your turn" with live buttons (a Discard there only said "not
// connected"): it says the game moved to another tab and offers "Use it here", which takes the
// game back (and then the other tab says so). The hand is the same in both.
import assert from 'node:assert/strict';
import { login, handOnScreen } from './lib/page.mjs';
import { personWithServerBots } from './lib/tables.mjs';

export const name = 'a duplicated tab: the old one says the game moved and can take it back (1366x768)';

export async function run({ browser, pageUrl, shots }) {
  const errors = [];
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  const first = await ctx.newPage();
  first.on('pageerror', (e) => errors.push(e.message));
  await login(first, pageUrl, 'Tina');
  await personWithServerBots(first, { level: 'expert', visibility: 'public' });
  const hand = await handOnScreen(first);
  // A duplicated tab carries the tab's sessionStorage (the resume token) with it.
  const stored = await first.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
  const second = await ctx.newPage();
  second.on('pageerror', (e) => errors.push(e.message));
  await second.addInitScript((entries) => { if (!sessionStorage.length) for (const [k, v] of JSON.parse(entries)) sessionStorage.setItem(k, v); }, stored);
  await second.goto(first.url());
  await second.waitForSelector('[data-testid=hand-card]');
  assert.deepEqual((await handOnScreen(second)).map((c) => c.code).sort(), hand.map((c) => c.code).sort(), 'the copy shows the same hand');

  const moved = await first.waitForSelector('[data-testid=taken-over-dialog]', { timeout: 10000 });
  assert.match(await moved.textContent(), /The game moved to another tab/);
  await first.screenshot({ path: shots('taken-over.png') });
  // The old tab's keys do nothing (no "not connected" refusal).
  await first.keyboard.press('d');
  assert.equal(await first.$('[data-testid=message]'), null, 'no refusal from the old tab');

  // "Use it here": the old tab takes the game back; the copy is told.
  await first.click('[data-testid=use-here]');
  await first.waitForSelector('[data-testid=taken-over-dialog]', { state: 'detached', timeout: 10000 });
  await first.waitForSelector('[data-testid=conn-state].conn-online');
  await second.waitForSelector('[data-testid=taken-over-dialog]', { timeout: 10000 });
  assert.deepEqual((await handOnScreen(first)).map((c) => c.code).sort(), (await handOnScreen(second)).map((c) => c.code).sort());
  assert.equal(errors.length, 0, errors.join('\n'));
  await ctx.close();
}
