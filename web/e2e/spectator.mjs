// A spectator watches four bots play a whole hand: the page renders the public table, and no
// frame it received before the hand ended carries a hidden card.
import assert from 'node:assert/strict';
import { login } from './lib/page.mjs';
import { botTable } from './lib/tables.mjs';
import { until, sleep } from './lib/harness.mjs';

export const name = 'a spectator never receives a hidden card';

const PRIVATE = new Set(['dealt', 'drew_card', 'pozzetto_cards']);

export async function run({ browser, pageUrl, wsUrl, shots }) {
  const { bots, table, start } = await botTable(wsUrl, { delay: 120 });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await ctx.newPage();
  /** @type {any[]} */
  const frames = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => { if (typeof f.payload === 'string') frames.push(JSON.parse(f.payload)); }));
  await login(page, pageUrl, 'Dora');
  await page.waitForSelector(`[data-testid=table-row][data-table="${table}"]`);
  await page.click(`[data-testid=table-row][data-table="${table}"] [data-action=watch]`);
  await page.waitForSelector('[data-testid=spectating]');
  await start();
  await page.waitForSelector('[data-testid=pile] .card');
  await until(() => frames.some((f) => f.type === 'opened') || frames.some((f) => f.type === 'hand_ended'), { timeout: 60000, what: 'a meld' });
  await sleep(200);
  await page.screenshot({ path: shots('spectator.png'), animations: 'disabled' });
  // North up, South down, West on the left, East on the right, as on a map (and play runs clockwise).
  const at = await page.evaluate(() => Object.fromEntries(['N', 'E', 'S', 'W'].map((seat) => {
    const r = /** @type {Element} */ (document.querySelector(`[data-testid=seat-${seat}]`)).getBoundingClientRect();
    return [seat, { x: r.left + r.width / 2, y: r.top + r.height / 2 }];
  })));
  assert.ok(at.W.x < at.E.x, 'West left of East: ' + JSON.stringify(at));
  assert.ok(at.N.y < at.S.y, 'North above South: ' + JSON.stringify(at));
  assert.equal(await page.$$eval('[data-testid=hand-card]', (e) => e.length), 0, 'no hand on a spectator page');
  await until(() => frames.some((f) => f.type === 'hand_ended'), { timeout: 120000, what: 'the end of the hand' });
  await page.waitForSelector('[data-testid=score-table]');

  const end = frames.findIndex((f) => f.type === 'hand_ended');
  const during = frames.slice(0, end);
  const tableFrames = during.filter((f) => f.table === table);
  assert.ok(tableFrames.length > 40, `watched ${tableFrames.length} frames`);
  for (const f of during) {
    assert.ok(!PRIVATE.has(f.type), `a spectator received ${f.type}`);
    if (f.type === 'snapshot') assert.equal(f.view.hand?.hand ?? null, null, 'a snapshot with a hand');
    if (f.type === 'hand_started' || f.type === 'match_started') assert.ok(!('seed' in f), 'seed before the end');
  }
  assert.ok(during.some((f) => f.type === 'tick'), 'hidden events arrive as bare ticks');
  // A seed is only ever revealed at the end.
  assert.ok(frames[end].seed == null || /^[0-9a-f]{64}$/.test(frames[end].seed));
  for (const b of bots) b.close();
  await ctx.close();
}
