// Issue 24, "a chat for a tournament" (protocol 1.7): two entrants on the event's page, one at
// 1366x768 in English, one on a 390x844 phone in Italian. A line one writes reaches the other;
// the director's line (said over the protocol with its key) is marked "Director" / "Direttore";
// a line with a bidi override is refused by the page as the server would refuse it; a reload
// shows the recent lines again (the server's history); the panel fits the phone.
import assert from 'node:assert/strict';
import { until } from './lib/harness.mjs';
import { login, fillField } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'a tournament\'s chat: entrants and the director, both languages, a reload keeps the lines';

/** Opens tournament `id`'s page from the Tournaments tab and registers. */
async function openAndRegister(page, id) {
  await page.click('[data-testid=tab-tournaments]');
  await page.click(`[data-testid=tournament-row][data-tournament="${id}"] [data-testid=open-tournament]`);
  await page.click('[data-testid=register]');
  await page.waitForSelector('[data-testid=my-entrant]');
  await page.waitForSelector('[data-testid=tour-chat]');
}

/** The chat's lines as the page shows them. */
function lines(page) {
  return page.$$eval('[data-testid=tour-chat-line]', (els) => els.map((e) => e.textContent.replace(/\s+/g, ' ').trim()));
}

async function say(page, text) {
  await fillField(page, '[data-testid=t-chat-input]', text);
  await page.click('[data-testid=t-chat-send]');
}

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const director = new Bot(wsUrl, 'Arbitro', { version: '1.7' });
  await director.connect();
  const created = await director.request('create_tournament', { settings: { name: 'Chatty event', kind: 'singles', rounds: ['danish'], hands: 1, preset: 'fitab',
    max_entrants: 4, seating: 'registration', start_when_full: false, clocks: null, duplicate: false } });
  const id = created.tournament, key = created.director_token;

  const errors = [];
  const desk = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  const elena = await desk.newPage();
  elena.on('pageerror', (e) => errors.push(e.message));
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const marco = await phone.newPage();
  marco.on('pageerror', (e) => errors.push(e.message));
  await login(elena, pageUrl, 'Elena');
  await login(marco, pageUrl, 'Marco');
  await openAndRegister(elena, id);
  await openAndRegister(marco, id);
  assert.match(await marco.textContent('[data-testid=tour-chat] h2'), /Chat del torneo/);
  assert.match(await marco.textContent('[data-testid=tour-chat]'), /Ancora nessun messaggio/);

  // An entrant's line reaches the other entrant.
  await say(elena, 'Good luck everyone');
  await until(async () => (await lines(marco)).some((l) => l === 'Elena: Good luck everyone'), { timeout: 5000, what: 'Elena\'s line on Marco\'s phone' });
  await until(async () => (await elena.inputValue('[data-testid=t-chat-input]')) === '', { timeout: 5000, what: 'the field emptied once sent' });
  // The director's line, marked as the director's in each language.
  await director.request('tournament_chat', { tournament: id, director: key, text: 'Round 1 starts in five minutes' });
  await until(async () => (await lines(marco)).some((l) => /^Arbitro Direttore: Round 1 starts in five minutes$/.test(l)), { timeout: 5000, what: 'the director\'s line, Italian' });
  await until(async () => (await lines(elena)).some((l) => /^Arbitro Director: Round 1 starts in five minutes$/.test(l)), { timeout: 5000, what: 'the director\'s line, English' });
  // A bidi override would turn the line around: the page refuses it as the server does, in Italian.
  await say(marco, 'Bidi \u202Eevil\u202C name');
  const toast = await marco.waitForSelector('[data-testid=message].toast-error', { timeout: 5000 });
  assert.match(await toast.textContent(), /bidi|invisibil|caratteri/i);
  assert.equal((await lines(marco)).length, 2, 'the refused line was not sent');
  await say(marco, 'Ciao a tutti');
  await until(async () => (await lines(elena)).some((l) => l === 'Marco: Ciao a tutti'), { timeout: 5000, what: 'Marco\'s line on Elena\'s page' });

  // The desktop and the phone, each with the three lines; the phone's page does not scroll sideways.
  await elena.screenshot({ path: shots('tournament-chat-desktop.png') });
  const wide = await marco.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 1, `the phone's page is ${wide} px too wide`);
  await marco.$eval('[data-testid=tour-chat]', (el) => el.scrollIntoView());
  await marco.screenshot({ path: shots('tournament-chat-phone.png') });

  // A reload: the page asks the server for the recent lines.
  await marco.reload();
  await marco.waitForSelector('[data-testid=tour-chat]', { timeout: 10000 });
  await until(async () => (await lines(marco)).length === 3, { timeout: 5000, what: 'the three lines after a reload' });
  assert.deepEqual(await lines(marco), ['Elena: Good luck everyone', 'Arbitro Direttore: Round 1 starts in five minutes', 'Marco: Ciao a tutti']);
  assert.deepEqual(errors, []);
  await desk.close();
  await phone.close();
  director.close();
}
