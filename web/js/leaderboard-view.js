// @ts-check
/**
 * The leaderboards page's markup from `GET /api/leaderboards/{category}`'s JSON (docs/ACCOUNTS.md,
 * "Ratings and leaderboards"), without the DOM: a row's rank, its name(s) linking to the player's
 * page, its rating (or, this week, the rating gained), its level and its matches.
 */
import { escapeHtml } from './dom.js';
import { tl, hasLeaderboardKey } from './leaderboard-i18n.js';

/** The boards the page shows. */
export const CATEGORIES = /** @type {const} */ (['two', 'four', 'pair']);

/**
 * What the page shows, read from its address: `?cat=two|four|pair&period=week&bots=true`.
 * @param {string} search @returns {{cat: 'two'|'four'|'pair', week: boolean, bots: boolean}}
 */
export function boardFromSearch(search) {
  const q = new URLSearchParams(search);
  const cat = /** @type {any} */ (q.get('cat'));
  return { cat: CATEGORIES.includes(cat) ? cat : 'two', week: q.get('period') === 'week', bots: q.get('bots') === 'true' };
}

/** The API path of a board. @param {{cat: string, week: boolean, bots: boolean}} b */
export function boardPath(b) {
  const q = new URLSearchParams();
  if (b.week) q.set('period', 'week');
  if (b.bots) q.set('bots', 'true');
  const s = q.toString();
  return `/api/leaderboards/${b.cat}${s ? `?${s}` : ''}`;
}

/** The page's own address for a board. @param {{cat: string, week: boolean, bots: boolean}} b */
export function boardSearch(b) {
  const q = new URLSearchParams({ cat: b.cat });
  if (b.week) q.set('period', 'week');
  if (b.bots) q.set('bots', 'true');
  return `?${q}`;
}

/** A level's name in the page's language (the server's snake_case name otherwise). @param {string|null|undefined} level */
export function levelName(level) {
  if (!level) return '–';
  const key = `level_${level}`;
  return hasLeaderboardKey(key) ? tl(key) : level;
}

/** A rating for people: whole points. @param {number|null|undefined} v */
const points = (v) => (v == null || !Number.isFinite(v) ? '–' : String(Math.round(v)));
/** A gain with its sign. @param {number|null|undefined} v */
const gain = (v) => (v == null || !Number.isFinite(v) ? '–' : `${v >= 0 ? '+' : '−'}${Math.abs(Math.round(v))}`);

/**
 * One board as a table (or the empty state).
 * @param {any} board the endpoint's JSON: `{category, period, bots, rows}`
 */
export function boardHtml(board) {
  const week = board?.period === 'week';
  const rows = Array.isArray(board?.rows) ? board.rows : [];
  if (!rows.length) return `<p class="muted" data-testid="leaderboard-empty">${tl(week ? 'empty_week' : 'empty')}</p>`;
  const pair = board.category === 'pair';
  const body = rows.map((/** @type {any} */ r) => {
    const names = (Array.isArray(r.names) ? r.names : []).map((/** @type {string} */ n, /** @type {number} */ i) => {
      const id = Array.isArray(r.accounts) ? r.accounts[i] : null;
      return `<a href="player.html?name=${encodeURIComponent(id ?? n)}">${escapeHtml(n)}</a>`;
    }).join(' &amp; ');
    return `<tr data-testid="leaderboard-row"><td class="num">${escapeHtml(String(r.rank))}</td><td class="lb-names">${names}</td>`
      + (week ? `<td class="num">${escapeHtml(gain(r.gain))}</td>` : '')
      + `<td class="num">${escapeHtml(points(r.rating))}</td>`
      + (week ? '' : `<td>${escapeHtml(levelName(r.level))}</td>`)
      + `<td class="num">${escapeHtml(String(r.matches ?? '–'))}</td></tr>`;
  }).join('');
  const head = `<th scope="col" class="num">${tl('col_rank')}</th><th scope="col">${tl(pair ? 'col_pair' : 'col_name')}</th>`
    + (week ? `<th scope="col" class="num">${tl('col_gain')}</th>` : '')
    + `<th scope="col" class="num">${tl('col_rating')}</th>`
    + (week ? '' : `<th scope="col">${tl('col_level')}</th>`)
    + `<th scope="col" class="num">${tl('col_matches')}</th>`;
  return `<table class="leaderboard-table" data-testid="leaderboard-table"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}
