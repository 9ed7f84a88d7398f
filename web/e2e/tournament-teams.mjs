// A teams event and the director's force majeure from the browser (protocol 1.3). Dora registers
// a team in another's teams event, three protocol bots join it with her partner code, and she
// chooses the team's pairs for the next match (set_lineup): the record shows the line-up and the
// page marks it. Then, holding the key of a head-to-head event its creator gave her, she starts
// its round and excuses an entrant for force majeure (with a yes first): the record shows the
// match awarded by that rule, 14 VP to the innocent side and the code's 6 to the excused one.
import assert from 'node:assert/strict';
import { until } from './lib/harness.mjs';
import { fillField, desktopLogin, apiGetter } from './lib/page.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'a team chooses its pairs and the director excuses an entrant for force majeure';

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const getJson = apiGetter(wsUrl);
  const errors = [];
  const { ctx, page } = await desktopLogin(browser, pageUrl, 'Dora', errors);
  const bots = [];
  const bot = async (name) => { const b = new Bot(wsUrl, name, { version: '1.3' }); await b.connect(); bots.push(b); return b; };

  // A teams event: Dora's team, three bots joining it by her partner code.
  const gino = await bot('Gino');
  const teams = await gino.request('create_tournament', { settings: { name: 'Teams e2e', kind: 'teams', rounds: ['round_robin'], hands: 1, preset: 'fitab',
    max_entrants: 4, seating: 'registration', start_when_full: false, clocks: null, duplicate: true } });
  await page.click('[data-testid=tab-tournaments]');
  await page.click(`[data-testid=tournament-row][data-tournament="${teams.tournament}"] [data-testid=open-tournament]`);
  await page.waitForSelector('[data-testid=tournament-page]');
  await page.click('[data-testid=register]');
  const code = (await (await page.waitForSelector('[data-testid=partner-code]')).textContent()).trim();
  for (const name of ['Elio', 'Fede', 'Gabri']) {
    assert.equal((await (await bot(name)).registerTournament(teams.tournament, { partner_code: code })).entrant, 0, `${name} joins Dora's team`);
  }
  await page.waitForSelector('[data-testid=lineup]');
  assert.equal(await page.getAttribute('[data-testid=lineup-0]', 'aria-pressed'), 'true', 'registration order at first');
  assert.equal((await page.textContent('[data-testid=lineup-1]')).trim(), 'Dora & Fede · Elio & Gabri');
  await page.click('[data-testid=lineup-1]');
  await until(async () => JSON.stringify((await getJson(`/api/tournaments/${teams.tournament}`)).entrants[0].lineup) === '[0,2,1,3]',
    { timeout: 5000, what: 'the line-up in the record' });
  await until(async () => (await page.getAttribute('[data-testid=lineup-1]', 'aria-pressed')) === 'true', { timeout: 5000, what: 'the chosen line-up marked' });
  await page.screenshot({ path: shots('tournament-teams-lineup.png'), fullPage: true });
  await page.click('[data-testid=all-tournaments]');

  // Force majeure: a head-to-head event of two bots, directed from the page with its key.
  const ivo = await bot('Ivo');
  const singles = await ivo.request('create_tournament', { settings: { name: 'Force majeure e2e', kind: 'singles', rounds: ['danish'], hands: 1, preset: 'fitab',
    max_entrants: 2, seating: 'registration', start_when_full: false, clocks: null, duplicate: false } });
  for (const name of ['Luca', 'Mara']) await (await bot(name)).registerTournament(singles.tournament);
  await page.click(`[data-testid=tournament-row][data-tournament="${singles.tournament}"] [data-testid=open-tournament]`);
  await page.waitForSelector('[data-testid=tournament-page]');
  await page.click('[data-testid=dir-key-open]');
  await fillField(page, '[data-testid=dir-key-field]', singles.director_token);
  await page.click('[data-testid=dir-use-key]');
  await page.waitForSelector('[data-testid=director-panel]');
  await page.click('[data-testid=dir-start]');
  await until(async () => (await getJson(`/api/tournaments/${singles.tournament}`)).rounds.length === 1, { timeout: 5000, what: 'the round started' });
  await page.selectOption('[data-testid=dir-entrant]', '1');
  await fillField(page, '[data-testid=dir-reason]', 'taken ill (e2e)');
  await page.click('[data-testid=dir-excuse]');
  await page.waitForSelector('[data-testid=dir-confirm]');
  assert.match(await page.textContent('[data-testid=dir-confirm]'), /Force majeure/);
  await page.click('[data-testid=dir-confirm-yes]');
  const rec = await until(async () => {
    const r = await getJson(`/api/tournaments/${singles.tournament}`);
    return r.rounds[0]?.tables[0]?.awarded === 'force_majeure' ? r : null;
  }, { timeout: 8000, what: 'the match awarded for force majeure' });
  const table = rec.rounds[0].tables[0];
  const excused = table.ew === 1 ? 1 : 0;
  assert.equal(rec.entrants[1].withdrawn, 'taken ill (e2e)');
  assert.equal(table.result.vp[excused], 6, 'the code\'s force-majeure VP');
  assert.equal(table.result.vp[1 - excused], 14, 'the bye score to the innocent side');
  await until(async () => /withdrawn/.test(await page.textContent('[data-testid=entrant][data-entrant="1"]').catch(() => '')),
    { timeout: 5000, what: 'the entrant shown withdrawn' });
  await until(async () => /\(force majeure\)/.test(await page.textContent('[data-testid=result-totals]').catch(() => '')),
    { timeout: 5000, what: 'the round result marked force majeure' });
  for (const b of bots) b.close();
  assert.deepEqual(errors, [], 'no page errors');
  await ctx.close();
}
