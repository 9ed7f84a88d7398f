// Names and chat as the server takes them, on a 390x844 phone in Italian: a 40-letter name, an
// emoji family and a bidi mark are refused by the page with the reason in Italian (never sent to
// sit on "Riconnessione…"); a name the server refuses anyway (an older page's) brings back the name
// form with the reason, and so does one kept from before after a reload; the name changes from the
// header; a chat line with a bidi override is refused by the page and by the server
// (`invalid_text`); a 200-letter chat line wraps inside the ready check, which stays centred; the
// lobby's "Guarda" fits its button and "In gioco" one line.
import assert from 'node:assert/strict';
import { until, sleep } from './lib/harness.mjs';
import { fillField } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'names and chat lines checked as the server does, changing one\'s name (390x844, Italian)';

const ONLINE = '[data-testid=conn-state]:has-text("In linea")';

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const errors = [];
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pageUrl);

  const refused = async (typed, re, what) => {
    await fillField(page, '[data-testid=name-input]', typed);
    await page.click('[data-testid=enter]');
    await until(async () => re.test(await page.textContent('[data-testid=name-error]').catch(() => '')), { timeout: 5000, what });
    assert.equal(await page.$('[data-testid=conn-state]'), null, `${what}: nothing sent`);
  };
  await refused('A'.repeat(40), /al massimo 32 caratteri \(questo ne ha 40\)/, 'the 40-letter name refused');
  await refused('👨\u200D👩\u200D👧', /emoji unite in una/, 'the emoji family refused');
  await refused('Ann\u200Fa', /direzione del testo \(bidi\)/, 'the bidi mark refused');
  await page.screenshot({ path: shots('name-refused-phone-it.png') });

  // A refused name kept by an older page: after a reload, the form says why; no reconnecting.
  await page.evaluate(() => localStorage.setItem('burraco.name', 'B'.repeat(40)));
  await page.reload();
  await page.waitForSelector('[data-testid=name-error]');
  await sleep(800);
  assert.equal(await page.$('[data-testid=conn-state]'), null, 'a kept bad name is not sent');

  await fillField(page, '[data-testid=name-input]', '  Nina   Rossi ');
  await page.click('[data-testid=enter]');
  await page.waitForSelector(ONLINE);
  assert.equal((await page.textContent('[data-testid=change-name]')).replace('✎', '').trim(), 'Nina Rossi', 'the name as the server makes it');
  // Everything in the header fits the phone (the language buttons last).
  const header = await page.evaluate(() => ({ right: Math.max(...[...document.querySelectorAll('.header-right > *')].map((e) => e.getBoundingClientRect().right)), width: innerWidth }));
  assert.ok(header.right <= header.width, `the header fits: ${JSON.stringify(header)}`);

  // A name the server refuses all the same (sent past the page's check): the form comes back
  // with the reason in Italian, and the page does not try again and again.
  await page.evaluate(() => { const app = /** @type {any} */ (window).__burraco; app.conn.close(); app.conn = null; app.name = 'C'.repeat(40); app.connect(); });
  await page.waitForSelector('[data-testid=name-error]');
  assert.match(await page.textContent('[data-testid=name-error]'), /Il server non ha accettato quel nome/);
  await sleep(1500);
  assert.equal(await page.$('[data-testid=conn-state]'), null, 'no reconnecting with a refused name');
  await fillField(page, '[data-testid=name-input]', 'Nina Rossi');
  await page.click('[data-testid=enter]');
  await page.waitForSelector(ONLINE);

  // Changing the name, from the header: a new session under the new name.
  await page.click('[data-testid=change-name]');
  await page.waitForSelector('[data-testid=change-name-cancel]');
  assert.match(await page.textContent('.login-card'), /nuova sessione/);
  await fillField(page, '[data-testid=name-input]', 'Nina Bianchi');
  await page.click('[data-testid=enter]');
  await page.waitForSelector(ONLINE);
  await until(async () => (await page.textContent('[data-testid=change-name]')).includes('Nina Bianchi'), { timeout: 5000, what: 'the new name in the header' });
  const welcome = await page.evaluate(() => /** @type {any} */ (window).__burraco.conn.frames.map((f) => JSON.parse(f)).find((m) => m.type === 'welcome'));
  assert.equal(welcome.name, 'Nina Bianchi', 'the server knows the new name');
  assert.equal(welcome.resumed, false);

  // The lobby on this phone: a table in play lists "Guarda" inside its button and "In gioco" on one line.
  const host = new Bot(wsUrl, 'Zeno');
  await host.connect();
  const playing = await host.request('create_table', { settings: { preset: 'fitab', players: 2 }, private: false, bots: 'random' });
  await host.request('ready', { table: playing.table });
  await until(async () => {
    await page.click('[data-action=refresh]');
    return page.$(`[data-testid=table-row][data-table="${playing.table}"] .status-playing`);
  }, { timeout: 10000, interval: 500, what: 'the table in play listed' });
  const fits = await page.$eval(`[data-testid=table-row][data-table="${playing.table}"]`, (row) => {
    const watch = /** @type {HTMLElement} */ (row.querySelector('[data-action=watch]'));
    const status = /** @type {HTMLElement} */ (row.querySelector('.status'));
    return { watch: [watch.textContent.trim(), watch.scrollWidth, watch.clientWidth], status: [status.textContent, status.getClientRects().length, status.offsetHeight, parseFloat(getComputedStyle(status).lineHeight) || 20] };
  });
  assert.equal(fits.watch[0], 'Guarda');
  assert.ok(fits.watch[1] <= fits.watch[2] + 1, `"Guarda" inside its button: ${JSON.stringify(fits)}`);
  assert.equal(fits.status[1], 1, `"In gioco" on one line: ${JSON.stringify(fits)}`);
  host.close();

  // Chat in the ready check: a bidi override refused by the page and by the server; a 200-letter
  // word wraps inside the panel.
  await page.click('[data-testid=create]');
  await page.waitForSelector('[data-testid=ready-check]');
  await fillField(page, '[data-testid=chat-input]', 'ciao \u202Eolleh\u202C');
  await page.press('[data-testid=chat-input]', 'Enter');
  await until(async () => /Un messaggio non può contenere caratteri invisibili/.test(await page.textContent('[data-testid=message]').catch(() => '')), { timeout: 5000, what: 'the bidi chat refused by the page' });
  const table = await page.evaluate(() => /** @type {any} */ (window).__burraco.table.table);
  const ugo = new Bot(wsUrl, 'Ugo');
  await ugo.connect();
  await ugo.join({ table });
  const code = await ugo.request('chat', { table, text: 'ciao \u202Eolleh\u202C', phrase: null }).then(() => 'accepted', (e) => e.code);
  assert.equal(code, 'invalid_text', 'the server refuses the bidi chat line');
  await fillField(page, '[data-testid=chat-input]', 'x'.repeat(200));
  await page.press('[data-testid=chat-input]', 'Enter');
  await until(async () => (await page.textContent('[data-testid=chat]')).includes('x'.repeat(200)), { timeout: 5000, what: 'the long line in the chat' });
  const box = await page.$eval('[data-testid=ready-check]', (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, width: innerWidth }; });
  assert.ok(box.left >= 0 && box.right <= box.width, `the ready check inside the window: ${JSON.stringify(box)}`);
  assert.ok(Math.abs(box.left - (box.width - box.right)) <= 2, `the ready check centred: ${JSON.stringify(box)}`);
  await page.screenshot({ path: shots('chat-long-line-phone-it.png') });
  ugo.close();
  assert.equal(errors.length, 0, errors.join('\n'));
  await ctx.close();
}
