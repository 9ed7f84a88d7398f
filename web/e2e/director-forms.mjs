// What a user study broke in the director's panel and the creating forms, on a 1366x768 desktop in
// English: times in the past (the list closing in 2020, the first round in 2019) are refused by the
// form and by the server (`time_in_past`), and ending the event asks first; a double click on
// "Create the tournament" or "Create" makes one tournament or table, and the server refuses the
// same create again within a moment (`repeated_create`); a tournament name with a bidi override is
// refused by the form and by the server; "Server bots after" -5 is said in words; each way a
// partner code fails has its own words.
import assert from 'node:assert/strict';
import { until } from './lib/harness.mjs';
import { fillField, login, apiGetter } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'director\'s panel and creating forms: past times, double clicks, numbers, partner codes (1366x768)';

/** The toast's text, once it matches `re`. */
async function toastMatching(page, re, what) {
  await until(async () => re.test(await page.textContent('[data-testid=message]').catch(() => '')), { timeout: 5000, what });
  await page.click('[data-action=dismiss]').catch(() => {});
}

/** A refusal's code from a protocol bot's request. */
async function refusedCode(promise) {
  try { await promise; } catch (e) { return e.code; }
  return 'accepted';
}

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const getJson = apiGetter(wsUrl);
  const errors = [];
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, pageUrl, 'Greta');

  // A tournament name with a bidi override: refused by the form, in words, and by the server.
  await page.click('[data-testid=tab-tournaments]');
  await page.waitForSelector('[data-testid=create-tournament-form]');
  await fillField(page, '[data-testid=t-name]', 'Bidi \u202Eevil\u202C name');
  await page.click('[data-testid=t-create]');
  await toastMatching(page, /cannot hold invisible, text-direction \(bidi\)/, 'the bidi name refused by the form');
  const ezio = new Bot(wsUrl, 'Ezio', { version: '1.3' });
  await ezio.connect();
  const settings = { name: 'Bidi \u202Eevil\u202C name', kind: 'pairs', rounds: ['mitchell'], hands: 1, preset: 'fitab', max_entrants: null,
    seating: 'registration', start_when_full: false, clocks: null, duplicate: false };
  assert.equal(await refusedCode(ezio.request('create_tournament', { settings })), 'invalid_settings', 'the server refuses a bidi tournament name');
  // The same create twice at once from one player: the second is refused as a repeat.
  const clean = { ...settings, name: 'Repeat test' };
  const [first, second] = await Promise.allSettled([ezio.request('create_tournament', { settings: clean }), ezio.request('create_tournament', { settings: clean })]);
  assert.equal(first.status, 'fulfilled');
  assert.equal(second.status === 'rejected' && second.reason.code, 'repeated_create', 'an identical create at once is refused');

  // An ordinary event (not a Sit&Go) offers no server bots: they fill only a Sit&Go. Directed
  // here with its key pasted.
  await page.click(`[data-testid=tournament-row][data-tournament="${first.value.tournament}"] [data-testid=open-tournament]`);
  await page.click('[data-testid=dir-key-open]');
  await fillField(page, '[data-testid=dir-key-field]', first.value.director_token);
  await page.click('[data-testid=dir-use-key]');
  await page.waitForSelector('[data-testid=dir-bots-sitgo-only]');
  assert.equal(await page.$('[data-testid=dir-bots-after]'), null, 'no "server bots after" on an ordinary event');
  await page.click('[data-testid=all-tournaments]');

  // A double click on "Create the tournament" (a Sit&Go of 4 pairs): one tournament.
  await fillField(page, '[data-testid=t-name]', 'Double click cup');
  await fillField(page, '[data-testid=t-max]', '4');
  await page.check('[data-testid=t-start-full]');
  // "Fill with bots" chosen when creating it (set on its entry list once created).
  await fillField(page, '[data-testid=t-bots-after]', '600');
  await page.dblclick('[data-testid=t-create]');
  await page.waitForSelector('[data-testid=director-panel]');
  const id = await page.getAttribute('[data-testid=tournament-page]', 'data-tournament');
  await until(async () => (await getJson('/api/tournaments')).some((x) => x.tournament === id), { timeout: 5000, what: 'the tournament listed' });
  assert.equal((await getJson('/api/tournaments')).filter((x) => x.name === 'Double click cup').length, 1, 'one tournament from a double click');
  await until(async () => (await getJson(`/api/tournaments/${id}`)).registration.bots_after_secs === 600, { timeout: 5000, what: 'the bots\' wait chosen at creation' });
  assert.equal(errors.length, 0, errors.join('\n'));

  // The closing time in 2020 and the first round in 2019: refused by the form, nothing changes.
  await fillField(page, '[data-testid=dir-closes]', '2020-01-01T12:00');
  await fillField(page, '[data-testid=dir-starts]', '2019-01-01T12:00');
  await page.click('[data-testid=dir-configure]');
  await toastMatching(page, /"The list closes at" is in the past: choose a later time/, 'the past closing time refused by the form');
  await fillField(page, '[data-testid=dir-closes]', '');
  await page.click('[data-testid=dir-configure]');
  await toastMatching(page, /"The first round starts at" is in the past/, 'the past start refused by the form');
  await page.screenshot({ path: shots('director-past-time.png') });
  // The server refuses it too, with its own code, to anyone holding the director's key.
  const key = (await page.textContent('[data-testid=dir-key]')).trim();
  const past = { open: true, invite_only: false, closes_ms: null, starts_ms: Date.UTC(2019, 0, 1), check_in: false, bots_after_secs: null };
  assert.equal(await refusedCode(ezio.request('configure_registration', { tournament: id, director: key, registration: past })), 'time_in_past');
  assert.equal(await refusedCode(ezio.request('configure_registration', { tournament: id, director: key, registration: { ...past, starts_ms: null, closes_ms: Date.now() - 1000 } })), 'time_in_past');
  const rec = await getJson(`/api/tournaments/${id}`);
  assert.equal(rec.status, 'registering', 'the event is not over');
  assert.equal(rec.registration.starts_ms, null);
  assert.equal(rec.registration.closes_ms, null);
  // A time ahead is taken.
  await fillField(page, '[data-testid=dir-starts]', '2099-01-01T12:00');
  await page.click('[data-testid=dir-configure]');
  const ahead = await page.evaluate(() => new Date('2099-01-01T12:00').getTime());
  await until(async () => (await getJson(`/api/tournaments/${id}`)).registration.starts_ms === ahead, { timeout: 5000, what: 'the future start time set' });

  // "Server bots after" -5: the form says what it takes, nothing is sent.
  await fillField(page, '[data-testid=dir-bots-after]', '-5');
  await page.click('[data-testid=dir-configure]');
  await toastMatching(page, /"Server bots after" is a whole number of seconds/, 'the negative wait refused in words');
  await fillField(page, '[data-testid=dir-bots-after]', '');

  // Ending the event asks first; "No" leaves it as it was.
  // (Pressed again if a re-render of the panel took the first press.)
  await until(async () => { await page.click('[data-testid=dir-end]'); return page.waitForSelector('[data-testid=dir-confirm]', { timeout: 1500 }).catch(() => null); },
    { timeout: 10000, what: 'the question before ending the event' });
  await page.click('[data-testid=dir-confirm-no]');
  await page.waitForSelector('[data-testid=dir-confirm]', { state: 'detached' });
  assert.equal((await getJson(`/api/tournaments/${id}`)).status, 'registering');

  // Partner codes: each way to fail has its words. Greta registers (a pair's first player).
  await page.click('[data-testid=register]');
  const code = (await (await page.waitForSelector('[data-testid=partner-code]')).textContent()).trim();
  // A copy button beside the code, for the message to the partner.
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('[data-testid=copy-partner-code]');
  await toastMatching(page, /^\s*Copied/, 'the partner code copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  const ctx2 = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  const page2 = await ctx2.newPage();
  page2.on('pageerror', (e) => errors.push(e.message));
  await login(page2, pageUrl, 'Ilda');
  await page2.click('[data-testid=tab-tournaments]');
  await page2.click(`[data-testid=tournament-row][data-tournament="${id}"] [data-testid=open-tournament]`);
  await page2.waitForSelector('[data-testid=t-partner]');
  const tryCode = async (typed, re, what) => {
    await fillField(page2, '[data-testid=t-partner]', typed);
    await page2.click('[data-testid=register]');
    await toastMatching(page2, re, what);
  };
  await tryCode('XYZ', /A partner code is 8 characters/, 'a code of the wrong shape');
  await tryCode(code === '12345678' ? '87654321' : '12345678', /No entrant of this tournament has that partner code/, 'an unknown code');
  const fabio = new Bot(wsUrl, 'Fabio', { version: '1.3' });
  await fabio.connect();
  await fabio.registerTournament(id, { partner_code: code, bot: false });
  await tryCode(code.toLowerCase(), /partner code's entrant is already complete/, 'a spent code');
  // The director closes the list: a registration is told the list is closed, not that it started.
  await page.uncheck('[data-testid=dir-open]');
  await page.click('[data-testid=dir-configure]');
  await until(async () => (await getJson(`/api/tournaments/${id}`)).registration.open === false, { timeout: 5000, what: 'the list closed' });
  await page2.click('[data-testid=refresh-tournament]').catch(() => {});
  await fillField(page2, '[data-testid=t-partner]', '');
  await until(async () => (await page2.$('[data-testid=register][disabled]')) !== null, { timeout: 8000, what: 'the register button disabled on a closed list' });
  const late = new Bot(wsUrl, 'Lara', { version: '1.3' });
  await late.connect();
  assert.equal(await refusedCode(late.registerTournament(id, { bot: false })), 'registration_closed');
  assert.equal(await refusedCode(late.registerTournament(id, { partner_code: '00000000', bot: false })), 'registration_closed', 'closed comes before the code');
  late.close(); fabio.close(); ezio.close();
  await ctx2.close();

  // A double click on the lobby's "Create": one table, with Greta in it.
  await page.click('[data-testid=all-tournaments]');
  await page.click('[data-testid=tab-tables]');
  await page.waitForSelector('[data-testid=create]');
  await page.dblclick('[data-testid=create]');
  await page.waitForSelector('[data-testid=ready-check], .table-view', { timeout: 10000 });
  const watcher = new Bot(wsUrl, 'Watcher', { version: '1.3' });
  await watcher.connect();
  await new Promise((r) => setTimeout(r, 500));
  const { tables } = await watcher.request('list_tables');
  const mine = tables.filter((tb) => tb.seats.some((s) => s.name === 'Greta'));
  assert.equal(mine.length, 1, `one table from a double click: ${JSON.stringify(mine.map((x) => x.table))}`);
  watcher.close();
  assert.equal(errors.length, 0, errors.join('\n'));
  await ctx.close();
}
