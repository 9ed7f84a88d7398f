// Words shown to players: refusals without rule-document references; bot names in the page's language.
import test from 'node:test';
import assert from 'node:assert/strict';
import { withoutRuleRefs, localBotName, setLang, DICTIONARIES, playbanText, refusalText } from '../js/i18n.js';

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

test('a playban says until when and how long, in both languages, and still reads without its end', () => {
  const now = Date.UTC(2026, 10, 27, 10, 0);
  setLang('en');
  const en = playbanText(now + 25 * 60_000, now);
  assert.match(en, /until .*\d{2}:\d{2}/, en);
  assert.match(en, /about 25 minutes/, en);
  assert.match(playbanText(now + 3 * 3600_000, now), /about 3 hours/);
  assert.match(playbanText(now + 30_000, now), /about 1 minute\)/);
  assert.equal(refusalText({ code: 'playbanned', message: 'playbanned ... Unix ms 1', untilMs: now + 25 * 60_000 }), playbanText(now + 25 * 60_000));
  assert.match(refusalText({ code: 'playbanned', message: 'server words' }), /for a while/);
  setLang('it');
  const it = playbanText(now + 25 * 60_000, now);
  assert.match(it, /fino a .*\d{2}:\d{2}/, it);
  assert.match(it, /circa 25 minuti/, it);
  assert.match(playbanText(now + 3 * 3600_000, now), /circa 3 ore/);
  assert.match(refusalText({ code: 'playbanned', message: 'server words' }), /per un po'/);
  setLang('en');
});
