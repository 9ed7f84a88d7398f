// @ts-check
/**
 * The bot arena's leaderboard (arena.html) without the DOM: its words in English and Italian,
 * and its markup from `GET /api/arena/leaderboard` (docs/BOTS.md, "The arena"): each bot's
 * rating with its 95% interval (rating ± 2 deviations) drawn as a bar on a common scale, the
 * server bots' levels as fixed anchors among them.
 */
import { escapeHtml } from './dom.js';
import { getLang } from './i18n.js';

const en = {
  page_title: 'Bot arena',
  back_to_game: '← Back to the game',
  note: 'Bot accounts rated on duplicate boards (the same deals both ways), head to head. The bar is the 95% interval: rating ± 2 deviations. The server\'s bots are fixed anchors.',
  col_rank: '#',
  col_name: 'Bot',
  col_rating: 'Rating',
  col_interval: '95% interval',
  col_matches: 'Matches',
  anchor: 'anchor',
  provisional: 'provisional',
  empty: 'No arena matches rated yet.',
  err_generic: 'The arena cannot be read now ({code}).',
  boards_link: 'All leaderboards',
};

/** @type {typeof en} */
const it = {
  page_title: 'Arena dei bot',
  back_to_game: '← Torna al gioco',
  note: 'Account bot valutati su smazzate duplicate (le stesse carte nei due sensi), testa a testa. La barra è l\'intervallo al 95%: punteggio ± 2 deviazioni. I bot del server sono ancore fisse.',
  col_rank: '#',
  col_name: 'Bot',
  col_rating: 'Punteggio',
  col_interval: 'Intervallo 95%',
  col_matches: 'Partite',
  anchor: 'ancora',
  provisional: 'provvisorio',
  empty: 'Nessuna partita dell\'arena ancora valutata.',
  err_generic: 'Non si riesce a leggere l\'arena ora ({code}).',
  boards_link: 'Tutte le classifiche',
};

export const ARENA_DICTIONARIES = { en, it };

/** A word of the page in the game's language. @param {keyof typeof en} key @param {Record<string, string>} [params] */
export function ta(key, params = {}) {
  const dict = getLang() === 'it' ? it : en;
  return (dict[key] ?? en[key]).replace(/\{(\w+)\}/g, (_, p) => params[p] ?? `{${p}}`);
}

/** Whole points. @param {number|null|undefined} v */
const points = (v) => (v == null || !Number.isFinite(v) ? '–' : String(Math.round(v)));

/**
 * The board as a table: rank, name (a bot's links to its player page), rating, its interval
 * as numbers and as a bar on the scale of the whole board, matches; with no bot rated yet, a
 * note saying so above the anchors alone.
 * @param {any} board the endpoint's JSON: `{category, interval, rows}`
 */
export function arenaHtml(board) {
  const rows = Array.isArray(board?.rows) ? board.rows : [];
  // The server lists its bots' levels before any bot account has played: the scale a newcomer
  // will be placed on, drawn under the note that nobody is on it yet.
  const empty = rows.some((/** @type {any} */ r) => !r.anchor) ? ''
    : `<p class="muted" data-testid="arena-empty">${escapeHtml(ta('empty'))}</p>`;
  if (!rows.length) return empty;
  const lows = rows.map((/** @type {any} */ r) => Number(r.low)).filter(Number.isFinite);
  const highs = rows.map((/** @type {any} */ r) => Number(r.high)).filter(Number.isFinite);
  const min = Math.min(...lows);
  const span = Math.max(1, Math.max(...highs) - min);
  const pct = (/** @type {number} */ v) => (((v - min) / span) * 100).toFixed(1);
  const body = rows.map((/** @type {any} */ r) => {
    const name = r.anchor
      ? `${escapeHtml(r.name ?? r.server_bot)} <span class="muted small">(${escapeHtml(r.server_bot)}, ${escapeHtml(ta('anchor'))})</span>`
      : `<a href="player.html?name=${encodeURIComponent(r.account)}">${escapeHtml(r.name)}</a>`
        + (r.provisional ? ` <span class="muted small">${escapeHtml(ta('provisional'))}</span>` : '');
    const bar = `<span class="arena-bar" aria-hidden="true"><span style="left:${pct(r.low)}%;width:${(Number(pct(r.high)) - Number(pct(r.low))).toFixed(1)}%"></span></span>`;
    return `<tr data-testid="arena-row"${r.anchor ? ' class="arena-anchor"' : ''}><td class="num">${escapeHtml(String(r.rank))}</td>`
      + `<td class="lb-names">${name}</td><td class="num">${escapeHtml(points(r.rating))}</td>`
      + `<td class="num arena-interval">${escapeHtml(`${points(r.low)}–${points(r.high)}`)} ${bar}</td>`
      + `<td class="num arena-matches">${escapeHtml(String(r.matches ?? '–'))}</td></tr>`;
  }).join('');
  const head = `<th scope="col" class="num">${ta('col_rank')}</th><th scope="col">${ta('col_name')}</th>`
    + `<th scope="col" class="num">${ta('col_rating')}</th><th scope="col" class="num">${ta('col_interval')}</th>`
    + `<th scope="col" class="num arena-matches">${ta('col_matches')}</th>`;
  return `${empty}<table class="leaderboard-table" data-testid="arena-table"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}
