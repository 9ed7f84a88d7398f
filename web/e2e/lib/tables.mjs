// Tables set up for the tests: a person's page with the server's bots in the other seats (chosen in
// the lobby's create form), or with Node bots over the JSON protocol where a test needs clients of its own.
import assert from 'node:assert/strict';
import { Bot } from './bot.mjs';
import { until } from './harness.mjs';

/**
 * The page creates a table through the lobby form with "Empty seats" set to server bots of `level`:
 * the server seats a ready bot in every other seat; the page passes the ready check and the hand is
 * dealt. Resolves with the table id and the invite code (private tables).
 */
export async function personWithServerBots(page, { players = 4, hands = 1, level = 'expert', visibility = 'private', onReadyCheck } = {}) {
  if (players === 2) await page.selectOption('[data-testid=create-players]', '2');
  await page.selectOption('[data-testid=create-length]', 'hands');
  await page.fill('[data-testid=create-hands]', String(hands));
  await page.dispatchEvent('[data-testid=create-hands]', 'change');
  await page.selectOption('[data-testid=create-visibility]', visibility);
  await page.selectOption('[data-testid=create-bots]', level);
  await page.click('[data-testid=create]');
  await page.waitForSelector('[data-testid=ready-check]');
  // Every other seat: a server bot, marked as one, already ready.
  await until(async () => (await page.$$eval('.ready-row', (rows) => rows.filter((r) => r.querySelector('[data-testid=bot-badge]') && r.querySelector('.ready-state.yes')).length)) === players - 1,
    { timeout: 10000, what: `${players - 1} ready server bots on the ready check` });
  const invite = visibility === 'private' ? (await page.textContent('[data-testid=invite-code]')).trim() : null;
  if (invite) assert.match(invite, /^[0-9A-F]{8}$/);
  const table = await page.evaluate(() => /** @type {any} */ (window).__burraco.table.table);
  if (onReadyCheck) await onReadyCheck();
  await page.click('[data-testid=ready]');
  await page.waitForSelector('[data-testid=hand-card]');
  return { invite, table };
}

/** The page creates a table (through the lobby form); Node bots fill the other seats with the invite code; everyone is ready. */
export async function personWithBots(page, wsUrl, { players = 4, hands = 1, delay = 60, names } = {}) {
  if (players === 2) await page.selectOption('[data-testid=create-players]', '2');
  await page.selectOption('[data-testid=create-length]', 'hands');
  await page.fill('[data-testid=create-hands]', String(hands));
  await page.dispatchEvent('[data-testid=create-hands]', 'change');
  await page.selectOption('[data-testid=create-visibility]', 'private');
  await page.click('[data-testid=create]');
  const invite = (await page.textContent('[data-testid=invite-code]')).trim();
  assert.match(invite, /^[0-9A-F]{8}$/);
  const bots = [];
  for (const who of (names ?? ['Bot Est', 'Bot Nord', 'Bot Ovest']).slice(0, players - 1)) {
    const b = new Bot(wsUrl, who, { delay });
    await b.connect();
    await b.join({ invite });
    bots.push(b);
  }
  for (const b of bots) await b.ready();
  await page.click('[data-testid=ready]');
  await page.waitForSelector('[data-testid=hand-card]');
  return { bots, invite, table: bots[0].table };
}

/** Four bots at a public table (one creates it, three join); all ready. */
export async function botTable(wsUrl, { delay = 150, hands = 1 } = {}) {
  const bots = [];
  const first = new Bot(wsUrl, 'Rosa', { delay });
  await first.connect();
  const r = await first.request('create_table', { settings: { preset: 'fitab', players: 4, hands }, private: false, bots: null });
  first.table = r.table; first.seat = r.seat;
  bots.push(first);
  for (const who of ['Sergio', 'Teresa', 'Ugo']) {
    const b = new Bot(wsUrl, who, { delay });
    await b.connect();
    await b.join({ table: r.table });
    bots.push(b);
  }
  return { bots, table: r.table, start: async () => { for (const b of bots) await b.ready(); } };
}

/**
 * Until `table`'s seats, as a spectator's snapshot shows them, satisfy `wanted` (a fresh look
 * every 50 ms, at most 5 s): the test waits for the state it needs, not for a time.
 * @param {string} wsUrl @param {string} table @param {(seats: any[]) => boolean} wanted
 */
export async function waitForSeats(wsUrl, table, wanted) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const watcher = new Bot(wsUrl, 'Watcher');
    await watcher.connect();
    await watcher.request('spectate', { table });
    const asked = Date.now();
    let snapshot;
    while (!(snapshot = watcher.frames.find((f) => f.type === 'snapshot')) && Date.now() - asked < 2000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    watcher.close();
    if (snapshot && wanted(snapshot.view.seats)) return;
    if (Date.now() > deadline) throw new Error(`the seats of ${table} are not as wanted within 5 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
