// The season page without the DOM: its words in both languages, the ladder's address, the
// season selector with its dates, and the ladder's markup from the endpoint's JSON
// (docs/ACCOUNTS.md, "Seasons").
import test from 'node:test';
import assert from 'node:assert/strict';
import { SEASON_DICTIONARIES } from '../js/season-i18n.js';
import { ladderFromSearch, ladderPath, ladderSearch, ladderHtml, selectorHtml, seasonDates } from '../js/season-view.js';
import { setLang } from '../js/i18n.js';

test('the season page has the same keys and {params} in English and Italian', () => {
  const { en, it } = SEASON_DICTIONARIES;
  assert.deepEqual(Object.keys(it).sort(), Object.keys(en).sort());
  const params = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const k of Object.keys(en)) assert.deepEqual(params(it[k]), params(en[k]), k);
});

test('the ladder is read from the address and asked of the API', () => {
  assert.deepEqual(ladderFromSearch(''), { season: 'current', cat: 'two', bots: false });
  assert.deepEqual(ladderFromSearch('?season=2025-q1&cat=pair&bots=true'), { season: '2025-q1', cat: 'pair', bots: true });
  assert.deepEqual(ladderFromSearch('?season=../x&cat=nonsense'), { season: 'current', cat: 'two', bots: false });
  assert.equal(ladderPath({ season: 'current', cat: 'four', bots: false }), '/api/seasons/current/four?limit=50');
  assert.equal(ladderPath({ season: '2025-q1', cat: 'two', bots: true }, 50), '/api/seasons/2025-q1/two?limit=50&offset=50&bots=true');
  assert.equal(ladderSearch({ season: 'current', cat: 'two', bots: false }), '?cat=two');
  assert.deepEqual(ladderFromSearch(ladderSearch({ season: '2026-q3', cat: 'four', bots: true })), { season: '2026-q3', cat: 'four', bots: true });
});

const LIST = { current: '2026-q4', seasons: [
  { id: '2026-q4', year: 2026, quarter: 4, start_ms: 1790812800000, end_ms: 1798761600000, current: true },
  { id: '2025-q1', year: 2025, quarter: 1, start_ms: 1735689600000, end_ms: 1743465600000, current: false }] };

test('the selector names the seasons, marks the current one and shows the chosen one\'s dates', () => {
  setLang('en');
  const html = selectorHtml(LIST, 'current');
  assert.match(html, /<option value="2026-q4" selected>Q4 2026 \(current\)<\/option><option value="2025-q1">Q1 2025<\/option>/);
  assert.match(html, /data-testid="season-dates">1 Oct 2026 – 31 Dec 2026</);
  // A season the address names and the list lacks: added, in its place, with its dates.
  const named = selectorHtml(LIST, '2026-q2');
  assert.match(named, /Q4 2026 \(current\)<\/option><option value="2026-q2" selected>Q2 2026<\/option><option value="2025-q1">/);
  assert.match(named, /1 Apr 2026 – 30 Jun 2026/);
  setLang('it');
  assert.equal(seasonDates(LIST.seasons[1]), '1 gen 2025 – 31 mar 2025');
  assert.match(selectorHtml(LIST, '2025-q1'), /<option value="2025-q1" selected>1º trimestre 2025<\/option>/);
  setLang('en');
});

test('a ladder: names linking to the player page, points and matches; empty says so', () => {
  setLang('it');
  const html = ladderHtml({ category: 'pair', bots: false, rows: [
    { rank: 1, account: 'u-1', username: 'Anna', accounts: ['u-1', 'u-2'], names: ['Anna', '<b>Bea</b>'], points: 31, matches: 9, bot: false }] });
  assert.match(html, /href="player.html\?name=u-1">Anna<\/a> &amp; <a href="player.html\?name=u-2">&lt;b&gt;Bea&lt;\/b&gt;<\/a>/);
  assert.match(html, /<td class="num">31<\/td><td class="num">9<\/td>/);
  assert.match(html, /Coppia/);
  assert.match(html, /Punti/);
  setLang('en');
  assert.match(ladderHtml({ category: 'two', bots: false, rows: [] }), /data-testid="season-empty">No points in this season yet\./);
});
