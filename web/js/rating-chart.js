// @ts-check
/**
 * The rating history chart of the player's page as inline SVG markup, from the JSON of
 * `GET /api/ratings/{account}` (one line per category, time along x, rating along y). No DOM,
 * no chart library: a string the page inserts, and the unit tests read.
 */

/**
 * @typedef {{at_ms: number, rating: number}} RatingPoint
 * @typedef {{category: string, rating: number, deviation: number, provisional: boolean, level?: any, history?: RatingPoint[]}} RatingCategory
 */

/** The categories that have anything to show (a rating or a history), in a stable order. @param {any} json */
export function ratedCategories(json) {
  const list = Array.isArray(json?.categories) ? json.categories : [];
  return list
    .filter((/** @type {any} */ c) => c && typeof c.category === 'string' && Number.isFinite(c.rating))
    .sort((/** @type {any} */ a, /** @type {any} */ b) => a.category.localeCompare(b.category));
}

/** Line colours by category, readable on the page's light panels. */
const COLOURS = /** @type {Record<string, string>} */ ({ two: '#0f5132', four: '#8a3b12' });

/**
 * The chart, or '' when no category has two points to join.
 * @param {RatingCategory[]} categories
 * @param {{width?: number, height?: number, label?: string}} [opts]
 * @returns {string}
 */
export function ratingChartSvg(categories, { width = 400, height = 150, label = 'Rating history' } = {}) {
  const lines = categories
    .map((c) => ({ c, pts: (c.history ?? []).filter((p) => Number.isFinite(p?.at_ms) && Number.isFinite(p?.rating)).sort((a, b) => a.at_ms - b.at_ms) }))
    .filter((l) => l.pts.length >= 2);
  if (!lines.length) return '';
  const all = lines.flatMap((l) => l.pts);
  const t0 = Math.min(...all.map((p) => p.at_ms));
  const t1 = Math.max(...all.map((p) => p.at_ms));
  let r0 = Math.min(...all.map((p) => p.rating));
  let r1 = Math.max(...all.map((p) => p.rating));
  // A flat line still gets some height; round the scale to tens so the labels read.
  if (r1 - r0 < 20) { r0 -= 10; r1 += 10; }
  r0 = Math.floor(r0 / 10) * 10;
  r1 = Math.ceil(r1 / 10) * 10;
  const pad = { left: 44, right: 8, top: 8, bottom: 8 };
  const w = width - pad.left - pad.right;
  const h = height - pad.top - pad.bottom;
  const x = (/** @type {number} */ t) => pad.left + (t1 === t0 ? w / 2 : ((t - t0) / (t1 - t0)) * w);
  const y = (/** @type {number} */ r) => pad.top + (1 - (r - r0) / (r1 - r0)) * h;
  const f = (/** @type {number} */ v) => v.toFixed(1);
  const grid = [r0, Math.round((r0 + r1) / 2), r1].map((r) =>
    `<line x1="${pad.left}" x2="${width - pad.right}" y1="${f(y(r))}" y2="${f(y(r))}" class="chart-grid"/>` +
    `<text x="${pad.left - 4}" y="${f(y(r) + 4)}" text-anchor="end" class="chart-tick">${r}</text>`).join('');
  const paths = lines.map(({ c, pts }) =>
    `<polyline data-category="${c.category === 'four' ? 'four' : 'two'}" fill="none" stroke="${COLOURS[c.category] ?? '#333'}" stroke-width="2" ` +
    `points="${pts.map((p) => `${f(x(p.at_ms))},${f(y(p.rating))}`).join(' ')}"/>`).join('');
  const safeLabel = label.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] ?? ch);
  return `<svg class="rating-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${safeLabel}" data-testid="rating-chart">${grid}${paths}</svg>`;
}
