// Words shown to players: refusals without rule-document references; bot names in the page's language.
import test from 'node:test';
import assert from 'node:assert/strict';
import { withoutRuleRefs, localBotName, setLang } from '../js/i18n.js';

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
