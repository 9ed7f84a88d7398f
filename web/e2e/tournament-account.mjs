// A tournament director who is an account, on a new device, and levels beside entrants' names
// (protocol 1.7), at 1366x768 in English, on a server of the test's own (its data dir is where
// the test writes an established rating). Anna (1760, deviation 60: "Expert") creates a
// tournament from the Tournaments tab (that tab holds the key) and registers; a second browser
// context, signed in as Anna by a separate sign-in and holding no key, opens the tournament's
// page, sees the director's panel without typing the key, and pauses and resumes the event;
// Bruno, another account, sees no panel, only the place to paste a key. Anna's level shows
// beside her name on the entry list, none beside Bruno's (provisional).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer } from './lib/harness.mjs';
import { clientFromDisk, signUp } from './lib/disk-client.mjs';
import { fillField } from './lib/page.mjs';
import { assertContrast } from './lib/contrast.mjs';

export const name = 'a director account on a new device directs without the key; levels beside entrants (1366x768, English)';

/** A second session of `username` (another device's sign-in): its cookie's value. @param {string} base @param {string} username */
async function signIn(base, username) {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'correct horse battery' }),
  });
  assert.equal(res.status, 200, `sign-in of ${username}: ${res.status}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0].split('=')[1];
}

/**
 * A desktop page in English signed in with `token`, entered in the lobby, on the Tournaments tab.
 * @param {import('playwright-core').Browser} browser @param {string} base @param {string} token @param {string} user @param {string[]} errors
 */
async function signedInPage(browser, base, token, user, errors) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
  await ctx.addCookies([{ name: 'burraco_session', value: token, domain: 'localhost', path: '/' }]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  await page.fill('[data-testid=name-input]', user);
  await page.click('[data-testid=enter]');
  // Signed in: the lobby offers rated play to accounts only.
  await page.waitForSelector('[data-testid=create-rated]');
  await page.click('[data-testid=tab-tournaments]');
  return { ctx, page };
}

/** Opens tournament `id` from the Tournaments tab. @param {import('playwright-core').Page} page @param {string} id */
async function openTournament(page, id) {
  await page.click(`[data-testid=tournament-row][data-tournament="${id}"] [data-testid=open-tournament]`);
  await page.waitForSelector(`[data-testid=tournament-page][data-tournament="${id}"] [data-testid=tournament-status]`);
}

export async function run({ browser, shots }) {
  const server = await startServer();
  const client = await clientFromDisk(server.addr);
  const base = client.base;
  /** @type {string[]} */
  const errors = [];
  try {
    const stamp = Date.now().toString(36);
    const annaName = `anna_${stamp}`, brunoName = `bruno_${stamp}`;
    const anna = await signUp(base, annaName);
    const bruno = await signUp(base, brunoName);
    const now = Date.now();
    execFileSync('sqlite3', [join(server.data, 'burraco.sqlite3'),
      `INSERT INTO ratings (subject, category, member_a, member_b, bot, rating, deviation, volatility, matches, last_ms) VALUES
       ('${anna.id}', 'two', '${anna.id}', NULL, 0, 1760, 60, 0.06, 40, ${now}),
       ('${bruno.id}', 'two', '${bruno.id}', NULL, 0, 1610, 200, 0.06, 3, ${now});`]);

    // Anna's first device creates a head-to-head event from the form: this tab holds the key.
    const a = await signedInPage(browser, base, anna.token, annaName, errors);
    await a.page.waitForSelector('[data-testid=create-tournament-form]');
    await fillField(a.page, '[data-testid=t-name]', 'Account cup');
    await a.page.selectOption('[data-testid=t-kind]', 'singles');
    await fillField(a.page, '[data-testid=t-hands]', '1');
    await fillField(a.page, '[data-testid=t-max]', '4');
    await a.page.click('[data-testid=t-create]');
    await a.page.waitForSelector('[data-testid=director-panel] [data-testid=dir-key]');
    const id = /** @type {string} */ (await a.page.getAttribute('[data-testid=tournament-page]', 'data-tournament'));
    const record = await (await fetch(`${base}/api/tournaments/${id}`)).json();
    assert.equal(record.director_account, anna.id, 'the record names the director\'s account');
    await a.page.click('[data-testid=register]');
    await a.page.waitForSelector('[data-testid=my-entrant]');

    // A new device: Anna signed in again, no key in this browser.
    const annaAgain = await signIn(base, annaName);
    assert.notEqual(annaAgain, anna.token, 'a session of its own');
    const d = await signedInPage(browser, base, annaAgain, annaName, errors);
    await openTournament(d.page, id);
    await d.page.waitForSelector('[data-testid=director-panel] [data-testid=dir-as-account]');
    assert.equal(await d.page.locator('[data-testid=dir-key]').count(), 0, 'no key shown: this device has none');
    assert.equal(await d.page.locator('[data-testid=dir-key-entry]').count(), 0, 'nothing to paste');
    assert.equal(await d.page.evaluate((t) => sessionStorage.getItem(`burraco.director.${t}`), id), null, 'no key stored here');
    // Anna's level beside her name on the entry list.
    await d.page.waitForSelector('[data-testid=entrant] [data-testid=level-badge][data-level=expert]:has-text("Expert")');
    // She directs: pause, then resume.
    await d.page.click('[data-testid=dir-pause]');
    await d.page.waitForSelector('[data-testid=tournament-paused]');
    assert.equal((await (await fetch(`${base}/api/tournaments/${id}`)).json()).paused, true, 'the server paused it');
    await assertContrast(d.page, 'the director\'s panel of an account on a new device (1366x768, English)');
    await d.page.screenshot({ path: shots('tournament-director-account-desktop-en.png') });
    await d.page.click('[data-testid=dir-resume]');
    await d.page.waitForSelector('[data-testid=dir-pause]');
    assert.equal((await (await fetch(`${base}/api/tournaments/${id}`)).json()).paused, false, 'the server resumed it');

    // Bruno, another account: no panel, only the place to paste a key; he registers, no level.
    const b = await signedInPage(browser, base, bruno.token, brunoName, errors);
    await openTournament(b.page, id);
    await b.page.waitForSelector('[data-testid=dir-key-entry]');
    assert.equal(await b.page.locator('[data-testid=director-panel]').count(), 0, 'no director\'s panel for another account');
    await b.page.click('[data-testid=register]');
    await b.page.waitForSelector('[data-testid=my-entrant]');
    const brunoEntrant = await b.page.getAttribute('[data-testid=my-entrant]', 'data-entrant');
    await b.page.waitForSelector('[data-testid=entrant] [data-testid=level-badge][data-level=expert]');
    assert.equal(await b.page.locator(`[data-testid=entrant][data-entrant="${brunoEntrant}"] [data-testid=level-badge]`).count(), 0, 'no level for a provisional rating');
    const levels = await (await fetch(`${base}/api/tournaments/${id}/levels`)).json();
    assert.deepEqual(levels.entrants.map((/** @type {any} */ e) => e.levels), [['expert'], [null]]);
    await a.ctx.close();
    await d.ctx.close();
    await b.ctx.close();
    assert.deepEqual(errors, [], 'no page errors');
  } finally {
    client.stop();
    await server.stop();
  }
}
