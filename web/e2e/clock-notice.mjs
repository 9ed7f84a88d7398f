// A player who does not move: the move clock runs out (federation clocks, 40 s + 5 s grace), the
// server plays the turn. The page says so in a notice that stays until the player moves again,
// logs the server's draw and discard as the server's (not as the player's), the discard with the
// order it follows (FITAB's "secondo norma"), calls attention in the
// tab's title and with a beep. At both sizes, in both languages. It runs in the background: `start`
// sits the two players down first; `run` checks after the other tests.
import assert from 'node:assert/strict';
import { login } from './lib/page.mjs';
import { until } from './lib/harness.mjs';

export const name = 'a clock expiry is shown and logged as the server\'s move (desktop EN, phone IT)';

const CASES = [
  { who: 'Pia', lang: 'en', viewport: { width: 1366, height: 768 }, notice: /Your time ran out: the server played your turn/, logged: /^the server discarded .+ for Pia: the highest card "secondo norma" \(FITAB: highest value first, then hearts, diamonds, clubs, spades\)$/, wrong: /^Pia discarded/ },
  { who: 'Ugo', lang: 'it', viewport: { width: 390, height: 844 }, notice: /Il tuo tempo è scaduto: il server ha giocato il tuo turno/, logged: /^il server ha scartato .+ per Ugo: la carta più alta secondo norma \(FITAB: prima il valore più alto, poi cuori, quadri, fiori, picche\)$/, wrong: /^Ugo ha scartato/ },
];

export async function start({ browser, pageUrl }) {
  const pages = [];
  for (const c of CASES) {
    const ctx = await browser.newContext({ viewport: c.viewport });
    const page = await ctx.newPage();
    await login(page, pageUrl, c.who);
    await page.click(`[data-action=lang][data-lang=${c.lang}]`);
    await page.selectOption('[data-testid=create-players]', '2');
    await page.selectOption('[data-testid=create-length]', 'hands');
    await page.fill('[data-testid=create-hands]', '1');
    await page.dispatchEvent('[data-testid=create-hands]', 'change');
    await page.selectOption('[data-testid=create-visibility]', 'private');
    await page.selectOption('[data-testid=create-bots]', 'greedy');
    // Choosing bots sets relaxed clocks; this test wants the shorter federation ones.
    await page.waitForSelector('[data-testid=create-clocks] option[value=relaxed]:checked', { state: 'attached' });
    await page.selectOption('[data-testid=create-clocks]', 'federation');
    await page.click('[data-testid=create]');
    await page.waitForSelector('[data-testid=ready-check]');
    await page.waitForSelector('.ready-row [data-testid=bot-badge]');
    assert.match(await page.textContent('[data-testid=ready-settings]'), c.lang === 'en' ? /1 hand · clocks: federation/ : /1 smazzata · tempi: federali/);
    // Free-text chat is open during the ready check.
    await page.fill('[data-testid=chat-input]', `ciao from ${c.who}`);
    await page.click('[data-testid=chat-send]');
    await page.waitForSelector(`[data-testid=chat] li:has-text("ciao from ${c.who}")`);
    await page.click('[data-testid=ready]');
    await page.waitForSelector('[data-testid=hand-card]');
    pages.push({ c, ctx, page });
  }
  return pages;
}

export async function run(_env, pages) {
  for (const { c, ctx, page } of pages) {
    // 40 s + 5 s after the player's first turn started.
    await page.waitForSelector('[data-testid=clock-notice]', { timeout: 70000 });
    assert.match(await page.textContent('[data-testid=clock-notice]'), c.notice);
    const log = await page.$$eval('.log li', (els) => els.map((e) => e.textContent.trim()));
    assert.ok(log.some((l) => c.logged.test(l)), 'the server\'s discard logged as such: ' + log.join(' | '));
    assert.ok(!log.some((l) => c.wrong.test(l)), 'no discard logged as the player\'s own');
    // The notice stays while the player is on turn again, the title calls, a beep sounded.
    // (a fresh turn, with 20 s or more on the clock, so the checks finish well before it runs out again)
    await until(() => page.evaluate(() => {
      const el = /** @type {HTMLElement|null} */ (document.querySelector('[data-testid=turn-status] .clock'));
      return !!el && !!document.querySelector('[data-testid=draw]:not([disabled])') && Number(el.dataset.deadline) - Date.now() > 20000;
    }), { timeout: 60000, what: 'a fresh turn' });
    assert.ok(await page.$('[data-testid=clock-notice]'), 'the notice is still there on the next turn');
    assert.match(await page.title(), c.lang === 'en' ? /^● Your turn/ : /^● Tocca a te/);
    assert.ok(await page.evaluate(() => /** @type {any} */ (window).__burracoBeeps > 0), 'a beep for the turn');
    // The notice is not over the cards.
    const [n, hand] = await Promise.all([page.$eval('[data-testid=clock-notice]', (e) => e.getBoundingClientRect().toJSON()),
      page.$eval('[data-testid=hand]', (e) => e.getBoundingClientRect().toJSON())]);
    assert.ok(n.bottom <= hand.top || n.top >= hand.bottom, 'the notice does not cover the hand');
    await page.screenshot({ path: `/tmp/clock-notice-${c.lang}.png` });
    // The player moves: the notice goes.
    await page.click('[data-testid=draw]');
    await page.waitForSelector('[data-testid=clock-notice]', { state: 'detached', timeout: 5000 });
    await ctx.close();
  }
}
