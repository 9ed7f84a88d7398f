// @ts-check
/**
 * The player page's ratings, from the JSON of `GET /api/ratings/{account}` as the server sends it
 * (docs/ACCOUNTS.md, "GET /api/ratings/{account-or-username}"): `ratings`, one row per category
 * (and per fixed pair), and `history`, a point per rated match, oldest first. The history is drawn
 * as inline SVG, one line per category, match by match from the rating before the first rated
 * match, so a single match already draws a line (1500 to its result). No DOM, no chart library:
 * strings the page inserts and the unit tests read (with a real answer of the server as fixture).
 */

/**
 * @typedef {{category: string, rating: number, deviation: number, provisional: boolean,
 *   level: string|null, matches: number, last_ms: number, partners?: string[], names?: string[]}} RatingRow
 * @typedef {{category: string, match: string, at_ms: number, before: number, rating: number, deviation: number}} HistoryPoint
 * @typedef {{account: string, ratings: RatingRow[], history: HistoryPoint[]}} RatingsAnswer
 * @typedef {{category: string, points: {rating: number, at_ms: number|null}[]}} ChartLine
 */

/** The categories in the order the page lists them. */
const ORDER = ['two', 'four', 'pair'];
const rank = (/** @type {string} */ c) => (ORDER.indexOf(c) < 0 ? ORDER.length : ORDER.indexOf(c));

/**
 * The rating rows worth a line, in a stable order (head to head, partnerships, fixed pairs);
 * none for no answer, an error body or an answer of another shape.
 * @param {any} json @returns {RatingRow[]}
 */
export function ratingRows(json) {
  const list = Array.isArray(json?.ratings) ? json.ratings : [];
  return list
    .filter((/** @type {any} */ r) => r && typeof r.category === 'string' && Number.isFinite(r.rating))
    .sort((/** @type {RatingRow} */ a, /** @type {RatingRow} */ b) => rank(a.category) - rank(b.category));
}

/**
 * A rating for people: whole points, with "?" while provisional (as Lichess writes it: "1500?").
 * @param {{rating: number, provisional?: boolean}} r
 */
export function ratingFigure(r) {
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/**
 * The history's lines, one per category with any point: the rating before its first rated
 * match, then its rating after each, oldest first.
 * @param {any} json @returns {ChartLine[]}
 */
export function historyLines(json) {
  const points = (Array.isArray(json?.history) ? json.history : [])
    .filter((/** @type {any} */ p) => p && typeof p.category === 'string' && Number.isFinite(p.rating) && Number.isFinite(p.at_ms))
    .sort((/** @type {HistoryPoint} */ a, /** @type {HistoryPoint} */ b) => a.at_ms - b.at_ms);
  /** @type {Map<string, ChartLine>} */
  const lines = new Map();
  for (const p of /** @type {HistoryPoint[]} */ (points)) {
    let line = lines.get(p.category);
    if (!line) {
      line = { category: p.category, points: Number.isFinite(p.before) ? [{ rating: p.before, at_ms: null }] : [] };
      lines.set(p.category, line);
    }
    line.points.push({ rating: p.rating, at_ms: p.at_ms });
  }
  return [...lines.values()].sort((a, b) => rank(a.category) - rank(b.category));
}

/** Line colours by category, readable on the page's light panels. */
const COLOURS = /** @type {Record<string, string>} */ ({ two: '#0f5132', four: '#8a3b12', pair: '#1d4e89' });

/** A category's line colour (for a legend beside the chart). @param {string} category */
export const categoryColour = (category) => COLOURS[category] ?? '#333';

/**
 * The chart, or '' when there is no history. x is the match's number (the start, then each rated
 * match), y the rating; a dot at each point.
 * @param {ChartLine[]} lines
 * @param {{width?: number, height?: number, label?: string}} [opts]
 * @returns {string}
 */
export function ratingChartSvg(lines, { width = 400, height = 150, label = 'Rating history' } = {}) {
  const drawn = lines.filter((l) => l.points.length >= 1);
  if (!drawn.length) return '';
  const all = drawn.flatMap((l) => l.points.map((p) => p.rating));
  let r0 = Math.min(...all);
  let r1 = Math.max(...all);
  // A flat line still gets some height; round the scale to tens so the labels read.
  if (r1 - r0 < 20) { r0 -= 10; r1 += 10; }
  r0 = Math.floor(r0 / 10) * 10;
  r1 = Math.ceil(r1 / 10) * 10;
  const steps = Math.max(1, ...drawn.map((l) => l.points.length - 1));
  const pad = { left: 44, right: 10, top: 8, bottom: 8 };
  const w = width - pad.left - pad.right;
  const h = height - pad.top - pad.bottom;
  const x = (/** @type {number} */ i) => pad.left + (i / steps) * w;
  const y = (/** @type {number} */ r) => pad.top + (1 - (r - r0) / (r1 - r0)) * h;
  const f = (/** @type {number} */ v) => v.toFixed(1);
  const grid = [r0, Math.round((r0 + r1) / 2), r1].map((r) =>
    `<line x1="${pad.left}" x2="${width - pad.right}" y1="${f(y(r))}" y2="${f(y(r))}" class="chart-grid"/>` +
    `<text x="${pad.left - 4}" y="${f(y(r) + 4)}" text-anchor="end" class="chart-tick">${r}</text>`).join('');
  const paths = drawn.map(({ category, points }) => {
    const cat = escapeAttr(category);
    const colour = categoryColour(category);
    const xy = points.map((p, i) => `${f(x(i))},${f(y(p.rating))}`);
    const dots = points.map((p, i) => `<circle cx="${f(x(i))}" cy="${f(y(p.rating))}" r="3" fill="${colour}"><title>${Math.round(p.rating)}</title></circle>`).join('');
    return `<g data-category="${cat}"><polyline data-category="${cat}" fill="none" stroke="${colour}" stroke-width="2" points="${xy.join(' ')}"/>${dots}</g>`;
  }).join('');
  return `<svg class="rating-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeAttr(label)}" data-testid="rating-chart">${grid}${paths}</svg>`;
}

/** @param {string} s */
function escapeAttr(s) {
  return s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] ?? ch);
}
