// @ts-check
/**
 * A table as this client sees it, built only from the server's snapshot and events (never from
 * what the player asked for). `applyMessage` folds one server message into the model.
 */

/** @typedef {import('./net.js').Message} Message */
/**
 * @typedef {{id: number, side: string, kind: string, start: number|null, cards: string[], wild_at: number|null, wild: string|null}} Meld
 * @typedef {{seat: string, name: string|null, bot: boolean, connected: boolean, ready: boolean, cards: number|null, graceUntil?: number|null,
 *   standIn?: boolean, left?: boolean}} SeatInfo
 *   (`standIn`: a server bot plays for the seat's player, gone past the grace period or left; `left`: for good)
 * @typedef {{number: number, dealer: string, onTurn: string, phase: string, hand: string[]|null, melds: Meld[], pile: string[],
 *   tallone: number, pozzetti: (string|null)[], pickedSingle: string|null, commitment: string|null, upCard: string|null,
 *   dealt: string[]|null, clockDeadline: number|null, clockGraceMs: number|null, inGrace: boolean, lastRound: number|null,
 *   stalloExchanges: number, stalloMustDraw: string|null, stallo: boolean, pozzettoPending: boolean, clockHeldMs?: number|null}} HandState
 *   (`clockHeldMs`: the move clock a director's pause holds, shown still)
 * @typedef {{table: string, seq: number, settings: Record<string, any>, status: string, you: string|null,
 *   seats: SeatInfo[], handsPlayed: number, sides: string[], totals: number[], roundDeadline: number|null,
 *   timeOut: boolean, turnsLeft: number|null, hand: HandState|null, ended: Message|null, record: Message|null,
 *   matchEnded: Message|null, chat: {name: string, text: string, seat: string|null}[], log: {key: string, params: Record<string, any>}[],
 *   notice: {key: string, params: Record<string, any>, turns?: number}|null, serverTurn?: string|null, lastMeld?: number|null,
 *   paused?: boolean, roundHeldMs?: number|null, sameAddress?: string[]|null}} TableState
 *   (`serverTurn`: the seat whose clock ran out, while the server plays its turn; `paused`: its tournament's
 *   director paused play, `roundHeldMs` the round clock held meanwhile: `table_paused`, protocol 1.6;
 *   `sameAddress`: a rated table's seats whose accounts connect from one address, `same_address`, 1.7)
 */

export const SEATS_4 = ['N', 'E', 'S', 'W'];
export const SEATS_2 = ['S', 'N'];

/** @param {number} players */
export function seatsOf(players) {
  return players === 2 ? SEATS_2 : SEATS_4;
}

/** The side label of a seat: NS/EW, or the seat itself head to head. @param {string} seat @param {number} players */
export function sideOf(seat, players) {
  if (players === 2) return seat;
  return seat === 'N' || seat === 'S' ? 'NS' : 'EW';
}

/** @param {string} seat */
export function partnerOf(seat) {
  return /** @type {Record<string,string>} */ ({ N: 'S', S: 'N', E: 'W', W: 'E' })[seat];
}

/** @param {string} table @returns {TableState} */
export function emptyTable(table) {
  return {
    table, seq: 0, settings: {}, status: 'waiting', you: null, seats: [], handsPlayed: 0, sides: [], totals: [0, 0],
    roundDeadline: null, timeOut: false, turnsLeft: null, hand: null, ended: null, record: null, matchEnded: null,
    chat: [], log: [], notice: null,
  };
}

/**
 * `table_paused` (protocol 1.6, not numbered): the tournament's director paused play at this table
 * (every clock held where it stood) or resumed it (the clocks run again from what they had left).
 * @param {TableState} st @param {Message} m @param {number} now
 */
export function applyPause(st, m, now) {
  const h = st.hand;
  st.paused = !!m.paused;
  if (m.paused) {
    st.roundHeldMs = m.round_clock_left_ms ?? null;
    if (h) h.clockHeldMs = m.move_clock_left_ms ?? null;
    return;
  }
  st.roundHeldMs = null;
  st.roundDeadline = m.round_clock_left_ms == null ? null : now + m.round_clock_left_ms;
  if (h) {
    h.clockHeldMs = null;
    h.clockDeadline = m.move_clock_left_ms == null ? null : now + m.move_clock_left_ms;
  }
}

/**
 * `same_address` (protocol 1.7, not numbered: the table's state, not an event): the seats of a
 * rated table whose accounts are connected from one address, in seat order (never the address).
 * Kept as the seats the page knows; none is nothing to say.
 * @param {TableState} st @param {Message} m
 */
export function applySameAddress(st, m) {
  const seats = Array.isArray(m.seats) ? m.seats.filter((/** @type {unknown} */ s) => typeof s === 'string' && SEATS_4.includes(s)) : [];
  st.sameAddress = seats.length ? seats : null;
}

/** @param {TableState} st */
export function playerCount(st) {
  return st.settings.players ?? (st.seats.length || 4);
}

/** Removes one copy of each card from a hand (copy returned). @param {string[]} hand @param {string[]} cards */
export function removeCards(hand, cards) {
  const out = [...hand];
  for (const c of cards) {
    const i = out.indexOf(c);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

/**
 * @param {TableState} st @param {string} seat
 * @returns {SeatInfo}
 */
function seatInfo(st, seat) {
  let s = st.seats.find((x) => x.seat === seat);
  if (!s) {
    s = { seat, name: null, bot: false, connected: false, ready: false, cards: null };
    st.seats.push(s);
  }
  return s;
}

/** @param {TableState} st @param {string} key @param {Record<string, any>} params */
function log(st, key, params) {
  st.log.push({ key, params });
  if (st.log.length > 300) st.log.shift();
}

/**
 * A clock notice stays until the seat it concerns moves again by itself (a person who looked away
 * sees it when they come back), or the next hand.
 * @param {TableState} st @param {string} seat
 */
function clearNoticeOnOwnMove(st, seat) {
  if (st.notice && st.notice.params.seat === seat && st.serverTurn !== seat) st.notice = null;
}

/**
 * Whether a seat's name is one the server gives its own bots ("Bot (expert)"): a seat with
 * `bot` set and another name is a player's seat a bot plays for the time being (a stand-in).
 * @param {string|null|undefined} name
 */
export function isServerBotName(name) {
  return /^Bot \((random|greedy|expert|search)\)$/.test(name ?? '');
}

/**
 * Applies a snapshot (the full state as of `seq`).
 * @param {TableState} st @param {Message} m @param {number} now
 */
export function applySnapshot(st, m, now) {
  const v = m.view;
  st.seq = m.seq;
  st.settings = v.settings;
  st.status = v.status;
  st.you = v.you;
  const before = st.seats;
  st.seats = v.seats.map((/** @type {any} */ s) => {
    const prev = before.find((x) => x.seat === s.seat && x.name === s.name);
    const standIn = !!s.bot && (!!prev?.standIn || !isServerBotName(s.name));
    return { ...s, standIn, left: standIn && !!prev?.left };
  });
  st.handsPlayed = v.hands_played;
  st.sides = v.sides;
  st.totals = v.totals;
  st.roundDeadline = v.round_clock_left_ms == null ? null : now + v.round_clock_left_ms;
  // A pause follows its snapshot as `table_paused`: none, and play is on.
  st.paused = false; st.roundHeldMs = null;
  // So does `same_address` when seats still share one: none after this snapshot, nothing shared.
  st.sameAddress = null;
  st.timeOut = v.time_out;
  const h = v.hand;
  if (!h) { st.hand = null; return; }
  const prev = st.hand && st.hand.number === h.number ? st.hand : null;
  st.hand = {
    number: h.number, dealer: h.dealer, onTurn: h.on_turn, phase: h.phase, hand: h.hand, melds: h.melds,
    pile: h.pile, tallone: h.tallone, pozzetti: h.pozzetti, pickedSingle: h.picked_single_card, commitment: h.commitment,
    upCard: prev ? prev.upCard : (h.pile.length === 1 && h.phase === 'take' ? h.pile[0] : null),
    dealt: prev ? prev.dealt : null,
    clockDeadline: h.move_clock_left_ms == null ? null : now + h.move_clock_left_ms,
    clockGraceMs: prev?.clockGraceMs ?? (h.move_clock_left_ms == null ? null : 5000),
    inGrace: false, lastRound: h.last_round, stalloExchanges: h.stallo_exchanges, stalloMustDraw: h.stallo_must_draw,
    stallo: prev ? prev.stallo : false,
    pozzettoPending: h.hand == null && v.you != null && h.phase !== 'over',
  };
  if (h.phase === 'over' && st.status !== 'between_hands' && st.status !== 'finished') st.status = 'between_hands';
}

/**
 * Folds one table message into the state. Returns false when the message is not for this
 * state's sequence (the caller handles numbering and gaps).
 * @param {TableState} st @param {Message} m @param {number} now
 */
export function applyMessage(st, m, now) {
  if (m.type === 'snapshot') { applySnapshot(st, m, now); return true; }
  if (typeof m.seq === 'number') st.seq = m.seq;
  const players = playerCount(st);
  const h = st.hand;
  switch (m.type) {
    case 'tick': break;
    case 'player_joined': {
      const s = seatInfo(st, m.seat);
      Object.assign(s, { name: m.name, bot: m.bot, connected: true, ready: false, standIn: false, left: false });
      log(st, 'ev_joined', { name: m.name, seat: m.seat });
      break;
    }
    case 'player_left': {
      const s = seatInfo(st, m.seat);
      if (st.status === 'waiting') {
        Object.assign(s, { name: null, bot: false, connected: false, ready: false, standIn: false, left: false });
        for (const x of st.seats) x.ready = false;
      } else {
        s.connected = false; s.left = true;
      }
      log(st, 'ev_left', { seat: m.seat });
      break;
    }
    case 'player_ready': seatInfo(st, m.seat).ready = true; log(st, 'ev_ready', { seat: m.seat }); break;
    case 'player_disconnected': {
      const s = seatInfo(st, m.seat);
      s.connected = false; s.graceUntil = now + m.grace_ms;
      log(st, 'ev_disconnected', { seat: m.seat });
      break;
    }
    case 'player_reconnected': {
      const s = seatInfo(st, m.seat);
      Object.assign(s, { connected: true, graceUntil: null, bot: false, standIn: false, left: false });
      log(st, 'ev_reconnected', { seat: m.seat });
      break;
    }
    case 'player_replaced_by_bot': {
      const s = seatInfo(st, m.seat);
      // The bot plays through its own connection: the seat counts as connected again.
      Object.assign(s, { bot: true, standIn: true, connected: true, graceUntil: null });
      log(st, 'ev_bot', { seat: m.seat });
      break;
    }
    case 'match_started':
      st.status = 'playing';
      st.roundDeadline = m.round_clock_ms == null ? null : now + m.round_clock_ms;
      if (st.paused) st.roundHeldMs = m.round_clock_ms ?? null;
      st.totals = [0, 0];
      log(st, 'ev_match_started', { seat: m.first_dealer });
      break;
    case 'hand_started': {
      st.status = 'playing';
      st.ended = null; st.record = null; st.notice = null;
      const tallone = 108 - 22 - players * 11 - 1;
      st.hand = {
        number: m.hand, dealer: m.dealer, onTurn: m.first, phase: 'take', hand: null, melds: [], pile: [m.up_card],
        tallone, pozzetti: [null, null], pickedSingle: null, commitment: m.commitment, upCard: m.up_card, dealt: null,
        clockDeadline: null, clockGraceMs: null, inGrace: false, lastRound: null, stalloExchanges: 0, stalloMustDraw: null,
        stallo: false, pozzettoPending: false,
      };
      for (const s of st.seats) s.cards = 11;
      log(st, 'ev_hand_started', { n: m.hand, seat: m.dealer });
      break;
    }
    case 'dealt':
      if (h && m.seat === st.you) { h.hand = [...m.cards]; h.dealt = [...m.cards]; }
      break;
    case 'turn_started':
      st.serverTurn = null;
      if (h) {
        h.onTurn = m.seat; h.phase = 'take'; h.pickedSingle = null; h.inGrace = false;
        h.clockDeadline = m.clock_ms == null ? null : now + m.clock_ms + (m.grace_ms ?? 0);
        h.clockGraceMs = m.grace_ms ?? null;
        // A turn begun during a director's pause: its clock starts when play resumes.
        if (st.paused) h.clockHeldMs = m.clock_ms == null ? null : m.clock_ms + (m.grace_ms ?? 0);
        seatInfo(st, m.seat).cards = m.cards_held;
      }
      break;
    case 'grace_started':
      if (h) { h.inGrace = true; h.clockDeadline = now + m.grace_ms; h.clockGraceMs = m.grace_ms; }
      break;
    case 'drew':
      if (h) {
        h.tallone = Math.max(0, h.tallone - 1); h.phase = 'play';
        const s = seatInfo(st, m.seat); s.cards = (s.cards ?? 0) + 1;
        log(st, st.serverTurn === m.seat ? 'ev_server_drew' : 'ev_drew', { seat: m.seat });
        clearNoticeOnOwnMove(st, m.seat);
      }
      break;
    case 'drew_card':
      if (h && m.seat === st.you && h.hand) h.hand = [...h.hand, m.card];
      break;
    case 'picked_up':
      if (h) {
        h.pile = []; h.phase = 'play';
        h.pickedSingle = m.cards.length === 1 ? m.cards[0] : null;
        const s = seatInfo(st, m.seat); s.cards = (s.cards ?? 0) + m.cards.length;
        if (m.seat === st.you && h.hand) h.hand = [...h.hand, ...m.cards];
        log(st, 'ev_picked_up', { seat: m.seat, n: m.cards.length });
        clearNoticeOnOwnMove(st, m.seat);
      }
      break;
    case 'opened':
    case 'attached':
      if (h) {
        const i = h.melds.findIndex((x) => x.id === m.meld.id);
        if (i >= 0) h.melds[i] = m.meld; else h.melds.push(m.meld);
        h.melds.sort((a, b) => a.id - b.id);
        const s = seatInfo(st, m.seat); s.cards = Math.max(0, (s.cards ?? 0) - m.cards.length);
        if (m.seat === st.you && h.hand) h.hand = removeCards(h.hand, m.cards);
        // The meld's number as the table shows it: its place among its side's melds.
        const no = h.melds.filter((x) => x.side === m.meld.side).findIndex((x) => x.id === m.meld.id) + 1;
        st.lastMeld = m.meld.id;
        log(st, m.type === 'opened' ? 'ev_opened_named' : 'ev_attached_named', { seat: m.seat, m: no, cards: m.cards });
      }
      break;
    case 'pozzetto_taken':
      if (h) {
        h.pozzetti[m.pozzetto === 'A' ? 0 : 1] = sideOf(m.seat, players);
        seatInfo(st, m.seat).cards = 11;
        if (m.seat === st.you) { h.hand = null; h.pozzettoPending = true; }
        log(st, 'ev_pozzetto', { seat: m.seat, p: m.pozzetto, how: m.in_diretta ? 'in_diretta' : 'con_lo_scarto' });
      }
      break;
    case 'pozzetto_cards':
      if (h && m.seat === st.you) { h.hand = [...m.cards]; h.pozzettoPending = false; }
      break;
    case 'discarded':
      if (h) {
        h.pile = [...h.pile, m.card];
        const s = seatInfo(st, m.seat); s.cards = Math.max(0, (s.cards ?? 0) - 1);
        if (m.seat === st.you && h.hand) h.hand = removeCards(h.hand, [m.card]);
        h.clockDeadline = null;
        log(st, st.serverTurn === m.seat ? 'ev_server_discarded' : 'ev_discarded', { seat: m.seat, card: m.card });
        st.serverTurn = null;
      }
      break;
    case 'clock_expired':
      // The server plays this turn: the draw and discard that follow are its moves, not the player's.
      st.notice = { key: 'clock_expired', params: { seat: m.seat }, turns: 0 };
      st.serverTurn = m.seat;
      log(st, 'ev_clock_expired', { seat: m.seat });
      break;
    case 'time_out':
      st.timeOut = true; st.turnsLeft = m.turns_left; st.roundDeadline = null;
      if (h) h.lastRound = m.turns_left;
      break;
    case 'stallo_warning':
      if (h) h.stalloExchanges = m.exchanges;
      break;
    case 'stallo':
      if (h) { h.stallo = true; h.stalloMustDraw = m.must_draw ?? null; }
      break;
    case 'hand_ended':
      st.ended = m;
      st.status = 'between_hands';
      // Everyone says ready again for the next hand (bots' player_ready follows at once).
      for (const s of st.seats) s.ready = false;
      if (h) {
        h.phase = 'over'; h.clockDeadline = null;
        for (const s of m.hands) seatInfo(st, s.seat).cards = s.cards.length;
      }
      st.totals = st.totals.map((x, i) => x + (m.score[i]?.total ?? 0));
      st.handsPlayed = m.hand;
      st.serverTurn = null;
      log(st, 'ev_hand_ended', { n: m.hand, score: m.score.map((/** @type {any} */ x) => `${x.side} ${x.total > 0 ? '+' : ''}${x.total}`).join(' · ') });
      break;
    case 'hand_record':
      st.record = m;
      break;
    case 'match_ended':
      st.matchEnded = m; st.status = 'finished'; st.totals = m.totals;
      break;
    case 'chat_message':
      st.chat.push({ name: m.name, text: m.text, seat: m.seat ?? null });
      if (st.chat.length > 50) st.chat.shift();
      break;
    default:
      return false;
  }
  return true;
}
