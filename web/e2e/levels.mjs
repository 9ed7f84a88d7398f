// Levels beside names and the expected result of a rated match (issue 21), on a server of the
// test's own (its data dir is where the test writes two ratings: an established rating takes tens
// of rated matches to earn). Anna (1760, deviation 60: "Expert") and Bruno (provisional: no level)
// are accounts. Checked: Anna at 1366x768 in English creates a rated head-to-head table and sees
// her level at the ready check; Bruno at 390x844 in Italian sees the table in the lobby marked
// rated, with Anna's level ("Esperto") by the seat count (the names column is hidden on a phone),
// and a guest's desktop lobby in English beside her name ("Expert"); he joins,
// and both ready checks show each side's expected VP as `GET /api/tables/{id}/expected` gives it
// (Anna's above 10, the two adding up to 20, the Italian with a decimal comma); once the match
// starts the level stays beside Anna's name at her seat on both pages. Both accounts connect from
// loopback: the table names them in its `same_address` notice (protocol 1.7) on both pages, in
// each page's language, at the ready check and in play. Every text at WCAG AA, the phone never
// scrolls sideways.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer } from './lib/harness.mjs';
import { clientFromDisk, signUp } from './lib/disk-client.mjs';
import { assertContrast } from './lib/contrast.mjs';

export const name = 'levels beside names (lobby, ready check, seats) and the expected VP of a rated match (EN desktop, IT phone)';

/**
 * A page signed in as `token`'s account, entered in the lobby.
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
  await page.waitForSelector('[data-testid=create-rated]');
  return { ctx, page };
}

/** Whether the page scrolls sideways. @param {import('playwright-core').Page} page */
function sideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
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
    // Anna established at 1760 (Expert, docs/RATINGS.md "Levels"), Bruno provisional.
    const now = Date.now();
    execFileSync('sqlite3', [join(server.data, 'burraco.sqlite3'),
      `INSERT INTO ratings (subject, category, member_a, member_b, bot, rating, deviation, volatility, matches, last_ms) VALUES
       ('${anna.id}', 'two', '${anna.id}', NULL, 0, 1760, 60, 0.06, 40, ${now}),
       ('${bruno.id}', 'two', '${bruno.id}', NULL, 0, 1610, 200, 0.06, 3, ${now});`]);

    // Anna, desktop, English: a rated head-to-head table; her level at the ready check.
    const a = await signedInPage(browser, base, anna.token, annaName, { width: 1366, height: 768 }, 'en-GB', errors);
    await a.page.selectOption('[data-testid=create-players]', '2');
    await a.page.check('[data-testid=create-rated]');
    await a.page.waitForFunction(() => !document.querySelector('[data-testid=create-bots]'));
    await a.page.click('[data-testid=create]');
    await a.page.waitForSelector('[data-testid=ready-check] [data-testid=level-badge][data-level=expert]:has-text("Expert")');
    const table = await a.page.evaluate(() => /** @type {any} */ (window).__burraco.table.table);
    const annaSeat = await a.page.evaluate(() => /** @type {any} */ (window).__burraco.table.you);
    // No forecast while a seat is free, and none for a table that does not exist.
    const alone = await (await fetch(`${base}/api/tables/${table}/expected`)).json();
    assert.deepEqual(alone, { table, rated: true, category: 'two', expected: [] });
    assert.equal(await a.page.locator('[data-testid=expected-vp]').count(), 0);
    const unknown = await fetch(`${base}/api/tables/t-nonexistent/expected`);
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).code, 'unknown_table');

    // Bruno, phone, Italian: the lobby marks the table rated and shows Anna's level.
    const b = await signedInPage(browser, base, bruno.token, brunoName, { width: 390, height: 844 }, 'it-IT', errors);
    const row = `[data-testid=table-row][data-table="${table}"]`;
    await b.page.waitForSelector(`${row} [data-testid=rated-chip]:has-text("Valida per il punteggio")`);
    // On a phone the names column is hidden: the level shows by the seat count, with its seat.
    const visibleBadge = `${row} [data-testid=level-badge]:visible`;
    await b.page.waitForSelector(`${visibleBadge}:has-text("Esperto")`);
    assert.equal(await b.page.locator(visibleBadge).count(), 1, 'one level in the row: Anna\'s');
    assert.equal(await b.page.getAttribute(visibleBadge, 'title'), 'Livello Esperto');
    assert.equal((await b.page.textContent(`${row} .row-level`))?.replace(/\s+/g, ' '), `${annaSeat}Livello Esperto`);
    assert.equal(await sideways(b.page), false, 'the lobby does not scroll sideways on a phone');
    await assertContrast(b.page, 'the lobby with a level (390x844, Italian)');
    await b.page.screenshot({ path: shots('levels-lobby-phone-it.png') });

    // A guest's lobby on a desktop, in English: the level beside Anna's name.
    const g = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
    const gp = await g.newPage();
    gp.on('pageerror', (e) => errors.push(e.message));
    await gp.goto(`${base}/`);
    await gp.fill('[data-testid=name-input]', 'Guido');
    await gp.click('[data-testid=enter]');
    const chip = `${row} td.names .seat-chip:has-text("${annaName}")`;
    await gp.waitForSelector(`${chip} [data-testid=level-badge][data-level=expert]:has-text("Expert")`);
    assert.equal(await gp.locator(`${row} [data-testid=level-badge]:visible`).count(), 1, 'one level in the row');
    await gp.waitForSelector(`${row} [data-testid=rated-chip]:has-text("Rated")`);
    await assertContrast(gp, 'the lobby with a level (1366x768, English)');
    await gp.screenshot({ path: shots('levels-lobby-desktop-en.png') });
    await g.close();

    // He joins: both ready checks show the expected VP, as the endpoint says.
    await b.page.click(`${row} [data-action=join]`);
    await b.page.waitForSelector('[data-testid=ready-check] [data-testid=expected-vp] >> nth=1');
    const api = await (await fetch(`${base}/api/tables/${table}/expected`)).json();
    assert.equal(api.rated, true);
    assert.equal(api.category, 'two');
    const vp = Object.fromEntries(api.expected.map((/** @type {any} */ e) => [e.seat, e.vp]));
    const brunoSeat = annaSeat === 'S' ? 'N' : 'S';
    assert.ok(vp[annaSeat] > 10 && vp[annaSeat] < 20, `Anna, the stronger, expects more: ${JSON.stringify(api)}`);
    assert.ok(Math.abs(vp[annaSeat] + vp[brunoSeat] - 20) < 0.11, 'the two sides\' expectations add up to 20');
    await a.page.waitForSelector('[data-testid=ready-check] [data-testid=expected-vp] >> nth=1');
    const shown = async (/** @type {import('playwright-core').Page} */ page) => page.$$eval('[data-testid=ready-check] [data-testid=expected-vp]',
      (els) => els.map((e) => [/** @type {HTMLElement} */ (e).dataset.vp, e.textContent]));
    const en = await shown(a.page), it = await shown(b.page);
    assert.deepEqual(en.map((x) => Number(x[0])).sort(), [vp.N, vp.S].sort());
    assert.ok(en.some(([, text]) => text === `Expected ${vp[annaSeat].toFixed(1)} VP`), JSON.stringify(en));
    assert.ok(it.some(([, text]) => text === `Previsti ${vp[annaSeat].toFixed(1).replace('.', ',')} PV`), JSON.stringify(it));
    // Both accounts connect from loopback: the rated table says so (protocol 1.7 `same_address`)
    // by their names, never an address, on both pages.
    await a.page.waitForSelector(`[data-testid=same-address]:has-text("connected from one address")`);
    await b.page.waitForSelector(`[data-testid=same-address]:has-text("collegati dallo stesso indirizzo")`);
    for (const page of [a.page, b.page]) {
      const said = (await page.textContent('[data-testid=same-address]')) ?? '';
      assert.ok(said.includes(annaName) && said.includes(brunoName), `both players named: ${said}`);
      assert.ok(!said.includes('127.0.0.1'), 'never the address');
    }
    // Bruno is provisional: no level beside his name, Anna's beside hers, on both pages.
    for (const page of [a.page, b.page]) {
      assert.equal(await page.locator('[data-testid=ready-check] [data-testid=level-badge]').count(), 1);
    }
    await assertContrast(a.page, 'the ready check of a rated table (1366x768, English)');
    await assertContrast(b.page, 'the ready check of a rated table (390x844, Italian)');
    assert.equal(await sideways(b.page), false, 'the ready check does not scroll sideways on a phone');
    await a.page.screenshot({ path: shots('levels-ready-desktop-en.png') });
    await b.page.screenshot({ path: shots('levels-ready-phone-it.png') });

    // The match starts: Anna's level stays beside her name, at her seat on Bruno's page and
    // beside her own name under her hand on hers; none for Bruno.
    await a.page.click('[data-testid=ready]');
    await b.page.click('[data-testid=ready]');
    for (const page of [a.page, b.page]) {
      await page.waitForFunction(() => /** @type {any} */ (window).__burraco?.table?.hand != null, null, { timeout: 15000 });
      // The model has the hand before the next frame renders it: wait for the page, not the model.
      await page.waitForSelector('[data-testid=hand-card]');
      assert.equal(await page.locator('[data-testid=expected-vp]').count(), 0, 'the forecast is for before the match');
    }
    await b.page.waitForSelector(`[data-testid=seat-${annaSeat}] [data-testid=level-badge][data-level=expert]:has-text("Esperto")`);
    await a.page.waitForSelector('.me-line [data-testid=level-badge][data-level=expert]:has-text("Expert")');
    assert.equal(await a.page.locator(`[data-testid=seat-${brunoSeat}] [data-testid=level-badge]`).count(), 0, 'no level for a provisional rating');
    assert.equal(await b.page.locator('.me-line [data-testid=level-badge]').count(), 0, 'no level for a provisional rating');
    // Still said at the table in play (the server sends it again after each snapshot).
    await b.page.waitForSelector(`[data-testid=same-address]:has-text("${annaName}")`);
    await assertContrast(a.page, 'a rated table with a level at a seat (1366x768, English)');
    await assertContrast(b.page, 'a rated table with a level at a seat (390x844, Italian)');
    await a.page.screenshot({ path: shots('levels-table-desktop-en.png') });
    await b.page.screenshot({ path: shots('levels-table-phone-it.png') });
    await a.ctx.close();
    await b.ctx.close();
    assert.deepEqual(errors, [], 'no page errors');
  } finally {
    client.stop();
    await server.stop();
  }
}
