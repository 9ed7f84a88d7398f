// @ts-check
/** Dialogs over the table: end-of-hand score, verify the shuffle, the record's replay, the wild's position, shortcuts. */
import { t } from './i18n.js';
import { escapeHtml } from './dom.js';
import { cardHtml, label, RANK_OF_POS, sortCards, parse } from './cards.js';
import { nameOf, meldHtml } from './view-table.js';
import { playerCount, sideOf } from './state.js';
import { replayRecord } from './replay.js';
import { localBotName } from './i18n.js';
import { howToHtml } from './howto.js';
import { busyAttr } from './view-lobby.js';
import { matchVerdict } from './match-end.js';

/** @param {string} title @param {string} body @param {string} [testid] @param {string} [cls] */
function dialog(title, body, testid = '', cls = '') {
  return `<div class="dialog ${cls}" role="dialog" aria-modal="true" aria-labelledby="dlg-title" data-testid="${testid}">
    <div class="dialog-head"><h2 id="dlg-title">${title}</h2>
      <button class="btn ghost small" data-action="overlay-close" data-focus="dlg-close" aria-label="${t('close')}">✕</button></div>
    <div class="dialog-body">${body}</div></div>`;
}

/** @param {import('./app.js').App} app */
export function renderOverlay(app) {
  // Another tab of this session took the game (4001): this one says so over everything, and
  // offers to take it back; its buttons would only be refused.
  if (app.connState === 'taken_over') {
    return `<div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby="dlg-title" data-testid="taken-over-dialog">
      <div class="dialog-head"><h2 id="dlg-title">${t('taken_over_title')}</h2></div>
      <div class="dialog-body"><p>${t('taken_over_text')}</p>
        <button class="btn primary" data-action="use-here" data-testid="use-here" data-focus="use-here">${t('use_here')}</button></div></div>`;
  }
  // The browser session ended (4005): nothing here acts as the account any more.
  if (app.connState === 'signed_out') {
    return `<div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby="dlg-title" data-testid="signed-out-dialog">
      <div class="dialog-head"><h2 id="dlg-title">${t('signed_out_title')}</h2></div>
      <div class="dialog-body"><p>${t('signed_out_text')}</p>
        <button class="btn primary" data-action="reload" data-testid="reload" data-focus="reload">${t('reload')}</button></div></div>`;
  }
  const o = app.overlay;
  if (!o) return '';
  if (o.kind === 'help') return dialog(t('shortcuts'), `<p>${t('shortcuts_text')}</p>`, 'help');
  if (o.kind === 'wild') {
    const buttons = o.options.map((p) => `<button class="btn" data-action="wild-pos" data-pos="${p}" data-testid="wild-pos" data-focus="wild-${p}">${t('position_as', { pos: p, rank: RANK_OF_POS[p] ?? '?' })}</button>`).join('');
    return dialog(t('choose_wild'), `<p>${t('choose_wild_hint')}</p><div class="wild-options">${buttons}</div>
      <button class="btn ghost" data-action="overlay-close">${t('cancel')}</button>`, 'wild-dialog');
  }
  if (o.kind === 'score') return scoreHtml(app, o.hand);
  if (o.kind === 'history') return historyHtml(app);
  if (o.kind === 'howto') return dialog(t('how_to_play'), `<div class="howto" data-testid="how-to-page">${howToHtml()}</div>`, 'howto-dialog', 'wide');
  if (o.kind === 'confirm-leave') {
    return dialog(t('leave_q'), `<p>${t('leave_warning')}</p><div class="row">
      <button class="btn primary" data-action="leave-confirmed" data-testid="leave-confirm">${t('leave_yes')}</button>
      <button class="btn" data-action="overlay-close" data-testid="leave-cancel" data-focus="leave-cancel">${t('leave_no')}</button></div>`, 'leave-dialog');
  }
  if (o.kind === 'replay') return replayHtml(app, o);
  return '';
}

/** @param {string} kind @param {string} preset */
function burracoKind(kind, preset) {
  if (preset === 'feburit' && (kind === 'reale' || kind === 'super')) return t(/** @type {any} */ (`burraco_${kind}_feburit`));
  return t(/** @type {any} */ (`burraco_${kind}`));
}

/** @param {number} n */
const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

/**
 * A finished hand's outcome: from its record, or (before the record arrives) the live `hand_ended`.
 * @param {import('./app.js').App} app @param {number|null|undefined} n null: the latest
 * @returns {{hand: number, end: string, closed_by: string|null, score: any[], hands: any[], seed: string|null, names: Record<string, string>}|null}
 */
export function outcomeOf(app, n) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  const e = st.ended;
  const latest = Math.max(e ? e.hand : 0, ...app.hands.map((x) => x.hand));
  const want = n ?? latest;
  const entry = app.hands.find((x) => x.hand === want);
  if (entry && entry.rec.outcome) {
    const o = entry.rec.outcome;
    /** @type {Record<string, string>} */
    const names = {};
    for (const s of entry.rec.seats ?? []) names[s.seat] = s.name;
    return { hand: want, end: o.end, closed_by: o.closed_by ?? null, score: o.score, hands: o.hands, seed: entry.rec.seed ?? null, names };
  }
  if (e && e.hand === want) return { hand: want, end: e.end, closed_by: e.closed_by ?? null, score: e.score, hands: e.hands, seed: e.seed ?? null, names: {} };
  return null;
}

/** The side the viewer plays for, or null for a spectator. @param {import('./state.js').TableState} st */
function mySide(st) {
  return st.you ? sideOf(st.you, playerCount(st)) : null;
}

/**
 * The match totals after hand `n`, summed from the known records (the table's running totals when some are missing).
 * @param {import('./app.js').App} app @param {number} n @param {string[]} sides
 */
function totalsAfter(app, n, sides) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  const known = app.hands.filter((x) => x.hand <= n);
  if (known.length !== n) return n >= (st.handsPlayed || 0) ? st.totals : null;
  return sides.map((side) => known.reduce((sum, x) => sum + (x.rec.outcome?.score.find((/** @type {any} */ s) => s.side === side)?.total ?? 0), 0));
}

/** "NS 340 – EW 120, you lead by 220". @param {import('./state.js').TableState} st @param {string[]} sides @param {number[]} totals */
function standingText(st, sides, totals) {
  const line = sides.map((s, i) => `${escapeHtml(s)} ${totals[i] ?? 0}`).join(' – ');
  const me = mySide(st);
  const i = me ? sides.indexOf(me) : -1;
  if (i < 0) return line;
  const diff = (totals[i] ?? 0) - (totals[1 - i] ?? 0);
  return `${line} · ${diff > 0 ? t('you_lead', { n: diff }) : diff < 0 ? t('you_trail', { n: -diff }) : t('level')}`;
}

/** Between hands: the next hand is dealt when every player is ready (bots are at once), or after
 * the server's wait. @param {import('./state.js').TableState} st */
function nextHandHtml(st) {
  if (st.status !== 'between_hands') return '';
  const waiting = st.seats.filter((x) => x.name && !x.ready).map((x) => escapeHtml(nameOf(st, x.seat, { disambiguate: false })));
  const mine = st.you ? st.seats.find((x) => x.seat === st.you) : null;
  const button = mine && !mine.ready
    ? `<button class="btn primary" data-action="ready" data-testid="next-hand-ready">${t('next_hand_ready')}</button>`
    : '';
  const who = waiting.length ? `<span class="muted small">${t('next_hand_waiting', { names: waiting.join(', ') })}</span>` : '';
  return `<p class="next-hand" data-testid="next-hand">${button} ${who}</p>`;
}

/** @param {import('./app.js').App} app @param {number|null|undefined} n */
function scoreHtml(app, n) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  const me = st.matchEnded;
  const o = outcomeOf(app, n);
  if (!o && !me) return historyHtml(app);
  const preset = st.settings.preset ?? 'fitab';
  const nameFor = (/** @type {string} */ seat) => o && o.names[seat] && !st.seats.some((x) => x.seat === seat && x.name === o.names[seat]) ? o.names[seat] : nameOf(st, seat, { disambiguate: false });
  // Every hand of the match first (each with its score, verify, replay), then the one shown.
  let body = historyListHtml(app, o ? o.hand : null);
  if (me && (n == null)) body += matchOverHtml(app);
  if (o) {
    const endText = o.end === 'closed' && o.closed_by ? t('end_closed', { name: escapeHtml(displayName(nameFor(o.closed_by))) }) : t(/** @type {any} */ (`end_${o.end}`));
    const sides = o.score.map((/** @type {any} */ s) => s.side);
    const head = o.score.map((/** @type {any} */ s) => `<th>${escapeHtml(s.side)}${s.side === mySide(st) ? ` <span class="muted small">(${t('you')})</span>` : ''}</th>`).join('');
    const row = (/** @type {string} */ title, /** @type {(s: any) => string} */ f, cls = '') => `<tr class="${cls}"><th scope="row">${title}</th>${o.score.map((/** @type {any} */ s) => `<td>${f(s)}</td>`).join('')}</tr>`;
    const burracos = (/** @type {any} */ s) => s.burracos.length
      ? s.burracos.map((/** @type {any} */ b) => `<div class="bur">${burracoKind(b.kind, preset)} <b>${signed(b.bonus)}</b></div>`).join('')
      : t('none');
    const totals = totalsAfter(app, o.hand, sides);
    body += `<h3 class="hand-title">${st.settings.hands ? t('hand_of', { n: o.hand, total: st.settings.hands }) : t('hand_n', { n: o.hand })}</h3>
      <p class="end-line" data-testid="end-reason">${endText}</p>
      <table class="score-table" data-testid="score-table">
        <thead><tr><th>${t('sc_side')}</th>${head}</tr></thead>
        <tbody>
          ${row(t('sc_melded'), (s) => signed(s.melded))}
          ${row(t('sc_burracos'), burracos)}
          ${row(t('sc_closing'), (s) => signed(s.closing))}
          ${row(t('sc_in_hand'), (s) => signed(s.in_hand))}
          ${row(t('sc_pozzetto'), (s) => signed(s.pozzetto))}
          ${row(t('sc_total'), (s) => `<b>${signed(s.total)}</b>`, 'total')}
          ${totals ? `<tr class="match"><th scope="row">${t('sc_match')}</th>${totals.map((x) => `<td><b>${x}</b></td>`).join('')}</tr>` : ''}
        </tbody>
      </table>
      ${totals && !me ? `<p class="standing" data-testid="standing">${t('match_standing')}: ${standingText(st, sides, totals)}${n == null && st.status !== 'finished' ? ` — ${t('next_hand_soon')}` : ''}</p>` : ''}
      ${!me ? nextHandHtml(st) : ''}
      <h3>${t('final_hands')}</h3>
      <div class="final-hands">${o.hands.map((/** @type {any} */ h) => `<div class="fh"><span class="fh-name">${escapeHtml(displayName(nameFor(h.seat)))} <span class="muted">(${h.seat})</span></span>
        <span class="mini-cards">${h.cards.length ? sortCards(h.cards, 'suit').map((/** @type {string} */ c) => cardHtml(c, { cls: 'mini' })).join('') : '—'}</span></div>`).join('')}</div>`;
    body += verifyHtml(app, o);
  }
  const title = me && n == null ? t('match_over') : t('hand_over');
  return dialog(title, body, 'score-dialog', 'wide');
}

/** The match's end: the server's outcome from the viewer's side (`matchVerdict`); every hand; a new match. @param {import('./app.js').App} app */
function matchOverHtml(app) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  const me = /** @type {any} */ (st.matchEnded);
  const side = mySide(st);
  const verdict = matchVerdict(me, side);
  const sides = /** @type {string[]} */ (me.sides);
  const rows = app.hands.map((x) => `<tr data-testid="match-hand-row"><th scope="row">${t('hand_n', { n: x.hand })}</th>${sides.map((s) => `<td>${signed(x.rec.outcome?.score.find((/** @type {any} */ y) => y.side === s)?.total ?? 0)}</td>`).join('')}</tr>`).join('');
  return `<div class="match-over" data-testid="match-over"><p class="winner ${verdict.outcome === 'won' || verdict.outcome === 'lost' ? verdict.outcome : ''}" data-testid="match-verdict">${verdict.outcome === 'won' ? '★ ' : ''}${verdict.text}</p>
    <table class="score-table" data-testid="match-hands"><thead><tr><th></th>${sides.map((s) => `<th>${escapeHtml(s)}${s === side ? ` <span class="muted small">(${t('you')})</span>` : ''}</th>`).join('')}</tr></thead>
    <tbody>${rows}<tr class="match"><th scope="row">${t('sc_match')}</th>${me.totals.map((/** @type {number} */ x) => `<td><b>${x}</b></td>`).join('')}</tr>
    ${me.vp ? `<tr><th scope="row">${t('vp')}</th>${me.vp.map((/** @type {number} */ x) => `<td><b>${x}</b></td>`).join('')}</tr>` : ''}</tbody></table>
    ${st.you && app.tourTables[st.table] ? `<div class="row"><button class="btn primary" data-action="tour-back" data-tournament="${escapeHtml(app.tourTables[st.table])}" data-testid="back-to-tournament">${t('back_to_tournament')}</button></div>`
      : st.you ? `<div class="row"><button class="btn primary" data-action="rematch" data-testid="rematch"${busyAttr(app, 'rematch')}>${t('rematch')}</button>
      <button class="btn" data-action="leave">${t('back_to_lobby')}</button></div>` : ''}</div>`;
}

/** Every finished hand of the match, each with its score, verify and replay. @param {import('./app.js').App} app @param {number|null} current */
function historyListHtml(app, current) {
  if (!app.hands.length) return '';
  const items = app.hands.map((x) => {
    const score = (x.rec.outcome?.score ?? []).map((/** @type {any} */ s) => `${escapeHtml(s.side)} ${signed(s.total)}`).join(' · ');
    return `<li class="${x.hand === current ? 'current' : ''}" data-testid="history-hand" data-hand="${x.hand}"><b>${t('hand_n', { n: x.hand })}</b> <span class="muted">${score}</span>
      <span class="hist-actions"><button class="btn tiny" data-action="show-score" data-hand="${x.hand}" data-testid="history-score">${t('score')}</button>
      <button class="btn tiny" data-action="replay" data-hand="${x.hand}">▶ ${t('replay')}</button></span></li>`;
  }).join('');
  return `<section class="history"><h3>${t('hands_history')}</h3><ul class="history-list" data-testid="history">${items}</ul></section>`;
}

/** @param {import('./app.js').App} app */
function historyHtml(app) {
  const body = app.hands.length ? historyListHtml(app, null) : `<p class="muted">${t('no_hands_yet')}</p>`;
  return dialog(t('hands_history'), body, 'history-dialog', 'wide');
}

/** @param {string} name */
function displayName(name) {
  return localBotName(name);
}

/**
 * @param {import('./app.js').App} app
 * @param {{hand: number, seed: string|null}} o
 */
function verifyHtml(app, o) {
  const v = app.verify.hand === o.hand ? app.verify : {};
  const entry = app.hands.find((x) => x.hand === o.hand);
  const seed = entry?.rec.seed ?? o.seed;
  let out = `<section class="fair"><h3>${t('seed')}</h3>`;
  if (!seed) {
    out += `<p class="muted">${t('seed_hidden')}</p>`;
  } else {
    out += `<p class="mono wrap" data-testid="seed">${escapeHtml(seed)}</p>
      <p class="small muted">${t('commitment')}: <span class="mono wrap">${escapeHtml(entry?.rec.commitment ?? '—')}</span></p>`;
    if (entry) out += `<button class="btn primary" data-action="verify" data-hand="${o.hand}" data-testid="verify" data-focus="verify" ${v.running ? 'disabled' : ''}>${v.running ? t('verifying') : t('verify_shuffle')}</button>`;
    else out += `<p class="muted small" data-testid="record-pending">${t('record_pending')}</p>`;
    if (v.checks) {
      out += `<ul class="checks" data-testid="verify-result">${v.checks.map((/** @type {any} */ c) => `<li class="${c.ok ? 'ok' : 'bad'}">${c.ok ? '✔' : '✘'} ${escapeHtml(checkText(c))}</li>`).join('')}</ul>
        <p class="verdict ${v.ok ? 'ok' : 'bad'}" data-testid="verify-verdict">${v.ok ? t('v_ok') : t('v_fail')}</p>`;
      if (v.deal) {
        out += `<details><summary>${t('v_dealt_hands')}</summary><div class="final-hands">${v.deal.hands.map((/** @type {any} */ h) => `<div class="fh"><span class="fh-name">${h.seat}</span>
          <span class="mini-cards">${sortCards(h.cards, 'suit').map((c) => cardHtml(c, { cls: 'mini' })).join('')}</span></div>`).join('')}
          ${v.deal.pozzetti.map((/** @type {string[]} */ p, /** @type {number} */ i) => `<div class="fh"><span class="fh-name">${t('pozzetto')} ${i ? 'B' : 'A'}</span><span class="mini-cards">${p.map((c) => cardHtml(c, { cls: 'mini' })).join('')}</span></div>`).join('')}</div></details>`;
      }
    }
  }
  if (entry) {
    out += `<h3>${t('hand_record')}</h3><div class="row">
      <button class="btn" data-action="replay" data-hand="${o.hand}" data-testid="replay" data-focus="replay">▶ ${t('replay')}</button>
      <button class="btn ghost" data-action="download-record" data-hand="${o.hand}">⤓ ${t('download_record')}</button></div>`;
  }
  return out + '</section>';
}

/** @param {{key: string, params?: Record<string, any>}} c */
function checkText(c) {
  const p = { ...(c.params ?? {}) };
  if (p.card) p.card = label(p.card);
  return t(/** @type {any} */ (c.key), p);
}

/** @param {import('./app.js').App} app @param {{kind: 'replay', step: number, hand: number, hands?: import('./app.js').HandEntry[], title?: string}} o */
function replayHtml(app, o) {
  // A tournament table's replay brings its own hands; otherwise this table's.
  const all = o.hands ?? app.hands;
  const entry = all.find((x) => x.hand === o.hand);
  if (!entry) return '';
  let data = app.replayCache;
  if (!data || data.entry !== entry) {
    try {
      data = { entry, rec: entry.rec, ...replayRecord(entry.rec) };
    } catch (err) {
      return dialog(t('replay'), `<p class="bad">${escapeHtml(String(err))}</p>`, 'replay-dialog');
    }
    app.replayCache = data;
  }
  const n = data.states.length - 1;
  o.step = Math.max(0, Math.min(o.step, n));
  const s = data.states[o.step];
  const rec = data.rec;
  const players = rec.settings.players;
  const nameFor = (/** @type {string} */ seat) => {
    const name = rec.seats.find((/** @type {any} */ x) => x.seat === seat)?.name;
    // Three "Bot (expert)" at one table: say which one by its seat.
    const shared = name && rec.seats.filter((/** @type {any} */ x) => x.name === name).length > 1;
    return name ? (shared ? `${localBotName(name)} · ${t(/** @type {any} */ (`seat_${seat}`))}` : localBotName(name)) : seat;
  };
  let desc = t('replay_start');
  if (o.step > 0 && s.note) {
    const p = { ...s.note.params };
    if (p.seat) p.seat = nameFor(p.seat);
    if (p.card) p.card = label(p.card);
    if (p.cards) p.cards = p.cards.map(label).join(' ');
    desc = t(/** @type {any} */ (s.note.key), p);
  }
  const seats = players === 2 ? ['S', 'N'] : ['N', 'E', 'S', 'W'];
  const hands = seats.map((seat) => `<div class="fh ${s.onTurn === seat && !s.over ? 'on' : ''}"><span class="fh-name">${escapeHtml(nameFor(seat))} <span class="muted">(${seat})</span></span>
    <span class="mini-cards">${sortCards(s.hands[seat] ?? [], 'suit').map((c) => cardHtml(c, { cls: 'mini' })).join('')}</span></div>`).join('');
  const bySide = (/** @type {string} */ side) => s.melds.filter((m) => m.side === side).map((m, i) => meldHtml(/** @type {any} */ (m), { own: false, fits: false, armed: false, index: i + 1 })).join('') || `<span class="muted small">${t('no_melds')}</span>`;
  const sides = players === 2 ? ['S', 'N'] : ['NS', 'EW'];
  const body = `<div class="replay-controls">
      <button class="btn small" data-action="replay-step" data-step="0" data-focus="r-first">« ${t('first')}</button>
      <button class="btn small" data-action="replay-step" data-step="${Math.max(0, o.step - 1)}" data-focus="r-prev">◀ ${t('prev')}</button>
      <input type="range" min="0" max="${n}" value="${o.step}" data-action="replay-slider" aria-label="${t('replay_step', { i: o.step, n })}">
      <button class="btn small primary" data-action="replay-step" data-step="${Math.min(n, o.step + 1)}" data-testid="replay-next" data-focus="r-next">${t('next')} ▶</button>
      <button class="btn small" data-action="replay-step" data-step="${n}" data-focus="r-last">${t('last')} »</button>
    </div>
    <p class="replay-desc"><span class="muted">${t('replay_step', { i: o.step, n })}</span> — <b data-testid="replay-desc">${escapeHtml(desc)}</b></p>
    <div class="replay-board">
      <div class="final-hands">${hands}</div>
      <div class="replay-mid"><span>${t('tallone')}: <b>${s.tallone.length}</b></span>
        <span class="replay-pile">${t('pile')}: ${s.pile.map((c) => cardHtml(c, { cls: 'mini' })).join('') || '—'}</span></div>
      ${sides.map((side) => `<div class="replay-melds"><h4>${t('melds_side', { side })}</h4><div class="meld-row">${bySide(side)}</div></div>`).join('')}
    </div>`;
  void parse;
  // A tournament table's hands: choose which one.
  const choose = o.hands && o.hands.length > 1 ? `<div class="row replay-hands">${o.hands.map((x) => `<button class="btn tiny${x.hand === o.hand ? ' primary' : ''}" data-action="replay-hand" data-hand="${x.hand}"
    aria-pressed="${x.hand === o.hand}" data-testid="replay-hand">${t('hand_n', { n: x.hand })}</button>`).join('')}</div>` : '';
  return dialog(`${o.title ? `${escapeHtml(o.title)} · ` : ''}${t('replay')} — ${t('hand_n', { n: o.hand })}`, choose + body, 'replay-dialog', 'wide');
}
