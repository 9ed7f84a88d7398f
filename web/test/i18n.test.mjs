// Words shown to players: refusals without rule-document references; bot names in the page's language.
import test from 'node:test';
import assert from 'node:assert/strict';
import { withoutRuleRefs, localBotName, setLang, DICTIONARIES } from '../js/i18n.js';

test('refusals drop references to rule documents, keep plain parentheses', () => {
  assert.equal(withoutRuleRefs('you must draw first (RULES.md 4.1)'), 'you must draw first');
  assert.equal(withoutRuleRefs('prima devi pescare (REGOLE 4.1)'), 'prima devi pescare');
  assert.equal(withoutRuleRefs('not a meld (art. 9)'), 'not a meld');
  assert.equal(withoutRuleRefs('stallo (FEDIBUR art. 5)'), 'stallo');
  assert.equal(withoutRuleRefs('serve un burraco pulito (regola FIBUR)'), 'serve un burraco pulito (regola FIBUR)');
});

test('server bot names in Italian', () => {
  setLang('it');
  assert.equal(localBotName('Bot (expert)'), 'Bot (esperto)');
  assert.equal(localBotName('Anna'), 'Anna');
  setLang('en');
  assert.equal(localBotName('Bot (expert)'), 'Bot (expert)');
});

test('English and Italian have the same keys, a word in one is a word in the other', () => {
  const en = Object.keys(DICTIONARIES.en).sort();
  const it = Object.keys(DICTIONARIES.it).sort();
  assert.deepEqual(it.filter((k) => !en.includes(k)), [], 'Italian keys English lacks');
  assert.deepEqual(en.filter((k) => !it.includes(k)), [], 'English keys Italian lacks');
  // A deliberately blank label (a column of buttons) is blank in both.
  for (const k of en) {
    const blank = (/** @type {string} */ lang) => String(/** @type {any} */ (DICTIONARIES)[lang][k]).trim() === '';
    assert.equal(blank('it'), blank('en'), k);
  }
});
