// Levels beside names and the expected VP of a rated match, as markup (js/levels.js): both
// languages, a text label for each badge, nothing for a seat without a level or a forecast.
import test from 'node:test';
import assert from 'node:assert/strict';
import { LEVEL_DICTIONARIES, levelBadge, levelOf, expectedHtml, expectedOf } from '../js/levels.js';
import { setLang } from '../js/i18n.js';

test('the words have the same keys and {params} in English and Italian', () => {
  const { en, it } = LEVEL_DICTIONARIES;
  assert.deepEqual(Object.keys(it).sort(), Object.keys(en).sort());
  const params = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const k of /** @type {(keyof typeof en)[]} */ (Object.keys(en))) assert.deepEqual(params(it[k]), params(en[k]), k);
});

test('a level badge names the level in the page language, with "Level" for a screen reader', () => {
  const levels = [{ seat: 'S', level: 'expert' }, { seat: 'E', level: 'champion' }];
  assert.equal(levelOf(levels, 'S'), 'expert');
  assert.equal(levelOf(levels, 'N'), null);
  assert.equal(levelOf(undefined, 'N'), null);
  setLang('en');
  assert.equal(levelBadge('expert'),
    '<span class="level-badge" data-testid="level-badge" data-level="expert" title="Level Expert"><span class="sr-only">Level </span>Expert</span>');
  setLang('it');
  assert.match(levelBadge('champion'), /title="Livello Campione"><span class="sr-only">Livello <\/span>Campione<\/span>$/);
  assert.match(levelBadge('novice'), />Esordiente<\/span>$/);
  // No level (provisional, a guest, a bot): nothing at all.
  assert.equal(levelBadge(null), '');
  assert.equal(levelBadge(''), '');
  // A level this page does not know yet shows the server's word, escaped.
  assert.match(levelBadge('<grand>'), /data-level="&lt;grand&gt;".*>&lt;grand&gt;<\/span>$/);
  setLang('en');
});

test('the expected VP: one decimal in the page language, nothing without a forecast', () => {
  const expected = [{ seat: 'S', vp: 13.9 }, { seat: 'N', vp: 6.1 }];
  assert.equal(expectedOf(expected, 'S'), 13.9);
  assert.equal(expectedOf(expected, 'E'), null);
  assert.equal(expectedOf(null, 'S'), null);
  setLang('en');
  assert.match(expectedHtml(13.9), /data-vp="13.9" title="[^"]+">Expected 13.9 VP<\/span>$/);
  assert.match(expectedHtml(10), />Expected 10.0 VP<\/span>$/);
  setLang('it');
  assert.match(expectedHtml(6.1), />Previsti 6,1 PV<\/span>$/);
  assert.equal(expectedHtml(null), '');
  setLang('en');
});
