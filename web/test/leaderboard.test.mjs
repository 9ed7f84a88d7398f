// The leaderboards page without the DOM: its words in both languages, the board's address, and
// its markup from the endpoint's JSON (docs/ACCOUNTS.md, "Ratings and leaderboards").
import test from 'node:test';
import assert from 'node:assert/strict';
import { LEADERBOARD_DICTIONARIES } from '../js/leaderboard-i18n.js';
import { boardFromSearch, boardPath, boardSearch, boardHtml, levelName } from '../js/leaderboard-view.js';
import { setLang } from '../js/i18n.js';

test('the leaderboards page has the same keys and {params} in English and Italian', () => {
  const { en, it } = LEADERBOARD_DICTIONARIES;
  assert.deepEqual(Object.keys(it).sort(), Object.keys(en).sort());
  const params = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const k of Object.keys(en)) assert.deepEqual(params(it[k]), params(en[k]), k);
});

test('the board is read from the address and asked of the API', () => {
  assert.deepEqual(boardFromSearch(''), { cat: 'two', week: false, bots: false });
  assert.deepEqual(boardFromSearch('?cat=pair&period=week&bots=true'), { cat: 'pair', week: true, bots: true });
  assert.deepEqual(boardFromSearch('?cat=nonsense'), { cat: 'two', week: false, bots: false });
  assert.equal(boardPath({ cat: 'four', week: false, bots: false }), '/api/leaderboards/four');
  assert.equal(boardPath({ cat: 'two', week: true, bots: true }), '/api/leaderboards/two?period=week&bots=true');
  assert.deepEqual(boardFromSearch(boardSearch({ cat: 'four', week: true, bots: false })), { cat: 'four', week: true, bots: false });
});

test('a board: names linking to the player page, rounded ratings, levels in the page language; empty says so', () => {
  setLang('it');
  const html = boardHtml({ category: 'pair', period: 'all', bots: false, rows: [
    { rank: 1, accounts: ['u-1', 'u-2'], names: ['Anna', '<b>Bea</b>'], rating: 1712.4, deviation: 62.1, level: 'advanced', matches: 41, last_ms: 0 }] });
  assert.match(html, /href="player.html\?name=u-1">Anna<\/a> &amp; <a href="player.html\?name=u-2">&lt;b&gt;Bea&lt;\/b&gt;<\/a>/);
  assert.match(html, /<td class="num">1712<\/td><td>Avanzato<\/td><td class="num">41<\/td>/);
  assert.match(html, /Coppia/);
  assert.equal(levelName('champion'), 'Campione');
  setLang('en');
  const week = boardHtml({ category: 'two', period: 'week', bots: false, rows: [{ rank: 1, accounts: ['u-1'], names: ['Anna'], gain: -3.6, matches: 6, rating: 1500 }] });
  assert.match(week, /<td class="num">−4<\/td><td class="num">1500<\/td><td class="num">6<\/td>/);
  assert.match(boardHtml({ category: 'two', period: 'all', bots: false, rows: [] }), /data-testid="leaderboard-empty">No established ratings yet\./);
  assert.match(boardHtml({ category: 'two', period: 'week', bots: true, rows: [] }), /No rated matches this week yet\./);
});
