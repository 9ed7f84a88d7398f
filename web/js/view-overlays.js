// @ts-check
/** Dialogs over the table: end-of-hand score, verify the shuffle, the record's replay, the wild's position, shortcuts. */
import { t } from './i18n.js';
import { escapeHtml } from './app.js';
import { cardHtml, label, RANK_OF_POS, sortCards, parse } from './cards.js';
import { nameOf, meldHtml } from './view-table.js';
import { playerCount, sideOf } from './state.js';
import { commitmentOf, dealFromSeed, sameCards } from './shuffle.js';
import { replayRecord } from './replay.js';

/** @param {string} title @param {string} body @param {string} [testid] @param {string} [cls] */
function dialog(title, body, testid = '', cls = '') {
  return `<div class="dialog ${cls}" role="dialog" aria-modal="true" aria-labelledby="dlg-title" data-testid="${testid}">
    <div class="dialog-head"><h2 id="dlg-title">${title}</h2>
      <button class="btn ghost small" data-action="overlay-close" data-focus="dlg-close" aria-label="${t('close')}">✕</button></div>
    <div class="dialog-body">${body}</div></div>`;
}

/** @param {import('./app.js').App} app */
export function renderOverlay(app) {
  const o = app.overlay;
  if (!o) return '';
  if (o.kind === 'help') return dialog(t('shortcuts'), `<p>${t('shortcuts_text')}</p>`, 'help');
  if (o.kind === 'wild') {
    const buttons = o.options.map((p) => `<button class="btn" data-action="wild-pos" data-pos="${p}" data-testid="wild-pos" data-focus="wild-${p}">${t('position_as', { pos: p, rank: RANK_OF_POS[p] ?? '?' })}</button>`).join('');
    return dialog(t('choose_wild'), `<p>${t('choose_wild_hint')}</p><div class="wild-options">${buttons}</div>
      <button class="btn ghost" data-action="overlay-close">${t('cancel')}</button>`, 'wild-dialog');
  }
  if (o.kind === 'score') return scoreHtml(app);
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

/** @param {import('./app.js').App} app */
function scoreHtml(app) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  const e = st.ended;
  const me = st.matchEnded;
  if (!e && !me) return '';
  const preset = st.settings.preset ?? 'fitab';
  let body = '';
  if (e) {
    const endText = e.end === 'closed' && e.closed_by ? t('end_closed', { name: escapeHtml(nameOf(st, e.closed_by)) }) : t(/** @type {any} */ (`end_${e.end}`));
    const head = e.score.map((/** @type {any} */ s) => `<th>${escapeHtml(s.side)}</th>`).join('');
    const row = (/** @type {string} */ title, /** @type {(s: any) => string} */ f, cls = '') => `<tr class="${cls}"><th scope="row">${title}</th>${e.score.map((/** @type {any} */ s) => `<td>${f(s)}</td>`).join('')}</tr>`;
    const burracos = (/** @type {any} */ s) => s.burracos.length
      ? s.burracos.map((/** @type {any} */ b) => `<div class="bur">${burracoKind(b.kind, preset)} <b>${signed(b.bonus)}</b></div>`).join('')
      : t('none');
    body += `<p class="end-line" data-testid="end-reason">${endText}</p>
      <table class="score-table" data-testid="score-table">
        <thead><tr><th>${t('sc_side')}</th>${head}</tr></thead>
        <tbody>
          ${row(t('sc_melded'), (s) => signed(s.melded))}
          ${row(t('sc_burracos'), burracos)}
          ${row(t('sc_closing'), (s) => signed(s.closing))}
          ${row(t('sc_in_hand'), (s) => signed(s.in_hand))}
          ${row(t('sc_pozzetto'), (s) => signed(s.pozzetto))}
          ${row(t('sc_total'), (s) => `<b>${signed(s.total)}</b>`, 'total')}
          <tr class="match"><th scope="row">${t('sc_match')}</th>${st.totals.map((x) => `<td><b>${x}</b></td>`).join('')}</tr>
        </tbody>
      </table>
      <h3>${t('final_hands')}</h3>
      <div class="final-hands">${e.hands.map((/** @type {any} */ h) => `<div class="fh"><span class="fh-name">${escapeHtml(nameOf(st, h.seat, { disambiguate: false }))} <span class="muted">(${h.seat})</span></span>
        <span class="mini-cards">${h.cards.length ? sortCards(h.cards, 'suit').map((/** @type {string} */ c) => cardHtml(c, { cls: 'mini' })).join('') : '—'}</span></div>`).join('')}</div>`;
  }
  if (me) {
    const winner = me.winner ? t('winner', { side: me.winner }) : t('draw_result');
    body += `<div class="match-over" data-testid="match-over"><h3>${t('match_over')}</h3><p class="winner">★ ${winner}</p>
      <table class="score-table"><thead><tr><th></th>${me.sides.map((/** @type {string} */ s) => `<th>${s}</th>`).join('')}</tr></thead>
      <tbody><tr><th>${t('sc_match')}</th>${me.totals.map((/** @type {number} */ x) => `<td><b>${x}</b></td>`).join('')}</tr>
      ${me.vp ? `<tr><th>${t('vp')}</th>${me.vp.map((/** @type {number} */ x) => `<td><b>${x}</b></td>`).join('')}</tr>` : ''}</tbody></table></div>`;
  } else if (e) {
    const s = st.settings;
    const standing = s.hands ? t('hand_of', { n: e.hand, total: s.hands }) : s.target ? t('to_target', { n: s.target }) : '';
    body += `<p class="muted">${t('match_standing')}: ${standing} — ${t('next_hand_soon')}</p>`;
  }
  if (e) body += verifyHtml(app);
  return dialog(t('hand_over'), body, 'score-dialog', 'wide');
}

/** @param {import('./app.js').App} app */
function verifyHtml(app) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  const e = st.ended;
  const seed = e && e.seed;
  const v = app.verify;
  let out = `<section class="fair"><h3>${t('seed')}</h3>`;
  if (!seed) {
    out += `<p class="muted">${t('seed_hidden')}</p>`;
  } else {
    out += `<p class="mono wrap" data-testid="seed">${escapeHtml(seed)}</p>
      <p class="small muted">${t('commitment')}: <span class="mono wrap">${escapeHtml(st.hand?.commitment ?? '—')}</span></p>
      <button class="btn primary" data-action="verify" data-testid="verify" data-focus="verify" ${v.running ? 'disabled' : ''}>${v.running ? t('verifying') : t('verify_shuffle')}</button>`;
    if (v.checks) {
      out += `<ul class="checks" data-testid="verify-result">${v.checks.map((/** @type {any} */ c) => `<li class="${c.ok ? 'ok' : 'bad'}">${c.ok ? '✔' : '✘'} ${escapeHtml(c.text)}</li>`).join('')}</ul>
        <p class="verdict ${v.ok ? 'ok' : 'bad'}" data-testid="verify-verdict">${v.ok ? t('v_ok') : t('v_fail')}</p>`;
      if (v.deal) {
        out += `<details><summary>${t('v_dealt_hands')}</summary><div class="final-hands">${v.deal.hands.map((/** @type {any} */ h) => `<div class="fh"><span class="fh-name">${h.seat}</span>
          <span class="mini-cards">${sortCards(h.cards, 'suit').map((c) => cardHtml(c, { cls: 'mini' })).join('')}</span></div>`).join('')}
          ${v.deal.pozzetti.map((/** @type {string[]} */ p, /** @type {number} */ i) => `<div class="fh"><span class="fh-name">${t('pozzetto')} ${i ? 'B' : 'A'}</span><span class="mini-cards">${p.map((c) => cardHtml(c, { cls: 'mini' })).join('')}</span></div>`).join('')}</div></details>`;
      }
    }
  }
  if (st.record) {
    out += `<h3>${t('hand_record')}</h3><div class="row">
      <button class="btn" data-action="replay" data-testid="replay" data-focus="replay">▶ ${t('replay')}</button>
      <button class="btn ghost" data-action="download-record">⤓ ${t('download_record')}</button></div>`;
  }
  return out + '</section>';
}

/**
 * Recomputes the deal from the revealed seed and checks it against what this page saw.
 * @param {import('./app.js').App} app
 */
export async function runVerify(app) {
  const st = app.table;
  if (!st || !st.ended || !st.ended.seed) return;
  const seed = st.ended.seed;
  const h = st.hand;
  app.verify = { running: true };
  app.render();
  const players = playerCount(st);
  /** @type {{ok: boolean, text: string}[]} */
  const checks = [];
  try {
    const commitment = await commitmentOf(seed);
    const published = h?.commitment ?? null;
    checks.push({ ok: published != null && commitment === published, text: t('v_commitment') });
    const dealer = h?.dealer ?? 'N';
    const deal = dealFromSeed(seed, players, dealer);
    if (h?.upCard) checks.push({ ok: deal.discard === h.upCard, text: t('v_up_card', { card: label(h.upCard) }) });
    if (st.you && h?.dealt) {
      const mine = deal.hands.find((x) => x.seat === st.you);
      checks.push({ ok: !!mine && sameCards(mine.cards, h.dealt), text: t('v_my_hand') });
    }
    if (st.record) {
      try {
        const rec = JSON.parse(st.record.record);
        const r = replayRecord(rec);
        if (r.finalMatches != null) checks.push({ ok: r.finalMatches, text: t('v_replay') });
      } catch { checks.push({ ok: false, text: t('v_replay') }); }
    }
    app.verify = { checks, ok: checks.every((c) => c.ok), deal };
  } catch (err) {
    app.verify = { checks: [{ ok: false, text: String(err) }], ok: false };
  }
  app.render();
}

/** @param {import('./app.js').App} app @param {{kind: 'replay', step: number}} o */
function replayHtml(app, o) {
  const st = /** @type {import('./state.js').TableState} */ (app.table);
  if (!st.record) return '';
  let data = app.replayCache;
  if (!data || data.seq !== st.record.seq) {
    try {
      const rec = JSON.parse(st.record.record);
      data = { seq: st.record.seq, rec, ...replayRecord(rec) };
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
  const nameFor = (/** @type {string} */ seat) => (rec.seats.find((/** @type {any} */ x) => x.seat === seat)?.name) || seat;
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
  void parse; void sideOf;
  return dialog(`${t('replay')} — ${t('hand_n', { n: st.record.hand })}`, body, 'replay-dialog', 'wide');
}
