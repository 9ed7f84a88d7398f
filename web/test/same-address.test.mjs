// The table's `same_address` notice (protocol 1.7): the seats kept from the message, cleared by a
// snapshot (the server sends it again after each snapshot while seats still share an address),
// and said by the players' names in English and Italian, never more than the seats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyTable, applyMessage, applySameAddress } from '../js/state.js';
import { sameAddressText } from '../js/view-table.js';
import { setLang } from '../js/i18n.js';

const seats = ['N', 'E', 'S', 'W'].map((seat, i) => ({ seat, name: ['Anna', 'Bruno', 'Carla', 'Dario'][i], bot: false, connected: true, ready: true, cards: null }));
const snapshot = { type: 'snapshot', table: 't-1', seq: 5, view: { settings: { players: 4, rated: true }, status: 'playing', you: 'N', seats,
  hands_played: 0, sides: ['NS', 'EW'], totals: [0, 0], round_clock_left_ms: null, time_out: false, hand: null } };

test('same_address names the seats sharing an address, in both languages', () => {
  const st = emptyTable('t-1');
  applyMessage(st, snapshot, 0);
  assert.equal(sameAddressText(st), null, 'nothing said before the server says it');
  applySameAddress(st, { type: 'same_address', table: 't-1', seats: ['E', 'W'] });
  assert.deepEqual(st.sameAddress, ['E', 'W']);
  setLang('en');
  assert.equal(sameAddressText(st), 'Bruno, Dario: connected from one address (a home or a shared network is often why); the moderators see it too.');
  setLang('it');
  assert.equal(sameAddressText(st), 'Bruno, Dario: collegati dallo stesso indirizzo (spesso è una casa o una rete condivisa); lo vedono anche i moderatori.');
  setLang('en');
});

test('a snapshot clears it until the server says it again; junk seats are dropped', () => {
  const st = emptyTable('t-1');
  applyMessage(st, snapshot, 0);
  applySameAddress(st, { type: 'same_address', table: 't-1', seats: ['N', 'S'] });
  applyMessage(st, { ...snapshot, seq: 9 }, 0);
  assert.equal(st.sameAddress, null);
  assert.equal(sameAddressText(st), null);
  applySameAddress(st, { type: 'same_address', table: 't-1', seats: ['X', 7, 'S'] });
  assert.deepEqual(st.sameAddress, ['S']);
  applySameAddress(st, { type: 'same_address', table: 't-1', seats: [] });
  assert.equal(st.sameAddress, null);
});
