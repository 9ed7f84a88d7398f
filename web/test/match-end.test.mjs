// The match-end dialog's verdict without the DOM: the server's outcome, in English and Italian.
// `fixtures/match-ended-draw.json` is a real server's `match_ended` (totals -5 and -55, 10-10 VP:
// the server test `outcome::a_10_10_match_with_unequal_totals_is_a_draw_everywhere` plays that
// match and checks its frame is this file); the won match is the protocol's golden file.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { matchVerdict } from '../js/match-end.js';
import { emptyTable, applyMessage, sideOf } from '../js/state.js';
import { setLang } from '../js/i18n.js';

const read = (/** @type {string} */ path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const draw = read('./fixtures/match-ended-draw.json');
const won = read('../../protocol/tests/golden/server/match_ended.json');

/** The verdict a seat's page shows once the table state has folded the server's message. */
function verdictAt(/** @type {any} */ message, /** @type {string|null} */ seat, /** @type {number} */ players) {
  const st = emptyTable(message.table);
  applyMessage(st, message, 0);
  assert.equal(st.matchEnded, message, 'the dialog reads the server\'s message as it came');
  return matchVerdict(/** @type {any} */ (st.matchEnded), seat ? sideOf(seat, players) : null);
}

test('-5 against -55 is 10-10: a draw for both players, in English and Italian', () => {
  assert.deepEqual(draw.totals.slice().sort((/** @type {number} */ a, /** @type {number} */ b) => a - b), [-55, -5]);
  assert.deepEqual(draw.vp, [10, 10]);
  for (const [lang, text] of [['en', 'Draw'], ['it', 'Pareggio']]) {
    setLang(/** @type {'en'|'it'} */ (lang));
    for (const seat of ['S', 'N']) assert.deepEqual(verdictAt(draw, seat, 2), { outcome: 'draw', text }, `${lang} ${seat}`);
    assert.deepEqual(verdictAt(draw, null, 2), { outcome: null, text }, `${lang} spectator`);
  }
  setLang('en');
});

test('the side the server names won, the other lost, in English and Italian', () => {
  setLang('en');
  assert.deepEqual(verdictAt(won, 'N', 4), { outcome: 'won', text: 'You won the match!' });
  assert.deepEqual(verdictAt(won, 'E', 4), { outcome: 'lost', text: 'You lost the match.' });
  assert.deepEqual(verdictAt(won, null, 4), { outcome: null, text: 'Winner: NS' });
  setLang('it');
  assert.deepEqual(verdictAt(won, 'S', 4), { outcome: 'won', text: 'Avete vinto la partita!' });
  assert.deepEqual(verdictAt(won, 'W', 4), { outcome: 'lost', text: 'Avete perso la partita.' });
  setLang('en');
});
