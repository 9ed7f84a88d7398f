// @ts-check
/**
 * Step-by-step replay of a hand record (docs/HAND_RECORD.md): the deal is recomputed from the
 * revealed seed (or the record's explicit deck), then every input moves the cards. This is a
 * viewer, not a referee: it trusts the record's inputs, which the server already accepted.
 */
import { shuffledDeck, dealFromDeck, seatsInPlay, nextSeat } from './shuffle.js';
import { arrangeMeld, normaKey } from './cards.js';
import { removeCards, sideOf } from './state.js';

/**
 * @typedef {{hands: Record<string, string[]>, pile: string[], tallone: string[], pozzetti: string[][],
 *   pozzettoOf: Record<string, number|null>, melds: {id: number, side: string, cards: string[], start: number|null, wild_at: number|null, kind: string, wild: string|null, raw: string[]}[],
 *   onTurn: string, taken: boolean, single: string|null, over: boolean, note: {key: string, params: Record<string, any>}|null, bad: number}} ReplayState
 *   (`bad`: how many inputs so far named a card their seat did not hold, or another side's meld: 0 for a record that fits its deal)
 */

/** @param {ReplayState} s @returns {ReplayState} */
function clone(s) {
  return {
    ...s,
    hands: Object.fromEntries(Object.entries(s.hands).map(([k, v]) => [k, [...v]])),
    pile: [...s.pile], tallone: [...s.tallone], pozzetti: s.pozzetti.map((p) => [...p]),
    pozzettoOf: { ...s.pozzettoOf },
    melds: s.melds.map((m) => ({ ...m, cards: [...m.cards], raw: [...m.raw] })),
  };
}

/**
 * Every state of the hand: index 0 is the deal, index k the state after input k-1.
 * @param {any} record the parsed hand record
 * @returns {{states: ReplayState[], deal: import('./shuffle.js').Deal, finalMatches: boolean|null, movesFit: boolean}}
 */
export function replayRecord(record) {
  const players = record.settings.players;
  const deck = record.deck ?? shuffledDeck(record.seed);
  const deal = dealFromDeck(deck, players, record.dealer);
  /** @type {Record<string, string[]>} */
  const hands = {};
  for (const h of deal.hands) hands[h.seat] = [...h.cards];
  const sides = players === 2 ? ['S', 'N'] : ['NS', 'EW'];
  /** @type {ReplayState} */
  let s = {
    hands, pile: [deal.discard], tallone: [...deal.tallone], pozzetti: deal.pozzetti.map((p) => [...p]),
    pozzettoOf: Object.fromEntries(sides.map((x) => [x, null])), melds: [], onTurn: nextSeat(record.dealer, players),
    taken: false, single: null, over: false, note: null, bad: 0,
  };
  const states = [s];
  for (const input of record.inputs) {
    s = clone(s);
    s.note = null;
    step(s, input, players);
    states.push(s);
  }
  let finalMatches = null;
  const outHands = record.outcome && record.outcome.hands;
  if (outHands) {
    const last = states[states.length - 1];
    finalMatches = outHands.every((/** @type {any} */ h) => {
      const a = [...(last.hands[h.seat] ?? [])].sort().join(' ');
      const b = [...h.cards].sort().join(' ');
      return a === b;
    });
  }
  void seatsInPlay;
  return { states, deal, finalMatches, movesFit: states[states.length - 1].bad === 0 };
}

/** Whether `hand` holds every card of `cards` (as many copies as named). @param {string[]} hand @param {string[]} cards */
function holds(hand, cards) {
  return removeCards(hand, cards).length === hand.length - cards.length;
}

/** @param {ReplayState} s @param {string} seat @param {number} players @param {boolean} inDiretta */
function takePozzetto(s, seat, players, inDiretta) {
  const side = sideOf(seat, players);
  const other = Object.keys(s.pozzettoOf).find((k) => k !== side) ?? '';
  const p = s.pozzettoOf[other] === 0 ? 1 : 0;
  s.pozzettoOf[side] = p;
  s.hands[seat] = [...s.pozzetti[p]];
  s.pozzetti[p] = [];
  s.note = { key: 'r_pozzetto', params: { seat, p: p === 0 ? 'A' : 'B', inDiretta } };
}

/** @param {ReplayState} s @param {any} input @param {number} players */
function step(s, input, players) {
  const seat = input.seat ?? s.onTurn;
  const side = sideOf(seat, players);
  switch (input.type) {
    case 'draw': {
      const card = s.tallone.shift();
      if (card) s.hands[seat].push(card);
      s.taken = true; s.single = null;
      s.note = { key: 'r_draw', params: { seat, card } };
      break;
    }
    case 'pick_up':
      s.note = { key: 'r_pick_up', params: { seat, n: s.pile.length } };
      s.single = s.pile.length === 1 ? s.pile[0] : null;
      s.hands[seat].push(...s.pile);
      s.pile = [];
      s.taken = true;
      break;
    case 'open':
    case 'attach': {
      if (!holds(s.hands[seat] ?? [], input.cards)) s.bad++;
      s.hands[seat] = removeCards(s.hands[seat], input.cards);
      if (input.type === 'open') {
        const raw = [...input.cards];
        s.melds.push({ id: s.melds.length, side, raw, ...arrangeMeld(raw, input.wild_at) });
        s.note = { key: 'r_open', params: { seat, cards: input.cards } };
      } else {
        const m = s.melds[input.meld];
        if (!m || m.side !== side) s.bad++;
        if (m) {
          m.raw = [...m.raw, ...input.cards];
          Object.assign(m, arrangeMeld(m.raw, input.wild_at ?? m.wild_at));
        }
        s.note = { key: 'r_attach', params: { seat, cards: input.cards, meld: input.meld + 1 } };
      }
      if (s.hands[seat].length === 0 && s.pozzettoOf[side] == null) takePozzetto(s, seat, players, true);
      break;
    }
    case 'discard':
      if (!holds(s.hands[seat] ?? [], [input.card])) s.bad++;
      discard(s, seat, input.card, players, side);
      break;
    case 'clock_expired': {
      const on = s.onTurn;
      if (!s.taken) { const card = s.tallone.shift(); if (card) s.hands[on].push(card); }
      const hand = s.hands[on];
      const legal = hand.filter((c) => c !== s.single || hand.filter((x) => x === c).length > 1);
      const pick = [...(legal.length ? legal : hand)].sort((a, b) => normaKey(b) - normaKey(a))[0];
      discard(s, on, pick, players, sideOf(on, players));
      s.note = { key: 'r_clock_expired', params: { seat: on, card: pick } };
      break;
    }
    case 'time_out':
      s.note = { key: 'r_time_out', params: {} };
      break;
    default:
      break;
  }
}

/** @param {ReplayState} s @param {string} seat @param {string} card @param {number} players @param {string} side */
function discard(s, seat, card, players, side) {
  s.hands[seat] = removeCards(s.hands[seat], [card]);
  s.pile.push(card);
  s.note = { key: 'r_discard', params: { seat, card } };
  if (s.hands[seat].length === 0) {
    if (s.pozzettoOf[side] != null) s.over = true;
    else takePozzetto(s, seat, players, false);
  }
  s.onTurn = nextSeat(seat, players);
  s.taken = false;
  s.single = null;
}
