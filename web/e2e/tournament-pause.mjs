// Issue 24, defect 5: the director's pause reaches the tables. A head-to-head event of two (a
// person in the browser, 1366x768 in English, against a protocol player), federation clocks and a
// 10-minute round: on the person's turn the director pauses; the table says "Paused by the
// director", its move clock and round clock stand still (the same text two seconds apart), and so
// does the tournament strip's round timer. On resume the banner goes, the clocks count down again
// from where they stood, and the table's round clock agrees with the tournament's round timer.
// Then, on a phone in Italian, another person sees the table labelled with its event in the
// lobby, watches it from the tournament's page ("Guarda" beside the round's table) and sees the
// next pause there.
import assert from 'node:assert/strict';
import { until, sleep } from './lib/harness.mjs';
import { login, isMyTurn } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'a director\'s pause holds the clocks of the tables and resumes them in agreement';

/** "m:ss" (or "h:mm:ss") as seconds. @param {string} text */
function seconds(text) {
  return text.trim().split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const errors = [];
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page, pageUrl, 'Paola');

  const director = new Bot(wsUrl, 'Direttore', { version: '1.6' });
  await director.connect();
  const created = await director.request('create_tournament', { settings: { name: 'Paused event', kind: 'singles', rounds: ['danish'], hands: 2, preset: 'fitab',
    max_entrants: 2, seating: 'registration', start_when_full: false, clocks: 'federation', duplicate: false } });
  const id = created.tournament, key = created.director_token;
  await director.request('set_round_time', { tournament: id, director: key, round_secs: 600 });

  await page.click('[data-testid=tab-tournaments]');
  await page.click(`[data-testid=tournament-row][data-tournament="${id}"] [data-testid=open-tournament]`);
  await page.click('[data-testid=register]');
  await page.waitForSelector('[data-testid=my-entrant]');
  // The opponent: a protocol player that follows `go_to_table` and plays its turns at once.
  const gino = new Bot(wsUrl, 'Gino', { version: '1.6' });
  await gino.connect();
  await gino.registerTournament(id, { bot: false });
  await director.request('start_round', { tournament: id, director: key });
  await until(() => gino.frames.some((f) => f.type === 'go_to_table'), { timeout: 10000, what: 'the opponent sent to its table' });
  const go = gino.frames.find((f) => f.type === 'go_to_table');
  await gino.join({ table: go.table });
  await gino.ready();

  // The person is taken to the table; ready when asked, then her turn.
  await page.waitForSelector('[data-testid=tour-strip]', { timeout: 15000 });
  await page.waitForSelector('[data-testid=ready], [data-testid=hand-card]', { timeout: 15000 });
  // By selector, not by a handle: the page re-renders every frame, and a handle found a frame
  // before can be detached by the time it is clicked (CI saw it once).
  if (!(await page.$('[data-testid=hand-card]'))) await page.click('[data-testid=ready]');
  await until(() => isMyTurn(page), { timeout: 30000, what: 'Paola\'s turn' });
  await page.waitForSelector('.round-clock [data-deadline]');

  await director.request('pause_tournament', { tournament: id, director: key });
  await page.waitForSelector('[data-testid=table-paused]', { timeout: 5000 });
  assert.match(await page.textContent('[data-testid=table-paused]'), /Paused by the director/);
  await page.waitForSelector('[data-testid=move-clock-held]');
  await page.waitForSelector('[data-testid=round-timer-held]');
  const still = async () => ({
    move: await page.textContent('[data-testid=move-clock-held]'),
    round: await page.textContent('[data-testid=round-clock-held]'),
    strip: await page.textContent('[data-testid=round-timer-held]'),
  });
  const before = await still();
  assert.match(before.move, /^\d+:\d\d$/);
  assert.ok(seconds(before.round) > 590 && seconds(before.round) <= 600, `the round clock held at ${before.round}`);
  await sleep(2000);
  assert.deepEqual(await still(), before, 'no clock moves while paused');
  await page.screenshot({ path: shots('tournament-paused.png'), animations: 'disabled' });

  await director.request('resume_tournament', { tournament: id, director: key });
  await page.waitForSelector('[data-testid=table-paused]', { state: 'detached', timeout: 5000 });
  const running = await page.waitForSelector('.round-clock [data-deadline]');
  await until(async () => (await page.$('[data-testid=round-timer-held]')) === null, { timeout: 5000, what: 'the strip\'s timer running again' });
  const table = seconds(await running.textContent());
  assert.ok(Math.abs(table - seconds(before.round)) <= 2, `the round clock goes on from ${before.round}: ${table}`);
  // The tournament's round timer (the strip) and the table's agree, to the ready check's seconds.
  const strip = seconds(await page.textContent('[data-testid=tour-strip] [data-round-ends]'));
  assert.ok(Math.abs(strip - table) <= 5, `the tournament says ${strip} s left, the table ${table} s`);
  await sleep(1500);
  assert.ok(seconds(await page.textContent('.round-clock [data-deadline]')) < table, 'the round clock counts down again');

  // On a phone, in Italian: the tournament's page lists the round's table with "Guarda", which
  // watches it as the lobby's does; a pause shows there too.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const watcher = await phone.newPage();
  watcher.on('pageerror', (e) => errors.push(e.message));
  await login(watcher, pageUrl, 'Vera');
  // The lobby labels the round's table with its event.
  const label = await watcher.waitForSelector(`[data-testid=table-row][data-table="${go.table}"] [data-testid=tour-label]`, { timeout: 15000 });
  assert.match(await label.textContent(), /Paused event/);
  await watcher.screenshot({ path: shots('lobby-tournament-label-phone.png') });
  await watcher.click('[data-testid=tab-tournaments]');
  await watcher.click(`[data-testid=tournament-row][data-tournament="${id}"] [data-testid=open-tournament]`);
  const watch = await watcher.waitForSelector(`[data-testid=result-row][data-table="${go.table}"] [data-testid=tour-watch]`);
  assert.equal((await watch.textContent()).trim(), 'Guarda');
  await watch.click();
  await watcher.waitForSelector('[data-testid=spectating]');
  assert.equal(await watcher.evaluate(() => /** @type {any} */ (window).__burraco.table.table), go.table, 'watching the round\'s table');
  await director.request('pause_tournament', { tournament: id, director: key });
  await watcher.waitForSelector('[data-testid=table-paused]', { timeout: 5000 });
  assert.match(await watcher.textContent('[data-testid=table-paused]'), /Sospeso dal direttore/);
  await page.waitForSelector('[data-testid=table-paused]', { timeout: 5000 });
  await director.request('resume_tournament', { tournament: id, director: key });
  await watcher.waitForSelector('[data-testid=table-paused]', { state: 'detached', timeout: 5000 });

  assert.deepEqual(errors, []);
  director.close(); gino.close();
  await phone.close();
  await ctx.close();
}
