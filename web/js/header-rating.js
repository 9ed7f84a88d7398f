// @ts-check
/**
 * The signed-in account's rating beside its name in the game's header (lobby and table), from
 * `GET /api/ratings/{account}` as the server sends it (docs/ACCOUNTS.md): the category it has
 * played most, "1500?" while provisional, its level's name once established, linking to the
 * player page. An account not yet rated is a new rating (1500?), as rated quick play counts it.
 * Markup without the DOM.
 */
import { escapeHtml } from './dom.js';
import { t } from './i18n.js';
import { levelName } from './leaderboard-view.js';
import { ratingFigure, ratingRows } from './rating-chart.js';

/** A new account's rating, before any rated match (docs/RATINGS.md: every rating starts at 1500). */
const NEW_RATING = { category: 'two', rating: 1500, deviation: 350, provisional: true, level: null, matches: 0, last_ms: 0 };

/**
 * The rating the header shows: the account's own (not a fixed pair's) in the category with the
 * most rated matches, head to head first on a tie; a new rating for none.
 * @param {any} json @returns {import('./rating-chart.js').RatingRow}
 */
export function headlineRating(json) {
  const own = ratingRows(json).filter((r) => r.category !== 'pair');
  return own.reduce((best, r) => ((r.matches ?? 0) > (best.matches ?? 0) ? r : best), own[0] ?? NEW_RATING);
}

/** @param {string} category */
const catWord = (category) => t(category === 'four' ? 'rating_cat_four' : category === 'pair' ? 'rating_cat_pair' : 'rating_cat_two');

/**
 * The header's link: "1516?", or "1602 Intermediate" once established (the level's name hidden on
 * a phone by the stylesheet; the title and the accessible name say all of it).
 * @param {import('./rating-chart.js').RatingRow} r
 */
export function headerRatingHtml(r) {
  const established = !r.provisional && r.level;
  const standing = established ? t('rating_level', { level: levelName(r.level) }) : t('rating_provisional');
  const title = t('header_rating_title', { cat: catWord(r.category), rating: Math.round(r.rating), standing });
  return `<a class="header-rating" href="player.html" data-testid="header-rating" data-category="${escapeHtml(r.category)}" data-provisional="${String(!established)}" title="${escapeHtml(title)}" aria-label="${escapeHtml(title)}">`
    + `${escapeHtml(ratingFigure({ rating: r.rating, provisional: !established }))}`
    + `${established ? ` <span class="header-rating-level">${escapeHtml(levelName(r.level))}</span>` : ''}</a>`;
}
