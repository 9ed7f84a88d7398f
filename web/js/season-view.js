// @ts-check
/**
 * The season page's markup from `GET /api/seasons` and `GET /api/seasons/{id}/{category}`'s JSON
 * (docs/ACCOUNTS.md, "Seasons"), without the DOM: the season selector (current and past, with
 * their dates) and a ladder's rows (rank, name(s) linking to the player's page, points, matches).
 */
import { escapeHtml } from './dom.js';
import { getLang } from './i18n.js';
import { ts } from './season-i18n.js';

/** The ladders the page shows. */
export const CATEGORIES = /** @type {const} */ (['two', 'four', 'pair']);

/** Rows a page of the ladder asks for. */
export const PAGE = 50;

/**
 * What the page shows, read from its address: `?season=2026-q4&cat=two|four|pair&bots=true`
 * (no season: the current one).
 * @param {string} search @returns {{season: string, cat: 'two'|'four'|'pair', bots: boolean}}
 */
export function ladderFromSearch(search) {
  const q = new URLSearchParams(search);
  const cat = /** @type {any} */ (q.get('cat'));
  const season = q.get('season') ?? '';
  return { season: /^\d{4}-q[1-4]$/.test(season) ? season : 'current', cat: CATEGORIES.includes(cat) ? cat : 'two', bots: q.get('bots') === 'true' };
}

/** The API path of a ladder's page. @param {{season: string, cat: string, bots: boolean}} l @param {number} [offset] */
export function ladderPath(l, offset = 0) {
  const q = new URLSearchParams({ limit: String(PAGE) });
  if (offset) q.set('offset', String(offset));
  if (l.bots) q.set('bots', 'true');
  return `/api/seasons/${encodeURIComponent(l.season)}/${l.cat}?${q}`;
}

/** The page's own address for a ladder. @param {{season: string, cat: string, bots: boolean}} l */
export function ladderSearch(l) {
  const q = new URLSearchParams();
  if (l.season !== 'current') q.set('season', l.season);
  q.set('cat', l.cat);
  if (l.bots) q.set('bots', 'true');
  return `?${q}`;
}

/** A day of a season, UTC, in the page's language. @param {number} ms */
function day(ms) {
  return new Intl.DateTimeFormat(getLang() === 'it' ? 'it-IT' : 'en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(ms));
}

/** A season's name. @param {any} s an entry of `GET /api/seasons` */
export function seasonName(s) {
  return ts(s.current ? 'season_current' : 'season_name', { quarter: s.quarter, year: s.year });
}

/** Its dates: the first day to the last (`end_ms` is exclusive). @param {any} s */
export function seasonDates(s) {
  return ts('season_dates', { start: day(s.start_ms), end: day(s.end_ms - 1) });
}

/**
 * A season known by its id alone (one the address names that the list lacks: a past season
 * without points): its dates from the calendar, UTC. @param {string} id `2025-q1`
 */
export function seasonFromId(id) {
  const [year, quarter] = id.split('-q').map(Number);
  return { id, year, quarter, start_ms: Date.UTC(year, (quarter - 1) * 3, 1), end_ms: Date.UTC(year, quarter * 3, 1), current: false };
}

/**
 * The season selector.
 * @param {any} list `GET /api/seasons`'s JSON
 * @param {string} chosen a season's id, or `current`
 */
export function selectorHtml(list, chosen) {
  const seasons = Array.isArray(list?.seasons) ? [...list.seasons] : [];
  const id = chosen === 'current' ? list?.current : chosen;
  if (id && !seasons.some((/** @type {any} */ s) => s.id === id)) {
    seasons.push(seasonFromId(id));
    seasons.sort((/** @type {any} */ a, /** @type {any} */ b) => b.start_ms - a.start_ms);
  }
  const options = seasons.map((/** @type {any} */ s) => `<option value="${escapeHtml(s.id)}"${s.id === id ? ' selected' : ''}>${escapeHtml(seasonName(s))}</option>`).join('');
  const shown = seasons.find((/** @type {any} */ s) => s.id === id);
  return `<label class="season-select"><span>${ts('season_label')}</span> <select data-testid="season-select">${options}</select></label>`
    + (shown ? ` <span class="muted small" data-testid="season-dates">${escapeHtml(seasonDates(shown))}</span>` : '');
}

/** A ladder's rows. @param {any[]} rows */
export function rowsHtml(rows) {
  return rows.map((/** @type {any} */ r) => {
    const names = (Array.isArray(r.names) ? r.names : []).map((/** @type {string} */ n, /** @type {number} */ i) => {
      const id = Array.isArray(r.accounts) ? r.accounts[i] : null;
      return `<a href="player.html?name=${encodeURIComponent(id ?? n)}">${escapeHtml(n)}</a>`;
    }).join(' &amp; ');
    return `<tr data-testid="season-row"><td class="num">${escapeHtml(String(r.rank))}</td><td class="lb-names">${names}</td>`
      + `<td class="num">${escapeHtml(String(r.points ?? '–'))}</td><td class="num">${escapeHtml(String(r.matches ?? '–'))}</td></tr>`;
  }).join('');
}

/**
 * A ladder as a table (or the empty state).
 * @param {any} ladder the endpoint's JSON: `{season, category, bots, rows}`
 */
export function ladderHtml(ladder) {
  const rows = Array.isArray(ladder?.rows) ? ladder.rows : [];
  if (!rows.length) return `<p class="muted" data-testid="season-empty">${ts('empty')}</p>`;
  const head = `<th scope="col" class="num">${ts('col_rank')}</th><th scope="col">${ts(ladder.category === 'pair' ? 'col_pair' : 'col_name')}</th>`
    + `<th scope="col" class="num">${ts('col_points')}</th><th scope="col" class="num">${ts('col_matches')}</th>`;
  return `<table class="leaderboard-table" data-testid="season-table"><thead><tr>${head}</tr></thead><tbody>${rowsHtml(rows)}</tbody></table>`;
}
