// Tables set up for the tests: a person's page plus bots over the JSON protocol.
import assert from 'node:assert/strict';
import { Bot } from './bot.mjs';

/** The page creates a table (through the lobby form); bots fill the other seats with the invite code; everyone is ready. */
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
