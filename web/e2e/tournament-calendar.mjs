// Issue 24, "a calendar of upcoming events": the Tournaments tab lists the events still registering
// that have a start time, soonest first, with their dates in the page's language. Two events are
// scheduled by protocol (in three days, closing the day before; in one day), a third has no date:
// on the desktop in English and on a phone in Italian the calendar shows the two, the sooner first,
// each date as the page's locale writes it, and "Open" takes the reader to the event's page.
import assert from 'node:assert/strict';
import { until } from './lib/harness.mjs';
import { login } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'the tournaments tab has a calendar of the events to come, in both languages';

const DAY = 24 * 3600 * 1000;

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const director = new Bot(wsUrl, 'Calendario', { version: '1.6' });
  await director.connect();
  const settings = (/** @type {string} */ label) => ({ name: label, kind: 'pairs', rounds: ['mitchell'], hands: 1, preset: 'fitab',
    max_entrants: 8, seating: 'registration', start_when_full: false, clocks: null, duplicate: false });
  // Whole minutes: the page shows hours and minutes.
  const base = Math.ceil(Date.now() / 60000) * 60000;
  const later = await director.request('create_tournament', { settings: settings('Coppa di primavera') });
  await director.request('configure_registration', { tournament: later.tournament, director: later.director_token,
    registration: { open: true, invite_only: false, closes_ms: base + 2 * DAY, starts_ms: base + 3 * DAY, check_in: false, bots_after_secs: null } });
  const sooner = await director.request('create_tournament', { settings: settings('Torneo del giovedì') });
  await director.request('configure_registration', { tournament: sooner.tournament, director: sooner.director_token,
    registration: { open: true, invite_only: false, closes_ms: null, starts_ms: base + DAY, check_in: false, bots_after_secs: null } });
  const undated = await director.request('create_tournament', { settings: settings('Senza data') });

  for (const [viewport, locale, size] of [[{ width: 1366, height: 768 }, 'en-US', 'desktop'], [{ width: 390, height: 844 }, 'it-IT', 'phone']]) {
    const ctx = await browser.newContext({ viewport, locale, isMobile: size === 'phone', hasTouch: size === 'phone' });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await login(page, pageUrl, size === 'phone' ? 'Lia' : 'Leo');
    await page.click('[data-testid=tab-tournaments]');
    await until(async () => (await page.$$('[data-testid=calendar-entry]')).length >= 2, { timeout: 10000, what: 'the calendar filled' });
    const ids = await page.$$eval('[data-testid=calendar-entry]', (els) => els.map((e) => e.getAttribute('data-tournament')));
    assert.ok(ids.indexOf(sooner.tournament) >= 0 && ids.indexOf(sooner.tournament) < ids.indexOf(later.tournament), `soonest first: ${ids}`);
    assert.ok(!ids.includes(undated.tournament), 'an event without a start time is not in the calendar');
    const entry = `[data-testid=calendar-entry][data-tournament="${later.tournament}"]`;
    // The date as the page's language writes it, and the closing of the list.
    const expected = await page.evaluate((ms) => new Date(ms).toLocaleString(document.documentElement.lang === 'it' ? 'it-IT' : 'en-GB',
      { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }), base + 3 * DAY);
    assert.equal((await page.textContent(`${entry} [data-testid=calendar-date]`)).trim(), expected);
    assert.equal(await page.getAttribute(`${entry} time`, 'datetime'), new Date(base + 3 * DAY).toISOString());
    assert.match(await page.textContent('[data-testid=calendar] h3'), size === 'phone' ? /Prossimi eventi/ : /Upcoming events/);
    assert.match(await page.textContent(entry), size === 'phone' ? /iscrizioni fino al/ : /list closes/);
    // It fits the screen: nothing wider than the window.
    const overflow = await page.$eval('[data-testid=calendar]', (el) => el.scrollWidth - el.clientWidth);
    assert.ok(overflow <= 1, `the calendar overflows by ${overflow} px`);
    await page.screenshot({ path: shots(`tournament-calendar-${size}.png`) });
    await page.click(`${entry} [data-testid=calendar-open]`);
    await page.waitForSelector(`[data-testid=tournament-page][data-tournament="${later.tournament}"]`);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
  director.close();
}
