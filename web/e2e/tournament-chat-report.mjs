// A tournament chat line reported to the moderators from the event's page (protocol 1.8,
// `tournament_report`), on a server of the test's own (its data dir is where the operator's
// command grants the moderator role). Gianni, a guest entrant (a protocol bot), writes two lines;
// Paola, an account at 1366x768 in English, registers and writes one: her own line has no report
// button, Gianni's have one; she reports his insult as abuse with a note and the line says
// "Reported". Marco, an account on a 390x844 phone in Italian, reports Gianni's other line as spam
// ("Segnalata"); the form fits the phone. A guest's page shows no report button. The
// moderators' queue holds both reports with the tournament's context, and the moderators' page
// names the tournament. Every text at WCAG AA.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, serverBin } from './lib/harness.mjs';
import { clientFromDisk, signUp } from './lib/disk-client.mjs';
import { fillField } from './lib/page.mjs';
import { assertContrast } from './lib/contrast.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'a tournament chat line reported from the event\'s page: others\' lines only, accounts only (EN desktop, IT phone)';

/**
 * A page signed in with `token` (none: a guest), entered in the lobby, on tournament `id`'s page.
 * @param {import('playwright-core').Browser} browser @param {string} base @param {string|null} token @param {string} user
 * @param {string} id @param {{width: number, height: number}} viewport @param {string} locale @param {string[]} errors
 */
async function tournamentPage(browser, base, token, user, id, viewport, locale, errors) {
  const phone = viewport.width < 700;
  const ctx = await browser.newContext({ viewport, locale, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
  if (token) await ctx.addCookies([{ name: 'burraco_session', value: token, domain: 'localhost', path: '/' }]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  await page.fill('[data-testid=name-input]', user);
  await page.click('[data-testid=enter]');
  await page.waitForSelector('[data-testid=conn-state]:has-text("Online"), [data-testid=conn-state]:has-text("In linea")');
  await page.click('[data-testid=tab-tournaments]');
  await page.click(`[data-testid=tournament-row][data-tournament="${id}"] [data-testid=open-tournament]`);
  await page.waitForSelector('[data-testid=tour-chat]');
  return { ctx, page };
}

/** The chat line numbered `n` on the page. @param {number} n */
const lineSel = (n) => `[data-testid=tour-chat-line][data-line="${n}"]`;

/** Reports line `n` with `reason` and `note` through the page's form. @param {import('playwright-core').Page} page */
async function reportLine(page, n, reason, note) {
  await page.click(`${lineSel(n)} [data-testid=tour-chat-report]`);
  await page.waitForSelector(`${lineSel(n)} [data-testid=tour-report-form]`);
  await page.selectOption(`${lineSel(n)} [data-testid=tour-report-reason]`, reason);
  if (note) await fillField(page, `${lineSel(n)} [data-testid=tour-report-note]`, note);
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
    const paolaName = `paola_${stamp}`, marcoName = `marco_${stamp}`, modName = `mod_${stamp}`;
    const paola = await signUp(base, paolaName);
    const marco = await signUp(base, marcoName);
    const mod = await signUp(base, modName);
    execFileSync(serverBin(), ['--data', server.data, 'admin', 'grant-moderator', modName], { stdio: 'pipe' });

    const director = new Bot(wsUrl, 'Arbitro', { version: '1.7' });
    const gianni = new Bot(wsUrl, 'Gianni', { version: '1.7' });
    bots.push(director, gianni);
    await director.connect();
    await gianni.connect();
    const created = await director.request('create_tournament', { settings: { name: 'Reported event', kind: 'singles', rounds: ['danish'], hands: 1, preset: 'fitab',
      max_entrants: 4, seating: 'registration', start_when_full: false, clocks: null, duplicate: false } });
    const id = created.tournament;
    await gianni.request('register_tournament', { tournament: id, partner_code: null, bot: null });
    await gianni.request('tournament_chat', { tournament: id, director: null, text: 'buy cheap chips at example.com' });
    const insult = 'you all play like donkeys';
    await gianni.request('tournament_chat', { tournament: id, director: null, text: insult });

    // Paola, desktop, English: registers and writes; her line has no report button, Gianni's do.
    const p = await tournamentPage(browser, base, paola.token, paolaName, id, { width: 1366, height: 768 }, 'en-GB', errors);
    await p.page.click('[data-testid=register]');
    await p.page.waitForSelector('[data-testid=my-entrant]');
    await fillField(p.page, '[data-testid=t-chat-input]', 'please be kind');
    await p.page.click('[data-testid=t-chat-send]');
    await p.page.waitForSelector(lineSel(3));
    assert.equal(await p.page.$(`${lineSel(3)} [data-testid=tour-chat-report]`), null, 'no report button on one\'s own line');
    await p.page.waitForSelector(`${lineSel(2)} [data-testid=tour-chat-report]`);
    assert.equal(await p.page.getAttribute(`${lineSel(2)} [data-testid=tour-chat-report]`, 'aria-label'), 'Report Gianni\'s line to the moderators');
    await reportLine(p.page, 2, 'abuse', 'insults everyone');
    await assertContrast(p.page, 'a tournament chat line\'s report form (1366x768, English)');
    await p.page.screenshot({ path: shots('tournament-chat-report-desktop.png') });
    await p.page.click(`${lineSel(2)} [data-testid=tour-report-send]`);
    await p.page.waitForSelector(`${lineSel(2)} [data-testid=tour-chat-reported]:has-text("Reported")`);
    await p.page.waitForSelector('[data-testid=message]:has-text("the moderators have the line")');
    assert.equal(await p.page.$(`${lineSel(2)} [data-testid=tour-report-form]`), null, 'the form closed');

    // Marco, phone, Italian, not an entrant: reports the first line as spam; the form fits.
    const m = await tournamentPage(browser, base, marco.token, marcoName, id, { width: 390, height: 844 }, 'it-IT', errors);
    await m.page.waitForSelector(`${lineSel(1)} [data-testid=tour-chat-report]:has-text("Segnala")`);
    await reportLine(m.page, 1, 'spam', '');
    await m.page.$eval('[data-testid=tour-chat]', (el) => el.scrollIntoView());
    const wide = await m.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(wide <= 1, `the phone's page is ${wide} px too wide with the report form open`);
    assert.match(await m.page.textContent(`${lineSel(1)} [data-testid=tour-report-form]`) ?? '', /Perché.*Nota \(facoltativa\)/s);
    await assertContrast(m.page, 'a tournament chat line\'s report form (390x844, Italian)');
    await m.page.screenshot({ path: shots('tournament-chat-report-phone.png') });
    await m.page.click(`${lineSel(1)} [data-testid=tour-report-send]`);
    await m.page.waitForSelector(`${lineSel(1)} [data-testid=tour-chat-reported]:has-text("Segnalata")`);

    // A guest reads the chat but cannot report.
    const g = await tournamentPage(browser, base, null, 'Ospite', id, { width: 1366, height: 768 }, 'en-GB', errors);
    await g.page.waitForSelector(lineSel(2));
    assert.equal(await g.page.$('[data-testid=tour-chat-report]'), null, 'a guest has no report button');

    // The moderators have both, with the tournament's context.
    const queue = await (await fetch(`${base}/api/moderation/reports`, { headers: { cookie: `burraco_session=${mod.token}` } })).json();
    const ofLine = (/** @type {string} */ text) => queue.reports.find((/** @type {any} */ r) => r.context?.line?.text === text);
    const abuse = ofLine(insult);
    assert.ok(abuse, `the insult's report: ${JSON.stringify(queue)}`);
    assert.equal(abuse.reporter, paola.id);
    assert.equal(abuse.reason, 'abuse');
    assert.equal(abuse.note, 'insults everyone');
    assert.equal(abuse.context.tournament, id);
    assert.equal(abuse.subject_name, 'Gianni');
    assert.deepEqual(abuse.context.chat.map((/** @type {any} */ l) => l.seq), [1, 2, 3]);
    const spam = ofLine('buy cheap chips at example.com');
    assert.equal(spam?.reporter, marco.id);
    assert.equal(spam?.reason, 'spam');
    // The moderators' page names the tournament.
    const mctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
    await mctx.addCookies([{ name: 'burraco_session', value: mod.token, domain: 'localhost', path: '/' }]);
    const mp = await mctx.newPage();
    mp.on('pageerror', (e) => errors.push(e.message));
    await mp.goto(`${base}/moderation.html`);
    await mp.waitForSelector(`[data-testid=report][data-report="${abuse.id}"] [data-testid=report-tournament]:has-text("Tournament ${id}, its chat, before the first round")`);
    assert.deepEqual(errors, []);
    for (const c of [p.ctx, m.ctx, g.ctx, mctx]) await c.close();
  } finally {
    for (const b of bots) b.close();
    client.stop();
    await server.stop();
  }
}
