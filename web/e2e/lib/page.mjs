// Helpers that drive the page the way a person does: clicks on what is on screen.
import { isMeld, isWildish, normaKey } from '../../js/cards.js';
import { until, sleep } from './harness.mjs';

/**
 * Fills a field and checks that the value stuck: the page re-renders itself (a list refreshed),
 * and a re-render between the fill's select-all and its typing leaves the old value in front
 * of the new one ("1" typed into "1" making "11").
 */
export async function fillField(page, selector, value) {
  await until(async () => {
    await page.fill(selector, value);
    return (await page.inputValue(selector)) === value;
  }, { timeout: 5000, interval: 50, what: `${selector} to hold ${JSON.stringify(value)}` });
}

export async function login(page, url, name) {
  await page.goto(url);
  await page.fill('[data-testid=name-input]', name);
  await page.click('[data-testid=enter]');
  await page.waitForSelector('[data-testid=conn-state]:has-text("Online"), [data-testid=conn-state]:has-text("In linea")');
}

/**
 * A desktop browser page (English) with `name` logged in; its page errors are pushed to `errors`.
 * @returns {Promise<{ctx: any, page: any}>}
 */
export async function desktopLogin(browser, url, name, errors) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, url, name);
  return { ctx, page };
}

/** GETs JSON from the server's /api (its address from the harness's WebSocket one), asserting a 2xx. */
export function apiGetter(wsUrl) {
  const api = wsUrl.replace(/^ws:/, 'http:').replace(/\/ws$/, '');
  return async (path) => {
    const r = await fetch(api + path);
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    return r.json();
  };
}

/** The hand as shown: [{key, code}] in display order. */
export async function handOnScreen(page) {
  return page.$$eval('[data-testid=hand-card]', (els) => els.map((e) => ({ key: e.dataset.key, code: e.dataset.code })));
}

export async function isMyTurn(page) {
  return page.$eval('[data-testid=turn-status]', (e) => e.classList.contains('mine')).catch(() => false);
}

export async function scoreShown(page) {
  return (await page.$('[data-testid=score-dialog]')) !== null;
}

export async function meldCount(page, which = 'ours') {
  return page.$$eval(`[data-testid=melds-${which}] [data-testid=meld]`, (els) => els.length);
}

export async function selectCards(page, keys) {
  for (const key of keys) {
    if (!(await page.$(`[data-testid=hand-card][data-key="${key}"]`))) {
      const hand = (await handOnScreen(page)).map((c) => c.key).join(' ');
      const msg = await page.textContent('[data-testid=message]').catch(() => '');
      throw new Error(`card ${key} is not in the hand on screen: ${hand} (message: ${msg})`);
    }
    await page.click(`[data-testid=hand-card][data-key="${key}"]`, { timeout: 5000 });
    await page.waitForSelector(`[data-testid=hand-card][data-key="${key}"][aria-pressed="true"]`);
  }
}

/** Clears the selection (the Clear button is disabled when nothing is selected). */
export async function clearSelection(page) {
  if (!(await page.$('[data-action=clear]:not([disabled])'))) return;
  // A re-render between the look and the click may disable it (a refusal empties the selection):
  // then there is nothing left to clear. Only a button that stays enabled and unclickable fails.
  await page.click('[data-action=clear]:not([disabled])', { timeout: 2000 }).catch(async (e) => {
    if (await page.$('[data-action=clear]:not([disabled])')) throw e;
  });
}

/** Selects one card and discards it; resolves when the card has left the hand on screen. */
export async function discardKey(page, key) {
  const n = (await handOnScreen(page)).length;
  await clearSelection(page);
  await selectCards(page, [key]);
  await page.click('[data-testid=discard]');
  await until(async () => (await handOnScreen(page)).length < n || scoreShown(page), { what: 'the discard' });
}

/**
 * Plays one turn as a simple person would: draw, open a three-card meld if there is one, discard the
 * highest natural card. `motion`: a meld it opens must be seen travelling from the hand to the table.
 * Resolves with whether it opened a meld.
 */
export async function playTurn(page, { open = true, motion = false } = {}) {
  const before = (await handOnScreen(page)).length;
  await page.click('[data-testid=draw]');
  await until(async () => (await handOnScreen(page)).length === before + 1 || scoreShown(page), { what: 'the drawn card' });
  if (await scoreShown(page)) return false;
  const opened = open && (await handOnScreen(page)).length > 6 && await openMeld(page, { motion });
  const hand = await handOnScreen(page);
  const naturals = hand.filter((c) => !isWildish(c.code));
  const pick = [...(naturals.length ? naturals : hand)].sort((a, b) => normaKey(b.code) - normaKey(a.code))[0];
  await discardKey(page, pick.key);
  return opened;
}

/**
 * Resolves when a card matching `selector` is seen travelling (the page's FLIP animation, motion.js),
 * watched every frame from now on: start it before the move that should make the card travel.
 */
export function cardTravels(page, selector, timeout = 5000) {
  return page.waitForFunction((sel) => [...document.querySelectorAll(sel)].some((e) => e.getAnimations().some((a) => a.id === 'card-travel')),
    selector, { polling: 'raf', timeout });
}

/**
 * Opens the first three cards of the hand that make a meld, if any; resolves with whether a meld
 * was opened. `motion`: the opened meld's cards must be seen travelling from the hand to the table.
 */
export async function openMeld(page, { motion = false } = {}) {
  const hand = await handOnScreen(page);
  for (let i = 0; i < hand.length; i++) for (let j = i + 1; j < hand.length; j++) for (let k = j + 1; k < hand.length; k++) {
    const trio = [hand[i], hand[j], hand[k]];
    if (!isMeld(trio.map((c) => c.code))) continue;
    const melds = await meldCount(page);
    await selectCards(page, trio.map((c) => c.key));
    const travelled = motion ? cardTravels(page, '[data-testid=melds-ours] .meld-slot .card') : null;
    travelled?.catch(() => {});
    await page.click('[data-testid=open]');
    await until(async () => (await meldCount(page)) > melds || (await page.$('[data-testid=message]')) || (await page.$('[data-testid=wild-dialog]')), { what: 'the meld on the table' });
    if (await page.$('[data-testid=wild-dialog]')) {
      await page.click('[data-testid=wild-pos] >> nth=0');
      await until(async () => (await meldCount(page)) > melds || (await page.$('[data-testid=message]')), { what: 'the meld on the table' });
    }
    const opened = (await meldCount(page)) > melds;
    if (opened && travelled) await travelled;
    await clearSelection(page);
    return opened;
  }
  return false;
}

/** Waits for my turn (true) or the end of the hand (false). */
export async function waitMyTurnOrEnd(page, timeout = 120000) {
  await until(async () => (await page.$('[data-testid=draw]:not([disabled])')) || scoreShown(page), { timeout, what: 'my turn' });
  await sleep(50);
  return !(await scoreShown(page));
}
