// @ts-check
/** The table: seats around, melds of both sides, pile, tallone, pozzetti, clocks, the own hand and actions. */
import { t, localBotName } from './i18n.js';
import { cardHtml, backHtml, cardFace, isRed, label, playableIndexes, RANK_OF_POS, parse, isMeld } from './cards.js';
import { sideOf, partnerOf, playerCount, seatsOf } from './state.js';
import { botBadge, busyAttr } from './view-lobby.js';
import { escapeHtml, BOTS_OFFER_MS } from './dom.js';
import { levelBadge, levelOf, expectedHtml, expectedOf } from './levels.js';

/** The level of a seat of the table shown, from its `table_levels` (none before it came). @param {import('./app.js').App} app @param {string} seat */
function seatLevel(app, seat) {
  return app.seatLevels && app.seatLevels.table === app.table?.table ? levelOf(app.seatLevels.levels, seat) : null;
}

/**
 * What a program at a seat is called: a bot account (its author's program, `seat_identities`
 * kind `bot`) or the server's own bot (the default while the identities have not come).
 * @param {import('./app.js').App} app @param {string} seat
 */
function botTitle(app, seat) {
  const kinds = app.seatKinds && app.seatKinds.table === app.table?.table ? app.seatKinds.seats : [];
  return kinds.find((x) => x.seat === seat)?.kind === 'bot' ? t('bot_account') : t('server_bot');
}

/**
 * The rules, the match length and the clocks of a table, in a line ("FITAB · 1 hand · clocks: relaxed (20/40/80 s a move)").
 * @param {Record<string, any>} settings the snapshot's settings
 */
export function settingsText(settings) {
  const preset = String(settings.preset ?? '').toUpperCase();
  const length = settings.hands ? t('length_hands', { n: settings.hands }) : settings.target ? t('length_target', { n: settings.target }) : '';
  const clocks = t(/** @type {any} */ (`clocks_on_${settings.clocks ?? 'off'}`));
  return escapeHtml(t('settings_line', { preset, length, clocks }));
}

/** mm:ss @param {number} ms */
export function clockText(ms) {
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** @param {string} seat */
const seatName = (seat) => t(/** @type {any} */ (`seat_${seat}`));

/**
 * The seat names shown in messages: the player's name (with the seat when another seat has the
 * same name), or the seat.
 * @param {import('./state.js').TableState} st @param {string} seat @param {{disambiguate?: boolean}} [o]
 */
export function nameOf(st, seat, { disambiguate = true } = {}) {
  const s = st.seats.find((x) => x.seat === seat);
  if (!s || !s.name) return seatName(seat);
  const name = localBotName(s.name);
  // Three "Bot (expert)" at one table: say which one.
  if (disambiguate && st.seats.some((x) => x.seat !== seat && x.name === s.name)) return `${name} · ${seatName(seat)}`;
  return name;
}

/**
 * The table's word on `same_address` (protocol 1.7): the players whose seats connect from one
 * address, by name, said plainly (a household or a shared network is the usual reason), or
 * `null` when none do. Which seats pair up is never known, so none is said.
 * @param {import('./state.js').TableState} st
 */
export function sameAddressText(st) {
  if (!st.sameAddress?.length) return null;
  const names = st.sameAddress.map((seat) => nameOf(st, seat));
  return t('same_address', { names: names.join(', ') });
}

/**
 * Seats placed around the table with the viewer at the bottom.
 * @param {import('./state.js').TableState} st
 * @returns {{bottom: string, left: string|null, top: string, right: string|null}}
 */
function layout(st) {
  const players = playerCount(st);
  const me = st.you ?? 'S';
  if (players === 2) return { bottom: me, top: me === 'S' ? 'N' : 'S', left: null, right: null };
  // Play runs clockwise (RULES.md section 3: N, E, S, W): seen from above with the viewer at the
  // bottom, the next player sits on the viewer's left, the previous one on the right. A spectator
  // sees South at the bottom: North up, West left, East right, as on a map.
  const order = seatsOf(4);
  const i = order.indexOf(me);
  return { bottom: me, left: order[(i + 1) % 4], top: order[(i + 2) % 4], right: order[(i + 3) % 4] };
}

/** @param {import('./state.js').Meld} m @param {{own: boolean, fits: boolean, armed: boolean, index: number, last?: boolean, fresh?: boolean}} o */
export function meldHtml(m, o) {
  const isSeq = m.kind === 'sequence';
  const cards = m.cards.map((c, i) => {
    const pos = isSeq && m.start != null ? m.start + i : null;
    const wild = isSeq ? pos != null && pos === m.wild_at : m.wild != null && c === m.wild && i === m.cards.lastIndexOf(m.wild);
    let title = label(c);
    let tag = '';
    if (wild && isSeq && pos != null) {
      const standsFor = RANK_OF_POS[pos] + (parse(m.cards.find((x) => x !== 'JK' && !x.startsWith('2')) ?? 'AH').suit);
      title = t('wild_as', { card: label(standsFor) });
      tag = `<span class="wild-tag">${escapeHtml(RANK_OF_POS[pos])}</span>`;
    } else if (wild) {
      title = t('wild_as', { card: m.cards.find((x) => x !== m.wild) ? parse(/** @type {string} */ (m.cards.find((x) => x !== m.wild))).rank : '?' });
    }
    return `<span class="meld-slot ${wild ? 'is-wild' : ''}">${cardHtml(c, { cls: wild ? 'wild' : '', title })}${tag}</span>`;
  }).join('');
  const burraco = m.cards.length >= 7 ? `<span class="badge burraco">${m.cards.length >= 7 ? 'Burraco' : ''}</span>` : '';
  const kind = isSeq ? t('sequence') : t('combination');
  const interactive = o.own;
  const attrs = interactive ? `role="button" tabindex="0" data-action="meld" data-meld="${m.id}" data-focus="meld-${m.id}" aria-label="${kind} ${o.index}: ${m.cards.map(label).join(' ')}"` : `aria-label="${kind}: ${m.cards.map(label).join(' ')}"`;
  return `<div class="meld ${m.cards.length >= 7 ? 'is-burraco' : ''} ${o.fits ? 'fits' : ''} ${o.armed && interactive ? 'armed' : ''} ${o.last ? 'just-now' : ''}${o.fresh ? ' fresh' : ''}" ${attrs} data-testid="meld" data-meld-id="${m.id}">
    <div class="meld-head">${o.armed && interactive ? `<kbd>${o.index}</kbd>` : `<span class="meld-no" data-testid="meld-no">${o.index}</span>`}<span class="meld-kind">${kind}</span>${burraco}<span class="meld-count">${m.cards.length}</span></div>
    <div class="meld-cards ${isSeq ? 'seq' : 'comb'}">${cards}</div>
  </div>`;
}

/**
 * @param {import('./app.js').App} app @param {string} seat @param {string} pos
 */
function seatHtml(app, seat, pos) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  const s = st.seats.find((x) => x.seat === seat);
  const h = st.hand;
  const players = playerCount(st);
  const onTurn = h && h.phase !== 'over' && h.onTurn === seat;
  const me = st.you === seat;
  const role = me ? t('you') : st.you && players === 4 && partnerOf(st.you) === seat ? t('partner') : st.you ? t('opponent') : '';
  let conn = 'connected', connText = t('connected');
  if (s && s.name) {
    if (s.bot) { conn = 'bot'; connText = s.standIn ? t(s.left ? 'stand_in_left' : 'stand_in', { name: s.name }) : botTitle(app, seat); }
    else if (!s.connected) { conn = 'away'; connText = s.graceUntil ? t('disconnected_grace', { s: Math.max(0, Math.round((s.graceUntil - Date.now()) / 1000)) }) : t('disconnected'); }
  }
  const count = s && s.cards != null ? s.cards : null;
  const fan = count != null && !me ? `<div class="mini-fan" aria-hidden="true">${Array.from({ length: Math.min(count, 12) }, () => '<span class="mini-back"></span>').join('')}</div>` : '';
  const clock = onTurn && h ? moveClock(st, h) : '';
  const dealer = h && h.dealer === seat ? `<span class="chip dealer" title="${t('dealer')}">D</span>` : '';
  return `<div class="seat seat-${pos} ${onTurn ? 'on-turn' : ''} ${me ? 'me' : ''}${app.fresh?.seat === seat ? ' fresh' : ''}" data-testid="seat-${seat}" data-seat="${seat}">
    <div class="seat-line">
      <span class="dot dot-${s && s.name ? conn : 'empty'}" title="${s && s.name ? escapeHtml(connText) : t('free_seat')}"></span>
      <span class="seat-name">${s && s.name ? escapeHtml(localBotName(s.name)) : `<em>${t('free_seat')}</em>`}</span>
      ${s && s.name ? levelBadge(seatLevel(app, seat)) : ''}
      ${s && s.bot ? botBadge(s.standIn ? connText : botTitle(app, seat)) : ''}
      ${dealer}
    </div>
    <div class="seat-sub"><span>${seatName(seat)}${role ? ` · ${role}` : ''}</span>
      ${count != null ? `<span class="count" data-testid="count-${seat}">${t('cards_n', { n: count })}</span>` : ''}</div>
    ${s && s.name && ((!s.connected && !s.bot) || s.standIn) ? `<div class="seat-warn ${s.standIn ? 'stand-in' : ''}" data-testid="seat-warn-${seat}">${escapeHtml(connText)}</div>` : ''}
    ${fan}
    ${onTurn ? `<div class="turn-flag">▶ ${me ? t('your_turn') : t('turn_of', { name: escapeHtml(nameOf(st, seat)) })} ${clock}</div>` : ''}
  </div>`;
}

/** @param {import('./app.js').App} app */
function waitingHtml(app) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  const me = st.seats.find((s) => s.seat === st.you);
  // Alone at a table for a few seconds: offer server bots. Alone counts the players who are
  // gone (closed their tab; their seat is kept a while) as nobody.
  const alone = !!st.you && !app.invite && !st.seats.some((x) => x.name && x.seat !== st.you && (x.bot || x.connected));
  const seats = seatsOf(playerCount(st)).map((seat) => {
    const s = st.seats.find((x) => x.seat === seat);
    return `<li class="ready-row" data-seat="${seat}"><span class="seat-tag">${seatName(seat)}</span>
      <span class="grow">${s && s.name ? escapeHtml(localBotName(s.name)) + (s.bot ? ' ' + botBadge(botTitle(app, seat)) : '') + levelBadge(seatLevel(app, seat)) : `<em class="muted">${t('free_seat')}</em>`}</span>
      ${s && s.name && app.expected?.table === st.table ? expectedHtml(expectedOf(app.expected.expected, seat)) : ''}
      ${s && s.name && !s.bot && !s.connected ? `<span class="ready-state away" data-testid="ready-gone">${t('seat_gone')}</span>`
        : `<span class="ready-state ${s && s.ready ? 'yes' : ''}">${s && s.name ? (s.ready ? '✔ ' + t('ready') : t('not_ready')) : ''}</span>`}</li>`;
  }).join('');
  return `<div class="ready-check panel" data-testid="ready-check">
    <h2>${t('ready_check')}</h2>
    ${app.invite ? `<div class="invite"><span>${t('invite_share')}</span> <code data-testid="invite-code">${escapeHtml(app.invite)}</code>
      <button class="btn small" data-action="copy-invite">${t('copy')}</button></div>` : ''}
    <p class="settings-line" data-testid="ready-settings">${settingsText(st.settings)}</p>
    <ul class="ready-list">${seats}</ul>
    <p class="muted small">${t('ready_hint')}</p>
    ${alone && Date.now() - app.enteredAt >= BOTS_OFFER_MS ? `<div class="bots-offer" data-testid="bots-offer"><p>${t('play_bots_offer')}</p>
      <button class="btn primary wide" data-action="play-bots" data-testid="play-bots" data-focus="play-bots"${busyAttr(app, 'play-bots')}>${t('play_bots')} ▶</button></div>` : ''}
    ${st.you && me && !me.ready ? `<button class="btn primary wide" data-action="ready" data-testid="ready" data-focus="ready">${t('im_ready')}</button>` : ''}
    ${st.you && me && !alone && st.seats.some((x) => !x.name) ? `<button class="btn wide" data-action="add-bots" data-testid="add-bots">${t('add_bots')}</button>` : ''}
    <h3 class="chat-title">${t('chat')}</h3><ul class="chat" data-testid="chat">${st.chat.slice(-8).map((c) => `<li><b>${escapeHtml(localBotName(c.name))}:</b> ${escapeHtml(phraseText(c.text))}</li>`).join('')}</ul>
    ${chatFormHtml(app)}
  </div>`;
}

/** @param {import('./app.js').App} app */
export function renderTable(app) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  const h = st.hand;
  const players = playerCount(st);
  const pos = layout(st);
  const mySide = st.you ? sideOf(st.you, players) : sideOf('S', players);
  const sides = st.sides.length ? st.sides : players === 2 ? ['S', 'N'] : ['NS', 'EW'];
  const settings = st.settings;
  const handLabel = h ? (settings.hands ? t('hand_of', { n: h.number, total: settings.hands }) : t('hand_n', { n: h.number })) : '';
  const target = settings.target ? ` · ${t('to_target', { n: settings.target })}` : '';
  const scores = sides.map((side, i) => `<span class="score ${side === mySide && st.you ? 'ours' : ''}" data-testid="score-${side}"><b>${side}</b> ${st.totals[i] ?? 0}</span>`).join('');
  // A director's pause holds the round clock: shown still (`data-held`), not counting down.
  const roundValue = st.paused && st.roundHeldMs != null ? `<span data-held="${st.roundHeldMs}" data-testid="round-clock-held"></span>`
    : st.roundDeadline && !st.paused ? `<span data-deadline="${st.roundDeadline}"></span>` : '';
  const round = roundValue ? `<span class="round-clock" title="${t('round_clock')}"><span class="muted small">${t('round_clock')}</span> ${roundValue}</span>` : '';
  const banners = [];
  if (st.timeOut) banners.push(`<div class="banner timeout" data-testid="timeout" role="status">${st.turnsLeft === 0 ? t('time_out_void') : st.turnsLeft != null ? t('time_out_turns', { n: st.turnsLeft }) : t('time_out')}</div>`);
  if (h && h.stallo) banners.push(`<div class="banner stallo" role="status">${h.stalloMustDraw ? t('stallo_must_draw', { seat: escapeHtml(nameOf(st, h.stalloMustDraw)) }) : t('stallo_ends')}</div>`);
  else if (h && h.stalloExchanges > 0 && h.phase !== 'over') banners.push(`<div class="banner stallo-warn" data-testid="stallo-warning" role="status">${t('stallo_warning', { n: h.stalloExchanges })}</div>`);
  if (st.notice && st.notice.key === 'clock_expired') {
    const mine = st.notice.params.seat === st.you;
    banners.push(`<div class="banner clock-notice" data-testid="clock-notice" role="status"><span>${mine ? t('clock_expired_you') : t('clock_expired', { name: escapeHtml(nameOf(st, st.notice.params.seat)) })}</span>
      <button type="button" class="toast-x" data-action="dismiss-notice" aria-label="${t('close')}">×</button></div>`);
  }
  if (st.paused) banners.push(`<div class="banner info" data-testid="table-paused" role="status">${t('t_paused')}</div>`);
  const sameAddress = sameAddressText(st);
  if (sameAddress) banners.push(`<div class="banner same-address" data-testid="same-address" role="note">${escapeHtml(sameAddress)}</div>`);
  if (app.spectating) banners.push(`<div class="banner info" data-testid="spectating">${t('spectating')}</div>`);
  const strip = app.tournamentStrip();
  if (strip) banners.unshift(strip);

  const topbar = `<div class="topbar">
    <button class="btn small ghost" data-action="leave" data-testid="leave" data-focus="leave">← ${app.spectating || st.status === 'finished' ? t('back_to_lobby') : t('leave')}</button>
    <span class="table-id">${t('table')} <b class="mono">${escapeHtml(st.table)}</b></span>
    <span class="muted table-what">${escapeHtml(String(settings.preset ?? '').toUpperCase())}${handLabel ? ' · ' + handLabel : ''}${target}</span>
    <span class="scores" aria-label="${t('running_score')}">${scores}</span>
    ${round}
    ${st.ended ? `<button class="btn small" data-action="show-score" data-testid="show-score">${t('score')}</button>` : ''}
    ${app.hands.length ? `<button class="btn small" data-action="show-history" data-testid="show-history">${t('hands_btn')} (${app.hands.length})</button>` : ''}
    <button class="btn small ghost" data-action="help" aria-label="${t('shortcuts')}" title="${t('shortcuts')}">⌨</button>
    ${h && st.status !== 'waiting' ? `<button class="btn small side-toggle ${app.sideOpen ? 'armed' : ''}" data-action="toggle-side" data-testid="side-toggle" data-focus="side-toggle"
      aria-expanded="${app.sideOpen}" aria-controls="side-panel" title="${t('log_toggle_label')}">${t('log_toggle')}</button>` : ''}
  </div>`;

  if (!h || st.status === 'waiting') {
    return `<section class="table-view">${topbar}${banners.join('')}
      <div class="felt waiting">${waitingHtml(app)}</div></section>`;
  }

  // Melds by side
  const ownMelds = h.melds.filter((m) => m.side === mySide);
  const theirMelds = h.melds.filter((m) => m.side !== mySide);
  const myTurn = !!st.you && h.onTurn === st.you && h.phase !== 'over' && !app.spectating;
  const meldRow = (/** @type {import('./state.js').Meld[]} */ melds, /** @type {boolean} */ own) => melds.length
    ? melds.map((m, i) => meldHtml(m, { own: own && !!st.you && !app.spectating, fits: own && myTurn && h.phase === 'play' && app.fitsMeld(m), armed: app.attachArmed, index: i + 1, last: st.lastMeld === m.id, fresh: app.fresh?.meld === m.id })).join('')
    : `<p class="empty-melds">${t('no_melds')}</p>`;
  const otherSide = sides.find((x) => x !== mySide) ?? '';
  const ourTitle = app.spectating || !st.you ? t('melds_side', { side: mySide }) : t('our_melds');
  const theirTitle = app.spectating || !st.you ? t('melds_side', { side: otherSide }) : t('their_melds');

  // Pile (whole, bottom first), tallone, pozzetti
  const pile = h.pile.length
    ? `<div class="pile-fan" style="--n:${h.pile.length}">${h.pile.map((c, i) => cardHtml(c, { cls: i === h.pile.length - 1 ? `top${app.fresh?.pile ? ' fresh' : ''}` : '' })).join('')}</div>`
    : `<div class="pile-empty">${t('pile_empty')}</div>`;
  const canTake = myTurn && h.phase === 'take';
  const pozz = h.pozzetti.map((p, i) => `<div class="pozzetto ${p ? 'taken' : ''}" data-testid="pozzetto-${i ? 'B' : 'A'}">
      <div class="stack small">${p ? '' : backHtml('tiny') + backHtml('tiny')}</div>
      <div class="pz-label">${t('pozzetto')} ${i ? 'B' : 'A'}<br><span class="muted small">${p ? t('pozzetto_taken_by', { side: p }) : t('pozzetto_free')}</span></div></div>`).join('');
  const center = `<div class="center">
    <div class="deck-area">
      <button class="tallone ${canTake ? 'can' : ''}" data-action="draw" ${canTake ? '' : 'disabled'} data-testid="tallone" data-focus="tallone" aria-label="${t('draw')} (${t('tallone')}: ${h.tallone})">
        <span class="stack">${backHtml()}${backHtml()}${backHtml()}</span>
        <span class="deck-label">${t('tallone')} <b data-testid="tallone-count">${h.tallone}</b></span>
      </button>
      <div class="pile ${canTake && h.pile.length ? 'can' : ''}" data-testid="pile" role="group"
        aria-label="${escapeHtml(h.pile.length ? t('pile_sr', { n: h.pile.length, top: label(h.pile[h.pile.length - 1]) }) : `${t('pile')}: ${t('pile_empty')}`)}">
        <div class="pile-title">${t('pile')} <span class="muted">(${h.pile.length})</span></div>
        ${pile}
        ${canTake && h.pile.length ? `<button class="btn small" data-action="pick-up" data-testid="pick-up-pile" data-focus="pickup">${t('pick_up')}</button>` : ''}
      </div>
      <div class="pozzetti">${pozz}</div>
    </div>
  </div>`;

  // Own hand
  let handArea = '';
  if (st.you && !app.spectating) {
    const cards = h.hand;
    let inner;
    if (cards == null) {
      inner = `<p class="pozzetto-wait">${h.pozzettoPending ? t('your_pozzetto_hidden') : ''}</p>`;
    } else {
      const keys = app.handKeys(cards);
      const playable = myTurn && h.phase === 'play' ? playableIndexes(keys.map((k) => k.code), ownMelds) : new Set();
      inner = `<div class="hand-cards" role="group" aria-label="${t('your_hand')}" data-testid="hand" style="--n:${keys.length}">${keys.map((k, i) => {
        const sel = app.selected.has(k.key);
        const drawn = app.lastDrawn === k.code && keys.filter((x) => x.code === k.code).pop() === k;
        const color = k.code === 'JK' ? 'joker' : isRed(k.code) ? 'red' : 'black';
        return `<button type="button" class="card ${color} ${sel ? 'selected' : ''} ${playable.has(i) ? 'playable' : ''} ${drawn ? 'drawn' : ''}" data-action="card" data-key="${k.key}" data-code="${k.code}" data-focus="card-${k.key}" aria-pressed="${sel}" aria-label="${label(k.code)}${playable.has(i) ? `, ${t('playable_sr')}` : ''}" data-testid="hand-card">${cardFace(k.code)}</button>`;
      }).join('')}</div>`;
    }
    const sel = app.selectedCards();
    const inPlay = myTurn && h.phase === 'play';
    // A hint only (the server decides): "Open" lights up for selected cards that make a meld.
    const canOpen = sel.length >= 3 && isMeld(sel);
    // Why "Open" stays grey for two or more selected cards (one card is a discard, not a meld).
    const openWhy = inPlay && sel.length >= 2 && !canOpen ? (sel.length < 3 ? t('open_why_few', { n: sel.length }) : t('open_why_not_meld')) : '';
    const myClock = myTurn ? moveClock(st, h, ' ') : '';
    const meSeat = st.seats.find((x) => x.seat === st.you);
    const meLine = `<span class="me-line">${escapeHtml(meSeat?.name ?? '')}${levelBadge(seatLevel(app, /** @type {string} */ (st.you)))} · ${seatName(/** @type {string} */ (st.you))}${h.dealer === st.you ? ` <span class="chip dealer light" title="${t('dealer')}">D</span>` : ''} · <b data-testid="count-${st.you}">${t('cards_n', { n: meSeat?.cards ?? 0 })}</b></span>`;
    const status = myTurn ? `<b>${t('your_turn')}</b>${myClock} — ${h.phase === 'take' ? t('phase_take') : t('phase_play')}` : h.phase !== 'over' ? t('waiting_turn', { name: escapeHtml(nameOf(st, h.onTurn)) }) : t('hand_over');
    handArea = `<div class="my-area">
      <div class="action-bar">
        <div class="status-col">${meLine}<div class="turn-status ${myTurn ? 'mine' : ''}" data-testid="turn-status" role="status">${status}</div></div>
        <div class="actions">
          <button class="btn" data-action="draw" ${canTake ? '' : 'disabled'} data-testid="draw" data-focus="a-draw" title="D">${t('draw')}</button>
          <button class="btn" data-action="pick-up" ${canTake && h.pile.length ? '' : 'disabled'} data-testid="pick-up" data-focus="a-pick" title="P">${t('pick_up')}</button>
          <button class="btn ${inPlay && canOpen ? 'primary' : ''}" data-action="open" ${inPlay && canOpen ? '' : 'disabled'} data-testid="open" data-focus="a-open" title="${openWhy ? escapeHtml(openWhy) : 'O'}"${openWhy ? ' aria-describedby="open-why"' : ''}>${t('open')}</button>
          <button class="btn ${app.attachArmed ? 'armed' : ''}" data-action="attach-arm" ${inPlay && sel.length >= 1 && ownMelds.length ? '' : 'disabled'} data-testid="attach" data-focus="a-attach" title="A" aria-pressed="${app.attachArmed}">${t('attach')}</button>
          <button class="btn ${inPlay && sel.length === 1 ? 'primary' : ''}" data-action="discard" ${inPlay && sel.length === 1 ? '' : 'disabled'} data-testid="discard" data-focus="a-discard" title="X">${t('discard')}</button>
          <button class="btn ghost" data-action="clear" ${sel.length ? '' : 'disabled'} data-focus="a-clear">${t('clear')}</button>
          <button class="btn ghost" data-action="sort" data-testid="sort" data-focus="a-sort" title="S">${app.sortMode === 'suit' ? t('sort_rank') : t('sort_suit')}</button>
        </div>
      </div>
      ${inner}
      ${openWhy ? `<p class="hint why small" id="open-why" data-testid="open-why">${escapeHtml(openWhy)}</p>` : ''}
      ${inPlay ? `<p class="hint muted small">${app.attachArmed ? t('attach_hint') : t('playable_hint')}</p>` : ''}
    </div>`;
  }

  const log = st.log.slice().reverse().map((l) => `<li>${escapeHtml(logText(st, l))}</li>`).join('');
  const chat = st.chat.slice(-30).map((c) => `<li><b>${escapeHtml(localBotName(c.name))}:</b> ${escapeHtml(phraseText(c.text))}</li>`).join('');
  const freeChat = !h || h.phase === 'over' || st.status !== 'playing';
  const phrases = ['hello', 'good_luck', 'well_played', 'thanks', 'sorry'].map((p) => `<button class="btn tiny ghost" data-action="phrase" data-phrase="${p}">${phraseText(p)}</button>`).join('');
  // On a phone the log and chat fold away (a button in the top bar opens them over the table).
  const side = `<aside class="side-panel ${app.sideOpen ? 'side-open' : ''}" id="side-panel" data-testid="side-panel">
    <h3>${t('log')}</h3><ul class="log">${log}</ul>
    <h3>${t('chat')}</h3><ul class="chat" data-testid="chat">${chat}</ul>
    <div class="phrases">${phrases}</div>
    ${freeChat ? chatFormHtml(app) : ''}
  </aside>`;

  return `<section class="table-view players-${players}">${topbar}${banners.join('')}
    <div class="table-grid">
      <div class="felt">
        <div class="ring">
          ${seatHtml(app, pos.top, 'top')}
          ${pos.left ? seatHtml(app, pos.left, 'left') : ''}
          ${pos.right ? seatHtml(app, pos.right, 'right') : ''}
          <div class="melds their" data-testid="melds-their"><h3>${theirTitle}</h3><div class="meld-row">${meldRow(theirMelds, false)}</div></div>
          ${center}
          <div class="melds ours" data-testid="melds-ours"><h3>${ourTitle}</h3><div class="meld-row">${meldRow(ownMelds, true)}</div></div>
          ${st.you && !app.spectating ? '' : seatHtml(app, pos.bottom, 'bottom')}
        </div>
      </div>
      ${side}
    </div>
    ${handArea}
  </section>`;
}

/** @param {string} p */
function phraseText(p) {
  const k = /** @type {any} */ (`phrase_${p}`);
  const s = t(k);
  return s === k ? p : s;
}

/** Free-text chat, open between hands and during the ready check (the server refuses it during a hand). @param {import('./app.js').App} app */
export function chatFormHtml(app) {
  return `<form class="chat-form" data-form="chat"><input name="text" maxlength="400" autocomplete="off" data-field="chat" data-focus="chat-input"
    data-testid="chat-input" value="${escapeHtml(app.lobbyForm.chat ?? '')}" placeholder="${t('chat_placeholder')}" aria-label="${t('chat')}">
    <button class="btn small" type="submit" data-testid="chat-send">${t('send')}</button></form>`;
}

/** @param {import('./state.js').TableState} st @param {{key: string, params: Record<string, any>}} l */
export function logText(st, l) {
  const p = { ...l.params };
  // A seat taken: the name is there already, say where.
  if (p.seat) p.seat = l.key === 'ev_joined' ? seatName(p.seat) : nameOf(st, p.seat);
  if (p.name) p.name = localBotName(p.name);
  if (p.card) p.card = label(p.card);
  if (p.cards) p.cards = p.cards.map(label).join(' ');
  if (p.how) p.how = t(p.how);
  return t(/** @type {any} */ (l.key), p);
}

/**
 * The move clock of the player on turn: counting down, or held still by a director's pause.
 * @param {import('./state.js').TableState} st @param {import('./state.js').HandState} h @param {string} [before]
 */
function moveClock(st, h, before = '') {
  if (st.paused) {
    return h.clockHeldMs != null ? `${before}<span class="clock held" data-held="${h.clockHeldMs}" data-testid="move-clock-held" title="${t('move_clock')}"></span>` : '';
  }
  return h.clockDeadline ? `${before}<span class="clock" data-deadline="${h.clockDeadline}" data-grace="${h.clockGraceMs ?? 0}" title="${t('move_clock')}"></span>` : '';
}
