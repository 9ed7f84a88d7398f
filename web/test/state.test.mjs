// The table model's bot seats: a server bot's own seat, a stand-in past the grace period, the
// player back (player_replaced_by_bot / player_reconnected), and what a snapshot says of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyTable, applyMessage, isServerBotName } from '../js/state.js';

const seats = (over = {}) => ['N', 'E', 'S', 'W'].map((seat) => ({ seat, name: null, bot: false, connected: false, ready: false, cards: null, ...(over[seat] ?? {}) }));
const snapshot = (seatList) => ({ type: 'snapshot', table: 't-1', seq: 5, view: { settings: { players: 4 }, status: 'playing', you: 'N', seats: seatList,
  hands_played: 0, sides: ['NS', 'EW'], totals: [0, 0], round_clock_left_ms: null, time_out: false, hand: null } });

test('server bot names', () => {
  assert.ok(isServerBotName('Bot (expert)'));
  assert.ok(isServerBotName('Bot (random)'));
  assert.ok(!isServerBotName('Bot'));
  assert.ok(!isServerBotName('Anna'));
  assert.ok(!isServerBotName(null));
});

test('bots joining a table created with bots are bot seats, not stand-ins', () => {
  const st = emptyTable('t-1');
  applyMessage(st, snapshot(seats({ N: { name: 'Anna', connected: true } })), 0);
  applyMessage(st, { type: 'player_joined', table: 't-1', seq: 6, seat: 'E', name: 'Bot (expert)', bot: true }, 0);
  const e = st.seats.find((s) => s.seat === 'E');
  assert.equal(e.bot, true);
  assert.equal(e.standIn, false);
});

test('a stand-in past the grace, then the player back', () => {
  const st = emptyTable('t-1');
  applyMessage(st, snapshot(seats({ N: { name: 'Anna', connected: true }, E: { name: 'Carlo', connected: true } })), 0);
  applyMessage(st, { type: 'player_disconnected', table: 't-1', seq: 6, seat: 'E', grace_ms: 3000 }, 0);
  let e = st.seats.find((s) => s.seat === 'E');
  assert.equal(e.connected, false);
  assert.equal(e.graceUntil, 3000);
  applyMessage(st, { type: 'player_replaced_by_bot', table: 't-1', seq: 7, seat: 'E' }, 3000);
  e = st.seats.find((s) => s.seat === 'E');
  assert.deepEqual([e.bot, e.standIn, e.graceUntil, e.name], [true, true, null, 'Carlo']);
  assert.equal(st.log.at(-1).key, 'ev_bot');
  // A snapshot (a sync) while the bot plays keeps it a stand-in.
  applyMessage(st, snapshot(seats({ N: { name: 'Anna', connected: true }, E: { name: 'Carlo', bot: true, connected: true } })), 4000);
  e = st.seats.find((s) => s.seat === 'E');
  assert.deepEqual([e.bot, e.standIn], [true, true]);
  applyMessage(st, { type: 'player_reconnected', table: 't-1', seq: 8, seat: 'E' }, 5000);
  e = st.seats.find((s) => s.seat === 'E');
  assert.deepEqual([e.bot, e.standIn, e.connected], [false, false, true]);
  assert.equal(st.log.at(-1).key, 'ev_reconnected');
});

test('a fresh snapshot tells a stand-in from a server bot by its name', () => {
  const st = emptyTable('t-1');
  applyMessage(st, snapshot(seats({ N: { name: 'Anna', bot: true, connected: true }, E: { name: 'Bot (greedy)', bot: true, connected: true } })), 0);
  assert.equal(st.seats.find((s) => s.seat === 'N').standIn, true);
  assert.equal(st.seats.find((s) => s.seat === 'E').standIn, false);
});

test('a player who leaves mid-match is replaced for good', () => {
  const st = emptyTable('t-1');
  applyMessage(st, snapshot(seats({ N: { name: 'Anna', connected: true }, E: { name: 'Carlo', connected: true } })), 0);
  applyMessage(st, { type: 'player_left', table: 't-1', seq: 6, seat: 'E' }, 0);
  applyMessage(st, { type: 'player_replaced_by_bot', table: 't-1', seq: 7, seat: 'E' }, 0);
  const e = st.seats.find((s) => s.seat === 'E');
  assert.deepEqual([e.name, e.bot, e.standIn, e.left], ['Carlo', true, true, true]);
});

test('a clock expiry: logged, the server\'s draw and discard logged as the server\'s, the notice stays until the player moves', () => {
  const st = emptyTable('t-1');
  applyMessage(st, snapshot(seats({ N: { name: 'Anna', connected: true }, E: { name: 'Bot (expert)', bot: true, connected: true } })), 0);
  let seq = 5;
  const ev = (m) => applyMessage(st, { table: 't-1', seq: ++seq, ...m }, 0);
  ev({ type: 'hand_started', hand: 1, dealer: 'W', first: 'N', up_card: '7H', commitment: 'c' });
  ev({ type: 'turn_started', seat: 'N', cards_held: 11, clock_ms: 40000, grace_ms: 5000 });
  ev({ type: 'grace_started', seat: 'N', grace_ms: 5000 });
  ev({ type: 'clock_expired', seat: 'N' });
  ev({ type: 'drew', seat: 'N' });
  ev({ type: 'discarded', seat: 'N', card: 'KS' });
  const keys = st.log.map((l) => l.key);
  assert.deepEqual(keys.slice(-3), ['ev_clock_expired', 'ev_server_drew', 'ev_server_discarded']);
  assert.ok(!keys.includes('ev_discarded'), 'not logged as Anna\'s own discard');
  ev({ type: 'turn_started', seat: 'E', cards_held: 11, clock_ms: 40000, grace_ms: 5000 });
  ev({ type: 'drew', seat: 'E' });
  ev({ type: 'discarded', seat: 'E', card: 'QS' });
  ev({ type: 'turn_started', seat: 'N', cards_held: 11, clock_ms: 40000, grace_ms: 5000 });
  assert.equal(st.notice?.key, 'clock_expired', 'still shown on Anna\'s next turn');
  ev({ type: 'drew', seat: 'N' });
  assert.equal(st.notice, null, 'gone once Anna moves herself');
  assert.equal(st.log.at(-1).key, 'ev_drew');
});
