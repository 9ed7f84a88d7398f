// A playbanned account is told until when, in its language, wherever the server refuses it
// (docs/FAIR_PLAY.md, "Playbans"). The account leaves three matches at tables of server bots (a
// protocol bot with its session cookie: three `left` outcomes in a row, the streak, the first
// ban, 10 minutes doubled for a new account), then its page: on a 1366x768 desktop in English, quick play is refused with
// the ban's end and how long that is; on a 390x844 phone in Italian, joining a waiting table from
// the lobby and registering for a tournament are refused the same way, in Italian. The time shown
// is the `playban` message's `until_ms` (sent just before the `playbanned` error), never the
// server's English text. Every text at WCAG AA; the phone never scrolls sideways.
import assert from 'node:assert/strict';
import { startServer } from './lib/harness.mjs';
import { clientFromDisk, signUp } from './lib/disk-client.mjs';
import { assertContrast } from './lib/contrast.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'a playban says until when where play is refused: quick play (EN desktop), join and tournament registration (IT phone)';

/** Waits until `check()` resolves true. @param {() => Promise<boolean>|boolean} check @param {string} what @param {number} [ms] */
async function until(check, what, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * The account's page at the lobby.
 * @param {import('playwright-core').Browser} browser @param {string} base @param {string} token @param {string} user
 * @param {{width: number, height: number}} viewport @param {string} locale @param {string[]} errors
 */
async function signedInPage(browser, base, token, user, viewport, locale, errors) {
  const phone = viewport.width < 700;
  const ctx = await browser.newContext({ viewport, locale, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
  await ctx.addCookies([{ name: 'burraco_session', value: token, domain: 'localhost', path: '/' }]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  await page.fill('[data-testid=name-input]', user);
  await page.click('[data-testid=enter]');
  await page.waitForSelector('[data-testid=quick-play]');
  return { ctx, page };
}

/** The toast's text once it matches `re`. @param {any} page @param {RegExp} re @param {string} what */
async function toast(page, re, what) {
  let text = '';
  await until(async () => re.test(text = await page.textContent('[data-testid=message]').catch(() => '') ?? ''), what, 5000);
  return text;
}

export async function run({ browser, shots }) {
  const server = await startServer();
  const client = await clientFromDisk(server.addr);
  const base = client.base;
  const wsUrl = `ws://${server.addr}/ws`;
  /** @type {string[]} */
  const errors = [];
  /** @type {Bot[]} */
  const bots = [];
  try {
    const stamp = Date.now().toString(36);
    const user = `leaver_${stamp}`;
    const leaver = await signUp(base, user);
    const cookie = { cookie: `burraco_session=${leaver.token}` };

    // Three matches at private tables of random server bots, each left once it has started.
    await Promise.all([0, 1, 2].map(async () => {
      const b = new Bot(wsUrl, user, { delay: 20, version: '1.5', headers: cookie });
      bots.push(b);
      await b.connect();
      const created = await b.request('create_table', { settings: { preset: 'fitab', players: 2, hands: 1, clocks: 'off' }, private: true, bots: 'random' });
      b.table = created.table;
      await b.ready();
      await until(() => b.frames.some((f) => f.type === 'match_started'), 'the match starts');
      await b.request('leave', { table: b.table });
    }));
    /** @type {any} */
    let ban = null;
    await until(async () => {
      const res = await fetch(`${base}/api/account/playban`, { headers: cookie });
      ban = (await res.json()).playban;
      return ban != null;
    }, 'the playban after three matches left (the bots finish them)', 120_000);
    const untilMs = /** @type {number} */ (ban.until_ms);
    // The first ban, 10 minutes, doubled for an account younger than three days.
    assert.ok(untilMs > Date.now() + 18 * 60_000 && untilMs <= Date.now() + 20 * 60_000 + 1000, `a new account's first ban, 20 minutes: ${JSON.stringify(ban)}`);
    const hhmm = (/** @type {string} */ locale) => new Date(untilMs).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });

    // Desktop, English: quick play refused, with the end of the ban.
    const d = await signedInPage(browser, base, leaver.token, user, { width: 1366, height: 768 }, 'en-GB', errors);
    await d.page.click('[data-testid=quick-play]');
    const en = await toast(d.page, /you cannot start or join a game until/, 'the quick play refusal in English');
    assert.ok(en.includes(hhmm('en-GB')), `the end of the ban (${hhmm('en-GB')}): ${en}`);
    assert.match(en, /about (19|20) minutes/, en);
    assert.ok(!en.includes('Unix ms'), `not the server's own words: ${en}`);
    await assertContrast(d.page, 'a playban\'s refusal (1366x768, English)');
    await d.page.screenshot({ path: shots('playban-desktop-en.png') });
    await d.ctx.close();

    // A guest's waiting table and a tournament open for registration.
    const host = new Bot(wsUrl, `host_${stamp}`, { delay: 20, version: '1.5' });
    bots.push(host);
    await host.connect();
    const open = await host.request('create_table', { settings: { preset: 'fitab', players: 2, hands: 1 }, private: false, bots: null });
    const created = await host.request('create_tournament', {
      settings: { name: `Open pairs ${stamp}`, kind: 'singles', rounds: ['danish'], hands: 1, preset: 'fitab', max_entrants: 8, seating: null, start_when_full: false, clocks: null },
    });

    // Phone, Italian: joining that table, then registering, refused in Italian with the end.
    const m = await signedInPage(browser, base, leaver.token, user, { width: 390, height: 844 }, 'it-IT', errors);
    await m.page.click(`[data-testid=table-row][data-table="${open.table}"] [data-action=join]`);
    const join = await toast(m.page, /non puoi iniziare né raggiungere una partita fino a/, 'the join refusal in Italian');
    assert.ok(join.includes(hhmm('it-IT')), `the end of the ban (${hhmm('it-IT')}): ${join}`);
    assert.match(join, /circa (19|20) minuti/, join);
    assert.equal(await m.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1), false, 'the page does not scroll sideways on a phone');
    await assertContrast(m.page, 'a playban\'s refusal (390x844, Italian)');
    await m.page.screenshot({ path: shots('playban-phone-it.png') });
    await m.page.click('[data-action=dismiss]').catch(() => {});
    await m.page.click('[data-testid=tab-tournaments]');
    await m.page.click(`[data-testid=open-tournament][data-tournament="${created.tournament}"]`);
    await m.page.click('[data-testid=register]');
    const reg = await toast(m.page, /non puoi iniziare né raggiungere una partita fino a/, 'the registration refusal in Italian');
    assert.ok(reg.includes(hhmm('it-IT')), reg);
    await m.ctx.close();
    assert.deepEqual(errors, [], 'no page errors');
  } finally {
    for (const b of bots) b.ws?.close();
    client.stop();
    await server.stop();
  }
}
