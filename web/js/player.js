// @ts-check
/**
 * The player's page (player.html): `?name=<username or account id>` shows that account; without
 * one, the signed-in account's own page, else (a guest) this tab's own games, found by its
 * session's resume token (`GET /api/session/matches`, docs/ACCOUNTS.md "Player pages").
 * `#verify/<table>` verifies that table's hands at once. Ratings come from
 * `GET /api/ratings/{account}` (its `ratings` and `history`) when the server has them ("no rated
 * games yet" otherwise).
 */
import { escapeHtml } from './dom.js';
import { getLang, setLang, t } from './i18n.js';
import { tp, hasPlayerKey } from './player-i18n.js';
import { ratingView } from './player-rating.js';
import { verifyRecord } from './verify.js';

/** Where net.js keeps this tab's resume token. */
const TOKEN_KEY = 'burraco.session';

/** A refusal of the API, by its code. */
class ApiError extends Error {
  /** @param {string} code @param {number} status */
  constructor(code, status) { super(code); this.code = code; this.status = status; }
}

/** GET `path`; the JSON body, or an ApiError. @param {string} path @param {Record<string, string>} [headers] */
async function get(path, headers = {}) {
  let res;
  try {
    res = await fetch(path, { credentials: 'same-origin', headers });
  } catch {
    throw new ApiError('network', 0);
  }
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(json?.code ?? `http_${res.status}`, res.status);
  return json;
}

/** @param {any} e */
function errorText(e) {
  const key = `err_${e?.code ?? 'generic'}`;
  return hasPlayerKey(key) ? tp(key) : tp('err_generic', { code: String(e?.code ?? e) });
}

/** @param {number} ms */
function when(ms) {
  return new Date(ms).toLocaleString(getLang() === 'it' ? 'it-IT' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A ratio for people: one decimal, '–' for none. @param {number|null|undefined} v @param {number} [digits] */
export function figure(v, digits = 1) {
  return v == null || !Number.isFinite(v) ? '–' : v.toFixed(digits);
}

/** @param {string} cat */
const catName = (cat) => tp(cat === 'four' ? 'cat_four' : 'cat_two');

const root = /** @type {HTMLElement} */ (document.getElementById('player'));

/** The totals as a table, a column per category. @param {any[]} totals */
function totalsView(totals) {
  if (!totals.length) return `<p class="muted" data-testid="no-matches">${tp('no_matches')}</p>`;
  /** @type {[import('./player-i18n.js').PlayerKey, (c: any) => string][]} */
  const rows = [
    ['matches_played', (c) => String(c.matches)],
    ['won', (c) => String(c.won)],
    ['drawn', (c) => String(c.drawn)],
    ['lost', (c) => String(c.lost)],
    ['average_vp', (c) => figure(c.average_vp)],
    ['burraco_per_hand', (c) => figure(c.burraco_per_hand, 2)],
    ['closings', (c) => String(c.closings)],
    ['pozzetti_first', (c) => String(c.pozzetti_first)],
  ];
  return `<table class="player-totals" data-testid="totals">
    <thead><tr><th></th>${totals.map((c) => `<th scope="col">${escapeHtml(catName(c.category))}</th>`).join('')}</tr></thead>
    <tbody>${rows.map(([key, value]) => `<tr data-row="${key}"><th scope="row">${tp(key)}</th>${totals.map((c) => `<td>${escapeHtml(value(c))}</td>`).join('')}</tr>`).join('')}</tbody>
  </table>`;
}

/** One match as a list item, with its replay and verification. @param {any} m */
function matchItem(m) {
  const result = tp(m.result === 'won' ? 'result_won' : m.result === 'draw' ? 'result_draw' : 'result_lost');
  const score = m.vp ? tp('vp', { for: m.vp[0], against: m.vp[1] }) : tp('points', { for: m.points[0], against: m.points[1] });
  const partner = m.partner ? ` · ${tp('with_partner', { name: `<a href="player.html?name=${encodeURIComponent(m.partner.account)}">${escapeHtml(m.partner.username)}</a>` })}` : '';
  const tour = m.tournament ? ` · <a href="./#tournament/${encodeURIComponent(m.tournament)}">${tp('in_tournament')}</a>` : '';
  return `<li class="player-match result-${escapeHtml(m.result)}" data-testid="match-row" data-table="${escapeHtml(m.table)}">
    <div class="player-match-head"><strong>${escapeHtml(result)}</strong> <span>${escapeHtml(score)}</span>
      <span class="muted">${escapeHtml(catName(m.category))} · ${escapeHtml(tp('hands_n', { n: m.hands }))}</span></div>
    <div class="muted small">${escapeHtml(tp('vs', { names: (m.opponents ?? []).join(', ') }))}${partner}${tour} · ${escapeHtml(when(m.finished_ms))}</div>
    <div class="player-match-links"><a class="btn small" href="./#replay/${encodeURIComponent(m.table)}" data-testid="replay-link">${tp('replay')}</a>
      <button type="button" class="btn small" data-verify="${escapeHtml(m.table)}" data-testid="verify-button">${tp('verify')}</button></div>
    <div class="player-verify" data-verify-out="${escapeHtml(m.table)}" aria-live="polite"></div>
  </li>`;
}

/**
 * The current season's points (`season` of `/api/players/{..}`, docs/ACCOUNTS.md "Seasons"): a
 * line per category with points, a fixed pair's with the partner; nothing without any.
 * @param {any} season @param {string} self the account's id
 */
function seasonView(season, self) {
  const lines = Array.isArray(season?.points) ? season.points : [];
  if (!lines.length) return '';
  const items = lines.map((/** @type {any} */ l) => {
    const names = Array.isArray(l.partners) ? (l.names ?? []).filter((/** @type {string} */ _, /** @type {number} */ i) => l.partners[i] !== self) : [];
    const pair = names.length ? ` ${escapeHtml(tp('season_pair', { names: names.join(', ') }))}` : '';
    return `<li data-testid="season-${escapeHtml(String(l.category))}"><strong>${escapeHtml(l.category === 'pair' ? tp('cat_pair') : catName(l.category))}</strong>${pair}
      <span class="muted">${escapeHtml(tp('season_line', { points: l.points, matches: l.matches }))}</span></li>`;
  }).join('');
  return `<section class="panel player-card" aria-labelledby="season-title"><h2 id="season-title">${tp('season')}</h2>
    <ul class="plain-list" data-testid="season-points">${items}</ul>
    <p><a href="season.html" data-testid="season-link">${tp('season_link')}</a></p></section>`;
}

/** What the page shows, and the page of matches after it. */
const state = {
  /** @type {string|null} */ account: null,
  /** @type {string|null} */ next: null,
  /** @type {Record<string, string>} */ headers: {},
  /** @type {string} */ base: '',
};

/** An account's page. @param {string} name */
async function accountPage(name) {
  const page = await get(`/api/players/${encodeURIComponent(name)}`);
  const account = page.account;
  state.account = account.id;
  state.base = `/api/players/${encodeURIComponent(account.id)}`;
  state.headers = {};
  state.next = page.next;
  const ratings = await get(`/api/ratings/${encodeURIComponent(account.id)}`).catch(() => null);
  document.title = `Burraco — ${account.username}`;
  root.innerHTML = `
    <section class="panel player-card">
      <h1 data-testid="player-name">${escapeHtml(account.username)}${account.bot ? ` <span class="badge">${tp('bot_badge')}</span>` : ''}</h1>
    </section>
    <section class="panel player-card" aria-labelledby="rating-title"><h2 id="rating-title">${tp('rating')}</h2>${ratingView(ratings, account.id)}</section>
    ${seasonView(page.season, account.id)}
    <section class="panel player-card" aria-labelledby="totals-title"><h2 id="totals-title">${tp('totals')}</h2>${totalsView(page.totals)}</section>
    ${page.partners.length ? `<section class="panel player-card" aria-labelledby="partners-title"><h2 id="partners-title">${tp('partners')}</h2>
      <ul class="plain-list" data-testid="partners">${page.partners.map((/** @type {any} */ p) => `<li><a href="player.html?name=${encodeURIComponent(p.account)}">${escapeHtml(p.username)}</a> <span class="muted">${escapeHtml(tp('partner_line', p))}</span></li>`).join('')}</ul></section>` : ''}
    ${page.tournaments.length ? `<section class="panel player-card" aria-labelledby="tournaments-title"><h2 id="tournaments-title">${tp('tournaments')}</h2>
      <ul class="plain-list" data-testid="tournaments">${page.tournaments.map((/** @type {any} */ x) => `<li><a href="./#tournament/${encodeURIComponent(x.tournament)}">${escapeHtml(x.tournament)}</a> <span class="muted">${escapeHtml(tp('tournament_line', x))} · ${escapeHtml(when(x.last_ms))}</span></li>`).join('')}</ul></section>` : ''}
    ${recentView(page.matches)}`;
}

/** A guest's own games this session. */
async function guestPage() {
  let token = null;
  try { token = sessionStorage.getItem(TOKEN_KEY); } catch { /* blocked */ }
  if (!token) throw new ApiError('no_session', 401);
  state.headers = { 'x-burraco-resume': token };
  state.base = '/api/session/matches';
  const page = await get(state.base, state.headers);
  state.next = page.next;
  document.title = `Burraco — ${tp('guest_title')}`;
  root.innerHTML = `
    <section class="panel player-card">
      <h1 data-testid="player-name">${tp('guest_title')}</h1>
      <p class="muted small">${escapeHtml(page.name ?? '')} · ${tp('guest_note')} <a href="account.html#signup">${tp('my_account')}</a></p>
    </section>
    <section class="panel player-card" aria-labelledby="totals-title"><h2 id="totals-title">${tp('totals')}</h2>${totalsView(page.totals)}</section>
    ${recentView(page.matches)}`;
}

/** @param {any[]} matches */
function recentView(matches) {
  return `<section class="panel player-card" aria-labelledby="recent-title"><h2 id="recent-title">${tp('recent')}</h2>
    ${matches.length ? '' : `<p class="muted">${tp('no_matches')}</p>`}
    <ul class="plain-list player-matches" data-testid="matches">${matches.map(matchItem).join('')}</ul>
    <button type="button" class="btn" data-testid="more" ${state.next ? '' : 'hidden'}>${tp('more')}</button></section>`;
}

async function more() {
  if (!state.next) return;
  const page = await get(`${state.base}?before=${encodeURIComponent(state.next)}`, state.headers);
  state.next = page.next;
  root.querySelector('[data-testid=matches]')?.insertAdjacentHTML('beforeend', page.matches.map(matchItem).join(''));
  const button = /** @type {HTMLButtonElement|null} */ (root.querySelector('[data-testid=more]'));
  if (button) button.hidden = !state.next;
}

/** Verifies every hand of `table` from its hand records alone, and says so under its row (or at the top). @param {string} table */
async function verifyTable(table) {
  let out = /** @type {HTMLElement|null} */ (root.querySelector(`[data-verify-out="${CSS.escape(table)}"]`));
  if (!out) {
    root.insertAdjacentHTML('afterbegin', `<section class="panel player-card"><h2>${tp('verify')}: ${escapeHtml(table)}</h2><div class="player-verify" data-verify-out="${escapeHtml(table)}" aria-live="polite"></div></section>`);
    out = /** @type {HTMLElement} */ (root.querySelector(`[data-verify-out="${CSS.escape(table)}"]`));
  }
  out.textContent = tp('verifying');
  const records = await get(`/api/tables/${encodeURIComponent(table)}/hands`).catch(() => []);
  /** @type {string[]} */
  const lines = [];
  for (const [i, r] of (Array.isArray(records) ? records : []).entries()) {
    const rec = typeof r === 'string' ? JSON.parse(r) : r;
    if (!rec?.seed) continue;
    const verdict = await verifyRecord(rec);
    const failed = verdict.checks.filter((c) => !c.ok).map((c) => t(/** @type {any} */ (c.key), c.params));
    lines.push(`<li data-testid="verify-${verdict.ok ? 'ok' : 'bad'}">${escapeHtml(tp(verdict.ok ? 'verify_ok' : 'verify_bad', { n: i + 1 }))}${failed.length ? ` <span class="muted">${escapeHtml(failed.join('; '))}</span>` : ''}</li>`);
  }
  out.innerHTML = lines.length ? `<ul class="plain-list">${lines.join('')}</ul>` : `<p class="muted">${tp('verify_none')}</p>`;
}

let routing = 0;
async function route() {
  const n = ++routing;
  const back = document.querySelector('[data-testid=back-to-game]');
  if (back) back.textContent = tp('back_to_game');
  const boards = document.querySelector('[data-testid=leaderboard-link]');
  if (boards) boards.textContent = tp('leaderboards');
  document.querySelectorAll('.lang button').forEach((b) => b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.lang === getLang())));
  const name = new URLSearchParams(location.search).get('name');
  try {
    if (name) await accountPage(name);
    else {
      const me = await get('/api/me').catch(() => null);
      if (n !== routing) return;
      if (me?.id) await accountPage(me.id);
      else await guestPage();
    }
  } catch (e) {
    if (n === routing) root.innerHTML = `<section class="panel player-card"><p class="field-error" role="alert" data-testid="player-error">${escapeHtml(errorText(e))}</p></section>`;
    return;
  }
  const verify = /^#verify\/([A-Za-z0-9-]{1,64})$/.exec(location.hash);
  if (verify && n === routing) await verifyTable(verify[1]);
}

root.addEventListener('click', (ev) => {
  const target = /** @type {HTMLElement} */ (ev.target);
  const table = target.closest('[data-verify]')?.getAttribute('data-verify');
  if (table) { verifyTable(table); return; }
  if (target.closest('[data-testid=more]')) more().catch((e) => { target.textContent = errorText(e); });
});
document.querySelectorAll('.lang button').forEach((b) => b.addEventListener('click', () => {
  setLang(/** @type {'en'|'it'} */ (/** @type {HTMLElement} */ (b).dataset.lang));
  route();
}));
document.documentElement.lang = getLang();
window.addEventListener('hashchange', route);
route();
