// Tournaments without the DOM: the create form's settings, the duplicate comparison, the refusals' words.
import test from 'node:test';
import assert from 'node:assert/strict';
import { tournamentSettings, duplicateGrid, handRecordsWanted, myEntrant, entrantName, namesOf, registrationClosedKey, CODE_SHAPE, LINEUPS, lineupIndex, lineupLabel } from '../js/tournament.js';
import { setLang, tournamentRefusalText, refusalText, TOURNAMENT_ONLY_CODES, hasKey } from '../js/i18n.js';

const form = (over = {}) => ({ tName: ' Friday pairs ', tKind: 'pairs', tRoundCount: '3', tMove0: 'mitchell', tMove1: 'mitchell', tMove2: 'danish', tHands: '2',
  tPreset: 'fitab', tMax: '16', tDup: false, tSeating: 'draw', tFull: false, tClocks: '', ...over });

test('the create form makes create_tournament settings (PROTOCOL.md section 3)', () => {
  assert.deepEqual(tournamentSettings(form()), { settings: { name: 'Friday pairs', kind: 'pairs', rounds: ['mitchell', 'mitchell', 'danish'], hands: 2, preset: 'fitab',
    max_entrants: 16, seating: 'draw', start_when_full: false, clocks: null, duplicate: false } });
  // A round without a movement of its own repeats the previous one.
  const r = tournamentSettings(form({ tRoundCount: '4', tDup: true, tMax: '', tClocks: 'relaxed' }));
  assert.ok('settings' in r);
  assert.deepEqual(r.settings.rounds, ['mitchell', 'mitchell', 'danish', 'danish']);
  assert.equal(r.settings.max_entrants, null);
  assert.equal(r.settings.duplicate, true);
  assert.equal(r.settings.clocks, 'relaxed');
});

test('the create form refuses what makes no tournament', () => {
  assert.deepEqual(tournamentSettings(form({ tName: '  ' })), { error: 't_name_required' });
  assert.deepEqual(tournamentSettings(form({ tRoundCount: '0' })), { error: 't_rounds_invalid' });
  assert.deepEqual(tournamentSettings(form({ tMove0: 'knockout' })), { error: 't_rounds_invalid' }, 'a knock-out only last');
  assert.deepEqual(tournamentSettings(form({ tHands: '9' })), { error: 't_hands_invalid' });
  assert.deepEqual(tournamentSettings(form({ tFull: true, tMax: '' })), { error: 't_sitgo_size' }, 'a Sit&Go needs its size');
  assert.deepEqual(tournamentSettings(form({ tFull: true, tMax: '6' })), { error: 't_sitgo_size' }, 'a Sit&Go of 6 is no bracket');
  assert.equal(tournamentSettings(form({ tFull: true, tMax: '8' })).settings?.max_entrants, 8, 'a Sit&Go of 8 is');
  assert.ok('settings' in tournamentSettings(form({ tRoundCount: '2', tMove1: 'knockout' })));
  assert.deepEqual(tournamentSettings(form({ tRoundCount: '2', tMove1: 'knockout_drawn' })).settings?.rounds, ['mitchell', 'knockout_drawn'], 'byes by draw');
  assert.deepEqual(tournamentSettings(form({ tRoundCount: '3', tMove1: 'knockout', tMove2: 'knockout_drawn' })), { error: 't_rounds_invalid' }, 'one kind of knock-out');
});

/** A round of three duplicate tables, one board, as the record gives it. */
const round = {
  round: 1, movement: 'danish', complete: true,
  boards: { first_dealer: 'N', hands: [{ hand: 1, commitment: 'c1', seed: 's1' }, { hand: 2, commitment: 'c2', seed: null }] },
  tables: [
    { number: 1, table: 't-1', ns: 0, ew: 1, hand_records: '/api/tables/t-1/hands', result: { played: true, totals: [500, 200], matchpoints: [4, 0] } },
    { number: 2, table: 't-2', ns: 2, ew: 3, hand_records: '/api/tables/t-2/hands', result: { played: true, totals: [300, 300], matchpoints: [1, 3] } },
    { number: 3, table: 't-3', ns: 4, ew: 5, hand_records: '/api/tables/t-3/hands', result: { played: true, totals: [100, 100], matchpoints: [1, 3] } },
  ],
};
const rec = (ns, ew, commitment = 'c1') => ({ commitment, outcome: { score: [{ side: 'NS', total: ns }, { side: 'EW', total: ew }] } });

test('the duplicate comparison: each table on each board, and the board\'s matchpoints', () => {
  const hands = { 't-1': [rec(500, 200)], 't-2': [rec(300, 300)], 't-3': [rec(100, 100)] };
  const g = duplicateGrid(round, hands, 'pairs');
  assert.deepEqual(g.boards, [{ hand: 1, commitment: 'c1', revealed: true }, { hand: 2, commitment: 'c2', revealed: false }]);
  assert.deepEqual(g.rows.map((r) => r.cells[0]), [
    { ns: 500, ew: 200, diff: 300, mpNs: 4, mpEw: 0 },
    { ns: 300, ew: 300, diff: 0, mpNs: 1, mpEw: 3 },
    { ns: 100, ew: 100, diff: 0, mpNs: 1, mpEw: 3 },
  ]);
  assert.deepEqual(g.rows.map((r) => r.cells[1]), [null, null, null], 'a board not revealed has no cells');
  // Summed over the boards, the record's matchpoints.
  assert.deepEqual(g.rows.map((r) => [r.mpNs, r.mpEw]), round.tables.map((tb) => tb.result.matchpoints));
});

test('head to head: South is North-South, North East-West; a record is found by its board\'s commitment', () => {
  const single = (s, n, commitment) => ({ commitment, outcome: { score: [{ side: 'S', total: s }, { side: 'N', total: n }] } });
  const r = { ...round, tables: round.tables.slice(0, 2) };
  const g = duplicateGrid(r, { 't-1': [single(10, 400, 'other'), single(420, 140, 'c1')], 't-2': [single(-130, 1385, 'c1')] }, 'singles');
  assert.deepEqual(g.rows.map((x) => x.cells[0] && [x.cells[0].ns, x.cells[0].ew, x.cells[0].mpNs]), [[420, 140, 2], [-130, 1385, 0]]);
});

test('the hand records still wanted: revealed boards only, asked once per table', () => {
  const record = { settings: { duplicate: true }, rounds: [round] };
  assert.deepEqual(handRecordsWanted(record, {}).map((w) => [w.table, w.revealed]), [['t-1', 1], ['t-2', 1], ['t-3', 1]]);
  assert.deepEqual(handRecordsWanted(record, { 't-1': [rec(1, 1)], 't-2': [rec(1, 1)] }).map((w) => w.table), ['t-3']);
  assert.deepEqual(handRecordsWanted({ settings: { duplicate: false }, rounds: [round] }, {}), []);
});

test('my entrant is found by player id; names joined', () => {
  const record = { entrants: [{ entrant: 0, names: ['Anna', 'Bruno'], players: ['p-a', 'p-b'], unregistered: false },
    { entrant: 1, names: ['Carla'], players: ['p-c'], unregistered: true }] };
  assert.equal(myEntrant(record, 'p-b')?.entrant, 0);
  assert.equal(myEntrant(record, 'p-c'), null, 'an unregistered entrant is nobody\'s');
  assert.equal(entrantName(record, 0), 'Anna & Bruno');
});

test('the tournament refusals have the page\'s words in both languages', () => {
  for (const lang of /** @type {const} */ (['en', 'it'])) {
    setLang(lang);
    for (const code of [...TOURNAMENT_ONLY_CODES, 'bad_invite', 'invalid_settings']) {
      assert.ok(hasKey(`err_${code}`), code);
      const text = tournamentRefusalText({ code, message: 'server words' });
      assert.notEqual(text, 'server words', `${lang} ${code}`);
    }
  }
  setLang('it');
  assert.match(refusalText({ code: 'tournament_paused', message: 'the tournament is paused: resume it first' }), /sospeso/);
  assert.equal(tournamentRefusalText({ code: 'invalid_settings', message: 'no such movement' }), 'Con queste impostazioni non si fa un torneo: no such movement');
  // A table's invite code keeps the table's wording.
  assert.match(refusalText({ code: 'bad_invite', message: 'no table has that invite code' }), /tavolo/);
  setLang('en');
  assert.equal(refusalText({ code: 'not_director', message: 'x' }), "That is not this tournament's director key.");
});

test('team line-ups: the three ways to pair four players, named, and which one an order in the record is', () => {
  const names = ['Anna', 'Bruno', 'Carla', 'Dario'];
  assert.deepEqual(LINEUPS.map((o) => lineupLabel(names, o)), ['Anna & Bruno · Carla & Dario', 'Anna & Carla · Bruno & Dario', 'Anna & Dario · Bruno & Carla']);
  assert.equal(lineupIndex(null), 0, 'registration order');
  assert.equal(lineupIndex([0, 2, 1, 3]), 1);
  assert.equal(lineupIndex([1, 3, 2, 0]), 1, 'Anna with Carla, whatever the order');
  assert.equal(lineupIndex([3, 0, 1, 2]), 2);
  assert.equal(lineupIndex([2, 3, 0, 1]), 0);
});

test('every rule the record names for a match scored without its end has words on the page', () => {
  // docs/TOURNAMENT_RECORD.md, a table's `awarded`.
  for (const rule of ['late_arrival', 'abandonment', 'disqualification', 'absent_opponent', 'force_majeure']) {
    assert.ok(hasKey(`awarded_${rule}`), rule);
  }
});

test('a server bot pair is named once; "closed" is told apart by the record', () => {
  const record = { status: 'registering', settings: { max_entrants: 2 }, entrants: [{ entrant: 0, names: ['Bot 2', 'Bot 2'], unregistered: false }] };
  assert.equal(entrantName(record, 0), 'Bot 2');
  assert.deepEqual(namesOf({ names: ['Anna', 'Bruno'] }), ['Anna', 'Bruno']);
  assert.equal(registrationClosedKey(record), 'err_registration_closed');
  assert.equal(registrationClosedKey({ ...record, entrants: [...record.entrants, { entrant: 1, names: ['Carla'], unregistered: false }] }), 'err_registration_full');
  assert.equal(registrationClosedKey({ ...record, status: 'playing' }), 'err_registration_started');
  assert.equal(registrationClosedKey(null), 'err_registration_closed');
  for (const key of ['err_registration_closed', 'err_registration_full', 'err_registration_started']) assert.ok(hasKey(key), key);
  assert.ok(CODE_SHAPE.test('7F3A91C2'));
  assert.ok(!CODE_SHAPE.test('XYZ'));
});

test('a tournament name follows the name rule, with its own length', () => {
  const form = { tName: 'Bidi \u202Eevil\u202C name', tRoundCount: '1', tHands: '1' };
  assert.deepEqual(tournamentSettings(form), { error: 't_name_chars' });
  assert.deepEqual(tournamentSettings({ ...form, tName: 'x'.repeat(81) }), { error: 't_name_long', params: { max: 80, n: 81 } });
  const ok = tournamentSettings({ ...form, tName: '  Coppa   di Natale ' });
  assert.equal('settings' in ok && ok.settings.name, 'Coppa di Natale');
});
