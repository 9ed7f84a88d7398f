// Issue 24, defect 15 and "notifications beyond a beep", at a tournament's round start.
// On a 390x844 phone in Italian: Marta is taken to her table; her opponent's seat is held for
// him and nobody holds it yet ("Andato via (offline)"); when he joins it (a protocol player who
// makes no move and is not ready), Marta sees him here at once: presence follows the connection
// that holds the seat (it used to wait for his first move). At 1366x768 in English, with the
// browser's notification permission granted to the page and the bell on, a round starting while
// Elena looks elsewhere is a desktop notification and the tab's title, which clears when she
// looks again.
import assert from 'node:assert/strict';
import { until } from './lib/harness.mjs';
import { login } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'a round starts: the opponent\'s held seat shows him here once he joins (phone, IT); a notification and the title (desktop, EN)';

async function event(director, label) {
  const created = await director.request('create_tournament', { settings: { name: label, kind: 'singles', rounds: ['danish'], hands: 1, preset: 'fitab',
    max_entrants: 2, seating: 'registration', start_when_full: false, clocks: null, duplicate: false } });
  return { id: created.tournament, key: created.director_token };
}

async function openAndRegister(page, id) {
  await page.click('[data-testid=tab-tournaments]');
  await page.click(`[data-testid=tournament-row][data-tournament="${id}"] [data-testid=open-tournament]`);
  await page.click('[data-testid=register]');
  await page.waitForSelector('[data-testid=my-entrant]');
}

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const errors = [];
  const director = new Bot(wsUrl, 'Direttore', { version: '1.7' });
  await director.connect();

  // ----- the partner's view of a held seat joined (phone, Italian) -----
  const first = await event(director, 'Presenza');
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const marta = await phone.newPage();
  marta.on('pageerror', (e) => errors.push(e.message));
  await login(marta, pageUrl, 'Marta');
  await openAndRegister(marta, first.id);
  const gino = new Bot(wsUrl, 'Gino', { version: '1.7' });
  await gino.connect();
  await gino.registerTournament(first.id, { bot: false });
  await director.request('start_round', { tournament: first.id, director: first.key });
  await until(() => gino.frames.some((f) => f.type === 'go_to_table'), { timeout: 10000, what: 'Gino sent to his table' });
  const go = gino.frames.find((f) => f.type === 'go_to_table');
  // Marta is taken to the table; Gino's seat is held, nobody holds it yet.
  await marta.waitForSelector('[data-testid=ready-check]', { timeout: 15000 });
  await marta.waitForSelector(`.ready-row[data-seat="${go.seat}"] [data-testid=ready-gone]`, { timeout: 5000 });
  assert.match(await marta.textContent(`.ready-row[data-seat="${go.seat}"]`), /Andato via/);
  // He joins his seat: no move, not ready. Marta sees him here at once.
  await gino.join({ table: go.table });
  await marta.waitForSelector(`.ready-row[data-seat="${go.seat}"] [data-testid=ready-gone]`, { state: 'detached', timeout: 3000 });
  assert.match(await marta.textContent(`.ready-row[data-seat="${go.seat}"]`), /Non pronto/);
  await marta.screenshot({ path: shots('tournament-presence-phone.png') });
  // Ready, the match starts: his seat at the table is not marked away either.
  await gino.ready();
  await marta.waitForSelector('[data-testid=hand-card]', { timeout: 15000 });
  assert.equal(await marta.$(`[data-testid=seat-warn-${go.seat}]`), null, 'Gino is not shown away at the table');
  gino.close();
  await phone.close();

  // ----- a round starting, told while the player looks elsewhere (desktop, English) -----
  const second = await event(director, 'Notified event');
  const desk = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  await desk.grantPermissions(['notifications']);
  // The notifications the page makes, kept for the test (the real ones are made too); the page
  // looks elsewhere until the test says otherwise.
  await desk.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__notes = [];
    w.__looking = false;
    const Real = w.Notification;
    w.Notification = new Proxy(Real, {
      construct(target, args) {
        w.__notes.push({ title: args[0], body: args[1]?.body });
        return Reflect.construct(target, args);
      },
    });
    document.hasFocus = () => w.__looking;
  });
  const elena = await desk.newPage();
  elena.on('pageerror', (e) => errors.push(e.message));
  await login(elena, pageUrl, 'Elena');
  assert.equal(await elena.evaluate(() => Notification.permission), 'granted', 'the permission granted to the page');
  await elena.click('[data-testid=notify]');
  await elena.waitForSelector('[data-testid=notify][aria-pressed=true]');
  await openAndRegister(elena, second.id);
  const tino = new Bot(wsUrl, 'Tino', { version: '1.7' });
  await tino.connect();
  await tino.registerTournament(second.id, { bot: false });
  await director.request('start_round', { tournament: second.id, director: second.key });
  await until(async () => (await elena.evaluate(() => /** @type {any} */ (window).__notes)).length > 0, { timeout: 10000, what: 'a notification' });
  const notes = await elena.evaluate(() => /** @type {any} */ (window).__notes);
  assert.equal(notes.length, 1, JSON.stringify(notes));
  assert.equal(notes[0].title, 'Round 1 has started');
  assert.match(notes[0].body, /^Notified event — Table t-/);
  await until(async () => /^● Round 1: your table is ready — /.test(await elena.title()), { timeout: 5000, what: 'the tab\'s title' });
  await elena.waitForSelector('[data-testid=ready-check]', { timeout: 15000 });
  // She looks at the page again: the title is the page's own.
  await elena.evaluate(() => { /** @type {any} */ (window).__looking = true; window.dispatchEvent(new Event('focus')); });
  await until(async () => !(await elena.title()).startsWith('●'), { timeout: 5000, what: 'the title cleared' });
  tino.close();
  await desk.close();
  director.close();
  assert.deepEqual(errors, []);
}
