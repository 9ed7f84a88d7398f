// An illegal move is refused by the server, shown in plain words, and changes nothing on screen.
// (This person asked for reduced motion: no card travels.)
import assert from 'node:assert/strict';
import { login, handOnScreen, waitMyTurnOrEnd, selectCards, clearSelection, discardKey } from './lib/page.mjs';
import { personWithBots } from './lib/tables.mjs';
import { until } from './lib/harness.mjs';
import { isMeld } from '../js/cards.js';

export const name = 'an illegal move is refused, explained, and changes nothing';

/** The felt's markup without the one-shot movement cues (a class on what the last event moved). */
// The felt as drawn, less what moves by itself: a clock's seconds (a second may pass between two looks).
const feltOf = (page) => page.$eval('.felt', (e) => e.innerHTML.replace(/ fresh\b/g, '').replace(/(<span class="clock[^"]*"[^>]*>)[^<]*/g, '$1'));

export async function run({ browser, pageUrl, wsUrl }) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  await login(page, pageUrl, 'Bianca');
  const { bots } = await personWithBots(page, wsUrl, { players: 2, names: ['Bot Nord'], delay: 2500 });
  assert.ok(await waitMyTurnOrEnd(page));
  const n = (await handOnScreen(page)).length;
  await page.click('[data-testid=draw]');
  await until(async () => (await handOnScreen(page)).length === n + 1, { what: 'the drawn card' });
  assert.equal(await page.evaluate(() => document.getAnimations().filter((a) => a.id === 'card-travel').length), 0, 'no card travels with reduced motion');
  const hand = await handOnScreen(page);
  let bad = null;
  for (let i = 0; i < hand.length && !bad; i++) for (let j = i + 1; j < hand.length && !bad; j++) for (let k = j + 1; k < hand.length && !bad; k++) {
    if (!isMeld([hand[i].code, hand[j].code, hand[k].code])) bad = [hand[i].key, hand[j].key, hand[k].key];
  }
  assert.ok(bad, 'three cards that are not a meld');
  for (const lang of ['en', 'it']) {
    await page.click(`[data-action=lang][data-lang=${lang}]`);
    await clearSelection(page);
    await selectCards(page, bad);
    const felt = await feltOf(page);
    const frames = await page.evaluate(() => window.__burraco.conn.frames.length);
    assert.ok(await page.$('[data-testid=open][disabled]'), 'Open is disabled for cards that are no meld');
    await page.keyboard.press('o');
    const msg = await page.waitForSelector('[data-testid=message]');
    const text = (await msg.textContent()).trim();
    if (lang === 'en') assert.match(text, /^Not allowed: .*(meld|natural|wild|sequence|rank|suit|contiguous)/i, text);
    else assert.match(text, /^Mossa non consentita: /, text);
    // the reply was an error and nothing else arrived for the table
    const after = await page.evaluate((k) => window.__burraco.conn.frames.slice(k).map((f) => JSON.parse(f)), frames);
    assert.deepEqual(after.map((m) => m.type), ['error']);
    assert.equal(after[0].code, 'illegal_action');
    assert.equal(await feltOf(page), felt, 'the table did not change');
    assert.deepEqual(await handOnScreen(page), hand, 'the hand did not change');
    await page.click('[data-action=dismiss]');
  }

  // Out of turn: the keyboard shortcut D asks to draw while the opponent thinks; refused, shown, nothing moves.
  await page.click('[data-action=lang][data-lang=en]');
  const last = await handOnScreen(page);
  await discardKey(page, last[last.length - 1].key);
  const before = await handOnScreen(page);
  const felt = await feltOf(page);
  await page.keyboard.press('d');
  const msg = await page.waitForSelector('[data-testid=message]');
  assert.match(await msg.textContent(), /Not allowed: it is [NS]'s turn/);
  assert.deepEqual(await handOnScreen(page), before);
  assert.equal(await feltOf(page), felt);
  // A refusal closes by itself.
  await page.waitForSelector('[data-testid=message]', { state: 'detached', timeout: 8000 });
  for (const b of bots) b.close();
  await ctx.close();
}
