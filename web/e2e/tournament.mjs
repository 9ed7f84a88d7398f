// A tournament from the browser. First another's pairs event, by invitation and with check-in: the
// page registers with the invitation code, shows the partner code a protocol bot then joins with,
// checks in and unregisters. Then a person creates a duplicate Sit&Go of four head-to-head entrants
// (one round, one hand, fitab) on the Tournaments tab, directs it from its page (pause: a start is
// refused with the page's own wording; the registration set to fill with server bots after 2 s;
// resume), registers, is taken to the table by `go_to_table` (with a notice and the round timer),
// is told there of a director's warning with its reason,
// plays the match by clicks, comes back to the tournament page and sees it finished: the standings,
// the round's results and the duplicate comparison, each checked against the record and the hand
// records fetched over HTTP, and a table's hands opened as a replay. Then a director's adjustment with its reason, shown in the standings
// and the record; the page in Italian, and on a phone the results fitting the screen.
import assert from 'node:assert/strict';
import { until, sleep } from './lib/harness.mjs';
import { waitMyTurnOrEnd, playTurn, fillField, desktopLogin, apiGetter } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'a person creates, directs and plays a duplicate Sit&Go against server bots';

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const getJson = apiGetter(wsUrl);
  const errors = [];
  const { ctx, page } = await desktopLogin(browser, pageUrl, 'Dora', errors);

  // Someone else's pairs event, by invitation, with check-in: Dora registers with the invitation
  // code, gives her partner code to a bot that joins her entrant, checks in, then unregisters.
  const ezio = new Bot(wsUrl, 'Ezio', { version: '1.2' });
  await ezio.connect();
  const pairs = await ezio.request('create_tournament', { settings: { name: 'Pairs by invitation', kind: 'pairs', rounds: ['mitchell'], hands: 1, preset: 'fitab',
    max_entrants: 8, seating: 'registration', start_when_full: false, clocks: null, duplicate: false } });
  const { invite } = await ezio.request('configure_registration', { tournament: pairs.tournament, director: pairs.director_token,
    registration: { open: true, invite_only: true, closes_ms: null, starts_ms: null, check_in: true, bots_after_secs: null } });
  await page.click('[data-testid=tab-tournaments]');
  await page.click(`[data-testid=tournament-row][data-tournament="${pairs.tournament}"] [data-testid=open-tournament]`);
  await page.waitForSelector('[data-testid=tournament-registration]');
  assert.match(await page.textContent('[data-testid=tournament-registration]'), /Registration open · by invitation · check-in required/);
  assert.equal(await page.$('[data-testid=director-panel]'), null, 'no director\'s panel without the token');
  await page.click('[data-testid=register]');
  await until(async () => /By invitation only: the invitation code is missing or wrong/.test(await page.textContent('[data-testid=message]').catch(() => '')), { timeout: 5000, what: 'the refusal without the invitation code' });
  // Closed now: a notice closing by itself re-renders the page, and could take the next click with it.
  await page.click('[data-action=dismiss]');
  await fillField(page, '[data-testid=t-invite]', invite.toLowerCase());
  await page.click('[data-testid=register]');
  const code = (await (await page.waitForSelector('[data-testid=partner-code]')).textContent()).trim();
  assert.match(code, /^[0-9A-F]{8}$/);
  const fabio = new Bot(wsUrl, 'Fabio', { version: '1.2' });
  await fabio.connect();
  assert.equal((await fabio.registerTournament(pairs.tournament, { partner_code: code, invite })).entrant, 0, 'the partner joins Dora\'s entrant');
  await until(async () => /Dora & Fabio/.test(await page.textContent('[data-testid=entrant][data-entrant="0"]').catch(() => '')), { timeout: 5000, what: 'the pair on the list' });
  await page.waitForSelector('[data-testid=partner-code]', { state: 'detached' });
  await page.click('[data-testid=check-in]');
  await page.waitForSelector('[data-testid=checked-in]');
  assert.equal((await getJson(`/api/tournaments/${pairs.tournament}`)).entrants[0].checked_in, true);
  await page.click('[data-testid=unregister]');
  await page.waitForSelector('[data-testid=t-invite]');
  assert.equal((await getJson(`/api/tournaments/${pairs.tournament}`)).entrants[0].unregistered, true);
  ezio.close(); fabio.close();
  await page.click('[data-testid=all-tournaments]');

  // The Tournaments tab: the create form.
  await page.waitForSelector('[data-testid=create-tournament-form]');
  await fillField(page, '[data-testid=t-name]', 'Sit&Go e2e');
  await page.selectOption('[data-testid=t-kind]', 'singles');
  await page.selectOption('[data-testid=t-preset]', 'fitab');
  await fillField(page, '[data-testid=t-round-count]', '1');
  await page.dispatchEvent('[data-testid=t-round-count]', 'change');
  await page.selectOption('[data-testid=t-move-0]', 'danish');
  await fillField(page, '[data-testid=t-hands]', '1');
  await fillField(page, '[data-testid=t-max]', '4');
  await page.selectOption('[data-testid=t-clocks]', 'relaxed');
  await page.check('[data-testid=t-duplicate]');
  await page.check('[data-testid=t-start-full]');
  await page.click('[data-testid=t-create]');

  // Its page, with the director's panel (this tab holds the director token).
  await page.waitForSelector('[data-testid=tournament-page]');
  await page.waitForSelector('[data-testid=director-panel]');
  const id = await page.getAttribute('[data-testid=tournament-page]', 'data-tournament');
  assert.match(id, /^T-[0-9a-f]{10}$/);
  assert.equal(await page.textContent('[data-testid=tournament-name] >> nth=0').then((s) => s.split(' T-')[0].trim()), 'Sit&Go e2e');
  const listed = (await getJson('/api/tournaments')).find((x) => x.tournament === id);
  assert.deepEqual({ ...listed, tournament: undefined }, { tournament: undefined, name: 'Sit&Go e2e', kind: 'singles', status: 'registering', entrants: 0, round: 0, rounds: 1 });
  let rec = await getJson(`/api/tournaments/${id}`);
  assert.deepEqual(rec.settings.rounds, ['danish']);
  assert.equal(rec.settings.duplicate, true);
  assert.equal(rec.settings.start_when_full, true);
  assert.equal(rec.settings.max_entrants, 4);
  assert.equal(rec.settings.hands, 1);

  // A start with nobody registered is refused, in the page's words.
  await page.click('[data-testid=dir-start]');
  await until(async () => /Not now: .*fewer than two complete entrants/.test(await page.textContent('[data-testid=message]').catch(() => '')), { timeout: 5000, what: 'the refused start' });
  await page.click('[data-action=dismiss]');

  // Pause: the badge shows, the record says so, and a start is refused in the page's words.
  await page.click('[data-testid=dir-pause]');
  await page.waitForSelector('[data-testid=tournament-paused]');
  await page.waitForSelector('[data-testid=dir-resume]');
  assert.equal((await getJson(`/api/tournaments/${id}`)).paused, true);
  await page.click('[data-testid=dir-start]');
  await until(async () => /paused: resume it first/.test(await page.textContent('[data-testid=message]').catch(() => '')), { timeout: 5000, what: 'the refused start' });

  // The list fills with server bots 2 s after the first registration (a Sit&Go).
  // With a closing time far ahead (local time in the form, Unix ms in the record).
  await fillField(page, '[data-testid=dir-bots-after]', '2');
  await fillField(page, '[data-testid=dir-closes]', '2099-01-01T12:00');
  const closesMs = await page.evaluate(() => new Date('2099-01-01T12:00').getTime());
  await page.click('[data-testid=dir-configure]');
  await until(async () => (await getJson(`/api/tournaments/${id}`)).registration.bots_after_secs === 2, { timeout: 5000, what: 'the registration configured' });
  const reg = (await getJson(`/api/tournaments/${id}`)).registration;
  assert.equal(reg.closes_ms, closesMs, 'the closing time as set');
  assert.equal(reg.starts_ms, null, 'no start time set');
  await until(async () => (await page.inputValue('[data-testid=dir-closes]')) === '2099-01-01T12:00', { timeout: 5000, what: 'the closing time shown back from the record' });
  await until(async () => /server bots fill the free places 2 s/.test(await page.textContent('[data-testid=tournament-registration]').catch(() => '')), { timeout: 5000, what: 'the registration shown' });

  // The director key: shown to its creator, and pasted in another browser (no sessionStorage of
  // this tab) it directs from there: the round time set there is in the record. Ending the
  // tournament asks first: "No" changes nothing.
  const key = (await page.textContent('[data-testid=dir-key]')).trim();
  assert.match(key, /^[0-9a-f]{32}$/);
  await page.waitForSelector('[data-testid=dir-copy-key]');
  const { ctx: ctx2, page: page2 } = await desktopLogin(browser, pageUrl, 'Ugo', errors);
  await page2.click('[data-testid=tab-tournaments]');
  await page2.click(`[data-testid=tournament-row][data-tournament="${id}"] [data-testid=open-tournament]`);
  await page2.waitForSelector('[data-testid=tournament-page]');
  assert.equal(await page2.$('[data-testid=director-panel]'), null, 'no panel without the key');
  await page2.click('[data-testid=dir-key-open]');
  await fillField(page2, '[data-testid=dir-key-field]', 'not-a-key');
  await page2.click('[data-testid=dir-use-key]');
  await until(async () => /not a director key/.test(await page2.textContent('[data-testid=message]').catch(() => '')), { timeout: 5000, what: 'a malformed key refused' });
  await page2.click('[data-action=dismiss]');
  await fillField(page2, '[data-testid=dir-key-field]', key);
  await page2.click('[data-testid=dir-use-key]');
  await page2.waitForSelector('[data-testid=director-panel]');
  await fillField(page2, '[data-testid=dir-round-min]', '30');
  await page2.click('[data-testid=dir-round-time]');
  await until(async () => (await getJson(`/api/tournaments/${id}`)).round_secs === 1800, { timeout: 5000, what: 'the round time set from the other browser' });
  await page2.click('[data-testid=dir-end]');
  await page2.waitForSelector('[data-testid=dir-confirm]');
  // Before the first round, ending it is cancelling it, and said so.
  assert.match(await page2.textContent('[data-testid=dir-confirm]'), /Really: Cancel the event\?/);
  await page2.click('[data-testid=dir-confirm-no]');
  await page2.waitForSelector('[data-testid=dir-confirm]', { state: 'detached' });
  await sleep(300);
  assert.equal((await getJson(`/api/tournaments/${id}`)).status, 'registering', '"No" did not end it');
  await ctx2.close();

  // Register: entrant #0. While paused, no bot comes and no round starts.
  await page.click('[data-testid=register]');
  await page.waitForSelector('[data-testid=my-entrant][data-entrant="0"]');
  await page.waitForSelector('[data-testid=entrant][data-entrant="0"]');
  await sleep(2600);
  rec = await getJson(`/api/tournaments/${id}`);
  assert.equal(rec.entrants.length, 1, 'no bot fills a paused list');
  assert.equal(rec.status, 'registering');
  await page.click('[data-action=dismiss]', { timeout: 1000 }).catch(() => {});
  await page.screenshot({ path: shots('tournament-director.png') });

  // Resume: the bots fill the list, the round starts, the page takes Dora to her table.
  await page.click('[data-testid=dir-resume]');
  await page.waitForSelector('[data-testid=hand-card]', { timeout: 15000 });
  assert.match(await page.textContent('[data-testid=message]'), /Round 1 has started: you are taken to your table/);
  const strip = await page.waitForSelector('[data-testid=tour-strip]');
  assert.match(await strip.textContent(), /Sit&Go e2e · round 1 of 1/);
  await until(async () => /^\d+:\d\d$/.test((await page.textContent('[data-testid=tour-strip] [data-round-ends]').catch(() => '')).trim()), { timeout: 5000, what: 'the round timer' });
  rec = await getJson(`/api/tournaments/${id}`);
  assert.equal(rec.status, 'playing');
  assert.equal(rec.entrants.length, 4);
  assert.equal(rec.entrants.filter((e) => e.server_bot).length, 3, 'three server bots filled the list');
  const myTable = rec.rounds[0].tables.find((tb) => tb.ns === 0 || tb.ew === 0);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).__burraco.table.table), myTable.table, 'seated at the table the record pairs her at');
  await page.click('[data-action=dismiss]', { timeout: 1000 }).catch(() => {});
  await page.screenshot({ path: shots('tournament-table.png'), animations: 'disabled' });

  // A director's warning reaches the warned player at the table, with its reason, until closed.
  const director = new Bot(wsUrl, 'Director', { version: '1.2' });
  await director.connect();
  await director.request('warn_entrant', { tournament: id, director: key, entrant: 0, reason: 'Slow play' });
  const warned = await page.waitForSelector('[data-testid=tour-warning]', { timeout: 10000 });
  assert.match(await warned.textContent(), /The director warned you: Slow play/);
  await page.click('[data-testid=warning-seen]');
  await page.waitForSelector('[data-testid=tour-warning]', { state: 'detached' });
  director.close();

  // The match, by clicks.
  let turns = 0;
  while (await waitMyTurnOrEnd(page, 90000)) { turns++; await playTurn(page); }
  await page.waitForSelector('[data-testid=match-over]', { timeout: 15000 });
  await page.click('[data-testid=back-to-tournament]');
  await page.waitForSelector('[data-testid=tournament-page]');

  // The other table (bots) finishes too: the tournament is over.
  await page.waitForSelector('[data-testid=tournament-status][data-status=finished]', { timeout: 60000 });
  rec = await getJson(`/api/tournaments/${id}`);
  assert.equal(rec.status, 'finished');
  await page.waitForSelector('[data-testid=tournament-winner]');
  assert.match(await page.textContent('[data-testid=tournament-winner]'), new RegExp(`Winner: ${rec.standings[0].names[0].replace(/[()]/g, '\\$&')}`));

  // The standings, as the record has them.
  const standingsOnPage = async () => page.$$eval('[data-testid=standing-row]', (rows) => rows.map((r) => ({
    entrant: Number(r.dataset.entrant), rank: Number(r.children[0].textContent),
    vp: Number(r.querySelector('[data-testid=standing-vp]').textContent), mp: Number(r.querySelector('[data-testid=standing-mp]').textContent),
    burraco: Number(r.querySelector('[data-testid=standing-burraco]').textContent), bot: !!r.querySelector('[data-testid=bot-badge]') })));
  const fromRecord = (r) => r.standings.map((s) => ({ entrant: s.entrant, rank: s.rank, vp: s.vp, mp: s.mp, burraco: s.burraco, bot: s.bot }));
  await until(async () => JSON.stringify(await standingsOnPage()) === JSON.stringify(fromRecord(rec)), { timeout: 5000, what: `the standings of the record ${JSON.stringify(fromRecord(rec))}` });
  assert.equal((await standingsOnPage()).filter((s) => s.bot).length, 3, 'the three bots labelled');

  // The round's results: each table's totals, VP and margins.
  for (const tb of rec.rounds[0].tables) {
    const row = `[data-testid=result-row][data-table="${tb.table}"]`;
    assert.equal((await page.textContent(`${row} [data-testid=result-totals]`)).trim(), `${tb.result.totals[0]} – ${tb.result.totals[1]}`);
    assert.equal((await page.textContent(`${row} [data-testid=result-vp]`)).trim(), `${tb.result.vp[0]} – ${tb.result.vp[1]}`);
  }

  // The duplicate comparison: the board as each table played it (its hand record, the board's
  // commitment), and the matchpoints the record gives.
  const board = rec.rounds[0].boards.hands[0];
  assert.ok(board.seed, 'the board is revealed once both tables have played it');
  await page.waitForSelector('[data-testid=dup-grid]');
  for (const tb of rec.rounds[0].tables) {
    const hands = await getJson(tb.hand_records);
    const hr = hands.map((h) => (typeof h === 'string' ? JSON.parse(h) : h)).find((h) => h.commitment === board.commitment);
    assert.ok(hr, `table ${tb.table} played the board`);
    const ns = hr.outcome.score.find((s) => s.side === 'S').total, ew = hr.outcome.score.find((s) => s.side === 'N').total;
    const row = `[data-testid=dup-row][data-table="${tb.table}"]`;
    await until(async () => (await page.textContent(`${row} [data-testid=dup-score]`).catch(() => '')).trim() === `${ns} – ${ew}`, { timeout: 8000, what: `the board at ${tb.table}: ${ns} – ${ew}` });
    assert.equal((await page.textContent(`${row} [data-testid=dup-matchpoints]`)).trim(), `${tb.result.matchpoints[0]} / ${tb.result.matchpoints[1]}`);
    assert.equal((await page.textContent(`${row} [data-testid=dup-mp]`)).trim(), `${tb.result.matchpoints[0]} matchpoints`, 'the board\'s matchpoints, computed in the page, are the record\'s');
  }
  // A table's hands open as a replay (not raw JSON): step through, then close.
  await page.click(`[data-testid=result-row][data-table="${myTable.table}"] [data-testid=tour-replay]`);
  const replay = await page.waitForSelector('[data-testid=replay-dialog]');
  assert.match(await replay.textContent(), new RegExp(`Replay: table ${myTable.table}`));
  const first = await page.textContent('[data-testid=replay-desc]');
  await page.click('[data-testid=replay-next]');
  await until(async () => (await page.textContent('[data-testid=replay-desc]')) !== first, { timeout: 3000, what: 'the replay\'s next step' });
  await page.click('[data-testid=replay-dialog] [data-action=overlay-close]');
  await page.waitForSelector('[data-testid=replay-dialog]', { state: 'detached' });
  console.log(`     ${turns} turns played; standings ${rec.standings.map((s) => `${s.names[0]} ${s.vp}`).join(', ')}`);

  // A director's adjustment: 1 VP off the last entrant, with a reason; the standings and the record show it.
  const last = rec.standings[rec.standings.length - 1];
  await page.selectOption('[data-testid=dir-entrant]', String(last.entrant));
  await fillField(page, '[data-testid=dir-vp]', '-1');
  await fillField(page, '[data-testid=dir-reason]', 'late at the table (e2e)');
  await page.click('[data-testid=dir-adjust]');
  await page.waitForSelector(`[data-testid=adjustment][data-entrant="${last.entrant}"]`, { timeout: 5000 });
  assert.match(await page.textContent('[data-testid=adjustments]'), /-1 VP — late at the table \(e2e\)/);
  rec = await getJson(`/api/tournaments/${id}`);
  assert.deepEqual(rec.adjustments.map((a) => [a.entrant, a.vp, a.reason]), [[last.entrant, -1, 'late at the table (e2e)']]);
  assert.equal(rec.standings.find((s) => s.entrant === last.entrant).vp, last.vp - 1);
  await until(async () => JSON.stringify(await standingsOnPage()) === JSON.stringify(fromRecord(rec)), { timeout: 5000, what: 'the adjusted standings' });
  await page.click('[data-action=dismiss]', { timeout: 1000 }).catch(() => {});
  await page.screenshot({ path: shots('tournament-finished.png'), fullPage: true });

  // Over: no more rounds to start. Then Italian.
  assert.ok(await page.$('[data-testid=dir-start][disabled]'), 'no round to start after the end');
  await page.click('[data-action=lang][data-lang=it]');
  await page.waitForSelector('text=Classifica');
  await page.waitForSelector('text=Confronto duplicato');
  // On a phone (390x844) the round results and the duplicate comparison fit their boxes: no
  // sideways scroll, every value shown with its column's name.
  await page.setViewportSize({ width: 390, height: 844 });
  await until(() => page.evaluate(() => [...document.querySelectorAll('[data-testid=round-results] .table-scroll, [data-testid=dup-round] .table-scroll')]
    .every((box) => box.scrollWidth <= box.clientWidth + 1 && box.scrollHeight <= box.clientHeight + 1) && document.documentElement.scrollWidth <= innerWidth + 1),
  { timeout: 5000, what: 'the results fitting a phone' });
  assert.match(await page.evaluate(() => getComputedStyle(/** @type {Element} */ (document.querySelector('[data-testid=result-totals]')), '::before').content), /Punti/);
  await page.screenshot({ path: shots('tournament-results-phone-it.png'), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.click('[data-testid=all-tournaments]');
  await page.waitForSelector(`[data-testid=tournament-row][data-tournament="${id}"]`);
  assert.match(await page.textContent(`[data-testid=tournament-row][data-tournament="${id}"]`), /Concluso/);
  await page.click('[data-action=lang][data-lang=en]');
  assert.deepEqual(errors, [], 'no page errors');
  await ctx.close();
}
