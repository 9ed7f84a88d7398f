// @ts-check
/**
 * Tournaments without the DOM: the create form's settings, names from the record, the duplicate
 * comparison folded from a round and its tables' hand records (docs/TOURNAMENT_RECORD.md).
 */

import { checkLine, MAX_TOURNAMENT_NAME } from './text.js';

/** A partner or invitation code as the server gives them: 8 hex digits, upper case. */
export const CODE_SHAPE = /^[0-9A-F]{8}$/;

/**
 * Which of `registration_closed`'s causes the record shows: started, full, or closed (by the
 * director or its closing time). @param {any} rec the tournament record, if loaded
 * @returns {'err_registration_started'|'err_registration_full'|'err_registration_closed'}
 */
export function registrationClosedKey(rec) {
  if (!rec) return 'err_registration_closed';
  if (rec.status !== 'registering') return 'err_registration_started';
  const max = rec.settings?.max_entrants;
  const listed = (rec.entrants ?? []).filter((/** @type {any} */ e) => !e.unregistered && !e.withdrawn).length;
  if (max != null && listed >= max) return 'err_registration_full';
  return 'err_registration_closed';
}

/** Kinds and movements the server knows (docs/PROTOCOL.md section 3, "Tournaments"). */
export const KINDS = /** @type {const} */ (['pairs', 'individual', 'singles', 'teams']);
export const MOVEMENTS = /** @type {const} */ (['mitchell', 'danish', 'modified_danish', 'round_robin', 'knockout', 'knockout_drawn']);
export const SEATINGS = /** @type {const} */ (['registration', 'draw', 'director']);
/** The tournament requests the director's token authorises. */
export const DIRECTOR_ACTIONS = /** @type {const} */ (['start_round', 'pause_tournament', 'resume_tournament', 'end_tournament', 'adjust_score',
  'warn_entrant', 'withdraw_entrant', 'excuse_entrant', 'disqualify_entrant', 'forbid_pairing', 'set_round_time', 'configure_registration']);

/** A team's three ways to make two pairs of its four players (`set_lineup`, 1.3): indices, the first two the first pair. */
export const LINEUPS = /** @type {const} */ ([[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2]]);

/**
 * Which of [`LINEUPS`] a team's line-up is (the other pair's order aside), 0 for registration order.
 * @param {readonly number[]|null|undefined} order
 */
export function lineupIndex(order) {
  if (!order || order.length !== 4 || !order.includes(0)) return 0;
  // Player 0's partner (the other of its pair: places 0-1, 2-3) names the line-up.
  const partner = order[order.indexOf(0) ^ 1];
  return Math.max(0, partner - 1);
}

/** A line-up as its two pairs of names ("Anna & Bruno · Carla & Dario"). @param {readonly string[]} names @param {readonly number[]} order */
export function lineupLabel(names, order) {
  const n = (/** @type {number} */ i) => names[order[i]] ?? `#${order[i] + 1}`;
  return `${n(0)} & ${n(1)} · ${n(2)} & ${n(3)}`;
}

/**
 * The create form's fields, as the page keeps them: `tName`, `tKind`, `tRoundCount`, `tMove0`...
 * (each round's movement), `tHands`, `tPreset`, `tMax`, `tDup`, `tSeating`, `tFull`, `tClocks`
 * (strings; checkboxes as booleans).
 * @typedef {Record<string, any>} TourForm
 */

/** The movement chosen for round `i` (0-based): the form's, else the previous round's, else Danish. @param {TourForm} f @param {number} i */
export function movementOf(f, i) {
  for (let j = i; j >= 0; j--) {
    const m = f[`tMove${j}`];
    if (typeof m === 'string' && /** @type {readonly string[]} */ (MOVEMENTS).includes(m)) return m;
  }
  return 'danish';
}

/**
 * `create_tournament`'s settings from the form, or the key of what is wrong with it.
 * @param {TourForm} f
 * @returns {{settings: Record<string, any>} | {error: 't_name_required'|'t_name_long'|'t_name_chars'|'t_rounds_invalid'|'t_hands_invalid'|'t_max_invalid'|'t_sitgo_size', params?: Record<string, number>}}
 */
export function tournamentSettings(f) {
  // The server's rule for names, with a tournament's length (text.js).
  const checked = checkLine(String(f.tName ?? ''), MAX_TOURNAMENT_NAME);
  if (!checked.ok) {
    if (checked.error === 'empty') return { error: 't_name_required' };
    if (checked.error === 'long') return { error: 't_name_long', params: { max: MAX_TOURNAMENT_NAME, n: [...String(f.tName).trim()].length } };
    return { error: 't_name_chars' };
  }
  const name = checked.text;
  const count = Number(f.tRoundCount);
  if (!Number.isInteger(count) || count < 1 || count > 20) return { error: 't_rounds_invalid' };
  const rounds = Array.from({ length: count }, (_, i) => movementOf(f, i));
  // A knock-out only last (it repeats there until its final).
  const knockout = rounds.findIndex((m) => m.startsWith('knockout'));
  if (knockout >= 0 && rounds.slice(knockout).some((m) => m !== rounds[knockout])) return { error: 't_rounds_invalid' };
  const hands = Number(f.tHands);
  if (!Number.isInteger(hands) || hands < 1 || hands > 8) return { error: 't_hands_invalid' };
  const maxText = String(f.tMax ?? '').trim();
  const max = maxText === '' ? null : Number(maxText);
  if (max !== null && (!Number.isInteger(max) || max < 2)) return { error: 't_max_invalid' };
  const full = f.tFull === true || f.tFull === 'on';
  // A Sit&Go's list is 2, 4, 8, 16 ... (RULES.md section 11: its bracket has no byes).
  if (full && (max === null || (max & (max - 1)) !== 0)) return { error: 't_sitgo_size' };
  return {
    settings: {
      name, kind: f.tKind || 'pairs', rounds, hands, preset: f.tPreset || 'fitab', max_entrants: max,
      seating: f.tSeating || 'registration', start_when_full: full, clocks: f.tClocks || null,
      duplicate: f.tDup === true || f.tDup === 'on',
    },
  };
}

/**
 * An entrant's names as one line ("Anna & Bruno").
 * @param {any} record the tournament record @param {number|null|undefined} n
 */
export function entrantName(record, n) {
  if (n == null) return '';
  const e = (record?.entrants ?? []).find((/** @type {any} */ x) => x.entrant === n);
  return e ? namesOf(e).join(' & ') : `#${n}`;
}

/**
 * An entrant's names, each once: a server bot's pair plays under one name ("Bot 2"), shown once,
 * not "Bot 2 & Bot 2". @param {{names?: string[]}} e @returns {string[]}
 */
export function namesOf(e) {
  return [...new Set(e.names ?? [])];
}

/**
 * The entrant this player belongs to, if any (by its stable player id).
 * @param {any} record @param {string|null} player
 */
export function myEntrant(record, player) {
  if (!record || !player) return null;
  return (record.entrants ?? []).find((/** @type {any} */ e) => (e.players ?? []).includes(player) && !e.unregistered) ?? null;
}

/** The side labels of a table's North-South and East-West entrants in its hand records. @param {string} kind */
export function sideLabels(kind) {
  return kind === 'singles' ? ['S', 'N'] : ['NS', 'EW'];
}

/**
 * @typedef {{ns: number, ew: number, diff: number, mpNs: number, mpEw: number}} BoardCell one board as one table played it
 * @typedef {{number: number, table: string, ns: number, ew: number, nsPartner: number|null, ewPartner: number|null,
 *   cells: (BoardCell|null)[], totals: number[]|null, matchpoints: number[]|null, mpNs: number, mpEw: number}} DupRow
 * @typedef {{boards: {hand: number, commitment: string, revealed: boolean}[], rows: DupRow[]}} DupGrid
 */

/**
 * The duplicate comparison of a round: for each board, how each table played it (the hand record
 * whose commitment is the board's), and the board's matchpoints (RULES.md section 11: on each board,
 * 2 per other table where the same side's result, its hand total minus the other side's, was
 * lower, 1 per equal one). `hands`: each table's hand records, by table id.
 * @param {any} round a record's round @param {Record<string, any[]>} hands @param {string} kind
 * @returns {DupGrid}
 */
export function duplicateGrid(round, hands, kind) {
  const [nsLabel, ewLabel] = sideLabels(kind);
  const boards = (round?.boards?.hands ?? []).map((/** @type {any} */ b) => ({ hand: b.hand, commitment: b.commitment, revealed: b.seed != null }));
  /** @type {DupRow[]} */
  const rows = (round?.tables ?? []).map((/** @type {any} */ tb) => {
    const recs = hands[tb.table] ?? [];
    const cells = boards.map((/** @type {any} */ b) => {
      const rec = recs.find((r) => r && r.commitment === b.commitment && r.outcome);
      if (!rec) return null;
      const score = rec.outcome.score ?? [];
      const ns = score.find((/** @type {any} */ s) => s.side === nsLabel)?.total ?? 0;
      const ew = score.find((/** @type {any} */ s) => s.side === ewLabel)?.total ?? 0;
      return { ns, ew, diff: ns - ew, mpNs: 0, mpEw: 0 };
    });
    return { number: tb.number, table: tb.table, ns: tb.ns, ew: tb.ew, nsPartner: tb.ns_partner ?? null, ewPartner: tb.ew_partner ?? null,
      cells, totals: tb.result?.totals ?? null, matchpoints: tb.result?.matchpoints ?? null, mpNs: 0, mpEw: 0 };
  });
  boards.forEach((/** @type {any} */ _b, i) => {
    const played = rows.map((r) => r.cells[i]).filter((c) => c !== null);
    for (const c of /** @type {BoardCell[]} */ (played)) {
      for (const o of /** @type {BoardCell[]} */ (played)) {
        if (o === c) continue;
        if (c.diff > o.diff) c.mpNs += 2; else if (c.diff === o.diff) { c.mpNs += 1; c.mpEw += 1; }
        if (c.diff < o.diff) c.mpEw += 2;
      }
    }
  });
  for (const r of rows) for (const c of r.cells) if (c) { r.mpNs += c.mpNs; r.mpEw += c.mpEw; }
  return { boards, rows };
}

/**
 * The tables whose hand records the duplicate comparison still needs: a round with boards, some
 * revealed (`revealed` of them), whose table has fewer records than that.
 * @param {any} record @param {Record<string, any[]>} hands
 */
export function handRecordsWanted(record, hands) {
  /** @type {{table: string, url: string, revealed: number}[]} */
  const out = [];
  if (!record?.settings?.duplicate) return out;
  for (const r of record.rounds ?? []) {
    const revealed = (r.boards?.hands ?? []).filter((/** @type {any} */ b) => b.seed != null).length;
    if (!revealed) continue;
    for (const tb of r.tables ?? []) {
      if (!tb.result?.played && tb.result) continue;
      if ((hands[tb.table]?.length ?? 0) < revealed) out.push({ table: tb.table, url: tb.hand_records, revealed });
    }
  }
  return out;
}
