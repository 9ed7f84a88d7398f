// @ts-check
/**
 * The player page's rating section as markup, without the DOM: the current rating per category
 * ("1500?" while provisional, the level once established: docs/RATINGS.md, "Levels") and the
 * history's chart, from `GET /api/ratings/{account}` as the server sends it (rating-chart.js).
 */
import { escapeHtml } from './dom.js';
import { tp } from './player-i18n.js';
import { levelName } from './leaderboard-view.js';
import { categoryColour, historyLines, ratingChartSvg, ratingFigure, ratingRows } from './rating-chart.js';

/** A category's name on this page. @param {string} cat */
const ratingCatName = (cat) => tp(cat === 'four' ? 'cat_four' : cat === 'pair' ? 'cat_pair' : 'cat_two');

/**
 * The rating section, from `GET /api/ratings/{account}` (docs/ACCOUNTS.md): the current rating per
 * category ("1500?" while provisional, the level once established) and the history's chart; "no
 * rated games yet" for none (or no answer).
 * @param {any} ratings @param {string} self the account's id
 */
export function ratingView(ratings, self) {
  const rows = ratingRows(ratings);
  if (!rows.length) return `<p class="muted" data-testid="no-rating">${tp('no_rated_games')}</p>`;
  const lines = rows.map((r) => {
    const partners = Array.isArray(r.partners) && Array.isArray(r.names)
      ? r.names.filter((_, i) => r.partners?.[i] !== self) : [];
    const pair = partners.length ? ` ${escapeHtml(tp('season_pair', { names: partners.join(', ') }))}` : '';
    const standing = r.provisional || !r.level
      ? `<span class="badge" title="${escapeHtml(tp('provisional_title'))}" data-testid="rating-provisional">${tp('provisional')}</span>`
      : `<span data-testid="rating-level">${escapeHtml(tp('level', { level: levelName(r.level) }))}</span>`;
    return `<li data-testid="rating-${escapeHtml(r.category)}" data-rating="${escapeHtml(String(r.rating))}" data-provisional="${String(!!r.provisional)}">
      <strong>${escapeHtml(ratingCatName(r.category))}</strong>${pair}
      <span class="rating-figure" data-testid="rating-figure" title="${escapeHtml(tp('rating_line', { rating: Math.round(r.rating), dev: Math.round(r.deviation ?? 0) }))}">${escapeHtml(ratingFigure(r))}</span>
      ${standing} <span class="muted">${escapeHtml(tp('rated_matches', { n: r.matches ?? 0 }))}</span></li>`;
  }).join('');
  const history = historyLines(ratings);
  const chart = ratingChartSvg(history, { label: tp('chart_label', { cat: history.map((l) => ratingCatName(l.category)).join(', ') }) });
  const legend = history.length > 1
    ? `<p class="rating-legend small">${history.map((l) => `<span data-category="${escapeHtml(l.category)}"><span class="rating-swatch" style="background:${categoryColour(l.category)}"></span>${escapeHtml(ratingCatName(l.category))}</span>`).join(' ')}</p>` : '';
  return `<ul class="plain-list" data-testid="ratings">${lines}</ul>${chart}${legend}`;
}
