// The signed-in account's rating in the game's header, from a real answer of the ratings endpoint
// (the fixture the player page's tests read, held to the server's shape by web/e2e/player.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { headerRatingHtml, headlineRating } from '../js/header-rating.js';
import { setLang } from '../js/i18n.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/ratings-first-match.json', import.meta.url), 'utf8'));

test('after a first rated match: "<rating>?", provisional, linking to the player page, in both languages', () => {
  const r = headlineRating(fixture);
  const figure = `${Math.round(fixture.ratings[0].rating)}?`;
  setLang('en');
  const html = headerRatingHtml(r);
  assert.match(html, /href="player.html"/);
  assert.match(html, new RegExp(`>${figure.replace('?', '\\?')}</a>$`));
  assert.match(html, new RegExp(`title="Your head to head rating: ${Math.round(r.rating)}, provisional. Your player page."`));
  setLang('it');
  assert.match(headerRatingHtml(r), /title="Il tuo punteggio testa a testa: \d+, provvisorio\./);
  setLang('en');
});

test('never rated: a new rating, 1500?; established: the level beside it; the most played own category', () => {
  assert.match(headerRatingHtml(headlineRating({ ...fixture, ratings: [], history: [] })), />1500\?<\/a>$/);
  const two = fixture.ratings[0];
  const json = { ...fixture, ratings: [
    { ...two, matches: 3 },
    { ...two, category: 'four', rating: 1688.4, provisional: false, level: 'advanced', matches: 30 },
    { ...two, category: 'pair', rating: 1900, provisional: false, level: 'master', matches: 50, partners: ['a', 'b'], names: ['A', 'B'] },
  ] };
  const r = headlineRating(json);
  assert.equal(r.category, 'four', 'a fixed pair\'s rating is not the account\'s own');
  const html = headerRatingHtml(r);
  assert.match(html, />1688 <span class="header-rating-level">Advanced<\/span><\/a>$/);
  assert.match(html, /data-provisional="false"/);
  assert.match(html, /partnership rating: 1688, level Advanced/);
});
