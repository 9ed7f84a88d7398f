// The player's page without the DOM: its words in both languages, and the rating chart drawn
// from the ratings endpoint's JSON.
import test from 'node:test';
import assert from 'node:assert/strict';
import { PLAYER_DICTIONARIES, tp } from '../js/player-i18n.js';
import { ratedCategories, ratingChartSvg } from '../js/rating-chart.js';
import { setLang } from '../js/i18n.js';

test('the player page has the same keys and {params} in English and Italian', () => {
  const { en, it } = PLAYER_DICTIONARIES;
  assert.deepEqual(Object.keys(it).sort(), Object.keys(en).sort());
  const params = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const k of Object.keys(en)) assert.deepEqual(params(it[k]), params(en[k]), k);
  setLang('it');
  assert.equal(tp('hands_n', { n: 1 }), '1 smazzata');
  assert.equal(tp('hands_n', { n: 3 }), '3 smazzate');
  setLang('en');
  assert.equal(tp('vp', { for: 16, against: 4 }), '16–4 VP');
});

const ratings = {
  categories: [
    { category: 'two', rating: 1580, deviation: 90, provisional: false, level: 3,
      history: [{ at_ms: 3000, rating: 1580 }, { at_ms: 1000, rating: 1500 }, { at_ms: 2000, rating: 1540 }] },
    { category: 'four', rating: 1490, deviation: 300, provisional: true, level: null, history: [{ at_ms: 1500, rating: 1490 }] },
  ],
};

test('the chart draws one line per category with two points or more, in time order, inside its box', () => {
  const cats = ratedCategories(ratings);
  assert.deepEqual(cats.map((c) => c.category), ['four', 'two']);
  const svg = ratingChartSvg(cats, { width: 600, height: 180, label: 'Rating <history>' });
  const lines = [...svg.matchAll(/<polyline data-category="(\w+)"[^>]*points="([^"]+)"/g)];
  assert.equal(lines.length, 1, 'a single point is no line');
  assert.equal(lines[0][1], 'two');
  const pts = lines[0][2].split(' ').map((p) => p.split(',').map(Number));
  assert.equal(pts.length, 3);
  const xs = pts.map((p) => p[0]);
  assert.deepEqual(xs, [...xs].sort((a, b) => a - b), 'left to right in time');
  for (const [x, y] of pts) assert.ok(x >= 0 && x <= 600 && y >= 0 && y <= 180, `${x},${y} inside`);
  // The newest (highest) rating is the highest point: the smallest y.
  assert.ok(pts[2][1] < pts[1][1] && pts[1][1] < pts[0][1]);
  assert.match(svg, /aria-label="Rating &lt;history&gt;"/, 'the label is escaped');
});

test('no ratings, an empty list or an error body: nothing to draw', () => {
  assert.deepEqual(ratedCategories(null), []);
  assert.deepEqual(ratedCategories({ code: 'not_found' }), []);
  assert.deepEqual(ratedCategories({ categories: [] }), []);
  assert.equal(ratingChartSvg([]), '');
  assert.equal(ratingChartSvg(ratedCategories({ categories: [{ category: 'two', rating: 1500, deviation: 350, provisional: true, history: [] }] })), '');
});
