// The bot arena's page without the DOM: its words in both languages, and its markup from
// `GET /api/arena/leaderboard` (docs/BOTS.md, "The arena").
import test from 'node:test';
import assert from 'node:assert/strict';
import { ARENA_DICTIONARIES, arenaHtml } from '../js/arena-view.js';
import { setLang } from '../js/i18n.js';

test('the arena page has the same keys and {params} in English and Italian', () => {
  const { en, it } = ARENA_DICTIONARIES;
  assert.deepEqual(Object.keys(it).sort(), Object.keys(en).sort());
  const params = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const k of Object.keys(en)) assert.deepEqual(params(it[k]), params(en[k]), k);
});

test('bots link to their page with their interval; anchors are labelled; no bot says so', () => {
  setLang('en');
  const anchor = { rank: 1, rating: 1645, deviation: 50, low: 1545, high: 1745, provisional: false,
    account: null, name: 'Bot (expert)', server_bot: 'L2', anchor: true, matches: null };
  const bot = { rank: 2, rating: 1500.4, deviation: 300, low: 900.4, high: 2100.4, provisional: true,
    account: 'u-1', name: '<b>Robo</b>', server_bot: null, anchor: false, matches: 1 };
  const html = arenaHtml({ category: 'two', rows: [anchor, bot] });
  assert.match(html, /href="player.html\?name=u-1">&lt;b&gt;Robo&lt;\/b&gt;<\/a> <span class="muted small">provisional<\/span>/);
  assert.match(html, /Bot \(expert\) <span class="muted small">\(L2, anchor\)<\/span>/);
  assert.match(html, /900–2100/);
  // The widest interval spans the whole scale.
  assert.match(html, /left:0\.0%;width:100\.0%/);
  // No bot rated yet: said, and the anchors still drawn (the scale a bot will be placed on).
  const alone = arenaHtml({ rows: [anchor] });
  assert.match(alone, /data-testid="arena-empty">No arena matches rated yet/);
  assert.match(alone, /data-testid="arena-table".*Bot \(expert\).*class="arena-bar"/s);
  assert.doesNotMatch(html, /arena-empty/);
  assert.match(arenaHtml({ rows: [] }), /^<p class="muted" data-testid="arena-empty">/);
  assert.doesNotMatch(arenaHtml({ rows: [] }), /<table/);
  setLang('it');
  assert.match(arenaHtml({ rows: [anchor] }), /Nessuna partita/);
  setLang('en');
});
