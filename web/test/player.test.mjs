// The player's page without the DOM: its words in both languages, and its ratings and chart drawn
// from a real answer of the ratings endpoint.
import test from 'node:test';
import assert from 'node:assert/strict';
import { PLAYER_DICTIONARIES, tp } from '../js/player-i18n.js';
import { readFileSync } from 'node:fs';
import { historyLines, ratingChartSvg, ratingFigure, ratingRows } from '../js/rating-chart.js';
import { ratingView } from '../js/player-rating.js';
import { shapeDifferences } from '../e2e/lib/json-shape.mjs';
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

// A real answer of GET /api/ratings/{account} after one rated match (written by the end-to-end
// test web/e2e/player.mjs against the server, which checks on every run that the server still
// answers this shape).
const fixture = JSON.parse(readFileSync(new URL('./fixtures/ratings-first-match.json', import.meta.url), 'utf8'));

/** The chart's lines as drawn: each category's points (x, y) and their tooltips. @param {string} svg */
function drawn(svg) {
  return [...svg.matchAll(/<g data-category="(\w+)">(.*?)<\/g>/g)].map(([, category, inner]) => ({
    category,
    points: [...inner.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"[^>]*><title>(\d+)<\/title>/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), rating: Number(m[3]) })),
  }));
}

test('the first rated match: "<rating>?" while provisional, no level, and a line from 1500 to it', () => {
  const rows = ratingRows(fixture);
  assert.equal(rows.length, 1);
  const two = rows[0];
  assert.equal(two.provisional, true);
  assert.equal(ratingFigure(two), `${Math.round(two.rating)}?`);
  setLang('en');
  const html = ratingView(fixture, fixture.account);
  assert.match(html, new RegExp(`data-testid="rating-figure"[^>]*>${Math.round(two.rating)}\\?<`));
  assert.match(html, /data-testid="rating-provisional"[^>]*>provisional</);
  assert.match(html, /1 rated match/);
  assert.doesNotMatch(html, /data-testid="rating-level"/, 'no level while provisional');
  const lines = drawn(html);
  assert.deepEqual(lines.map((l) => l.category), ['two']);
  assert.deepEqual(lines[0].points.map((p) => p.rating), [fixture.history[0].before, Math.round(two.rating)]);
  assert.ok(lines[0].points[1].y < lines[0].points[0].y, 'a gain goes up');
  setLang('it');
  const it = ratingView(fixture, fixture.account);
  assert.match(it, /Testa a testa/);
  assert.match(it, />provvisorio</);
  assert.match(it, /1 partita valida/);
  assert.match(it, /aria-label="Andamento del punteggio: Testa a testa"/);
  setLang('en');
});

test('an established rating shows its level and no "?"; each category its own line, in time order, inside the box', () => {
  // The fixture's answer, grown by three more matches and a partnership rating.
  const [first] = fixture.history;
  const later = [1540.5, 1528, 1601.9].map((rating, i) => ({ ...first, match: `t-${i}`, at_ms: first.at_ms + (i + 1) * 1000, before: i ? 0 : first.rating, rating, deviation: 100 }));
  const four = { ...first, category: 'four', at_ms: first.at_ms + 500, before: 1500, rating: 1480 };
  const json = {
    ...fixture,
    ratings: [{ ...fixture.ratings[0], category: 'four', rating: 1480, provisional: true }, { ...fixture.ratings[0], rating: 1601.9, deviation: 100, provisional: false, level: 'intermediate', matches: 4 }],
    history: [later[2], four, first, later[0], later[1]],
  };
  assert.deepEqual(ratingRows(json).map((r) => r.category), ['two', 'four'], 'head to head first');
  assert.equal(ratingFigure(json.ratings[1]), '1602');
  const html = ratingView(json, fixture.account);
  assert.match(html, /data-testid="rating-level">level Intermediate</);
  assert.match(html, /4 rated matches/);
  const svg = ratingChartSvg(historyLines(json), { width: 600, height: 180 });
  const lines = drawn(svg);
  assert.deepEqual(lines.map((l) => l.category), ['two', 'four']);
  assert.deepEqual(lines[0].points.map((p) => p.rating), [1500, Math.round(first.rating), 1541, 1528, 1602]);
  assert.deepEqual(lines[1].points.map((p) => p.rating), [1500, 1480]);
  const xs = lines[0].points.map((p) => p.x);
  assert.deepEqual(xs, [...xs].sort((a, b) => a - b), 'left to right in time');
  for (const { x, y } of lines.flatMap((l) => l.points)) assert.ok(x >= 0 && x <= 600 && y >= 0 && y <= 180, `${x},${y} inside`);
  assert.match(ratingChartSvg(historyLines(json), { label: 'Rating <history>' }), /aria-label="Rating &lt;history&gt;"/, 'the label is escaped');
});

test('no ratings, an error body, or the old `categories` shape: nothing shown, and the old shape is not the server\'s', () => {
  assert.deepEqual(ratingRows(null), []);
  assert.deepEqual(ratingRows({ code: 'no_such_account' }), []);
  assert.deepEqual(ratingRows({ account: 'u-1', ratings: [], history: [] }), []);
  assert.equal(ratingChartSvg(historyLines({ account: 'u-1', ratings: [], history: [] })), '');
  const old = { categories: [{ category: 'two', rating: 1562.4, deviation: 88.1, provisional: false, level: 'silver', history: [{ at_ms: 1, rating: 1500 }] }] };
  assert.deepEqual(ratingRows(old), []);
  assert.match(ratingView(old, 'u-1'), /data-testid="no-rating"/);
  assert.deepEqual(shapeDifferences(fixture, structuredClone(fixture)), []);
  assert.notDeepEqual(shapeDifferences(fixture, old), [], 'a fixture of the old shape fails the end-to-end check');
  const renamed = structuredClone(fixture);
  renamed.history[0].at = renamed.history[0].at_ms; delete renamed.history[0].at_ms;
  assert.deepEqual(shapeDifferences(fixture, renamed), ['$.history[0].at_ms: in the fixture, not sent by the server', '$.history[0].at: sent by the server, not in the fixture']);
});
