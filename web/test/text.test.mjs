// The page's text rule is the server's (protocol/src/text.rs): the same ranges, the same limits,
// the same answers for the server's own test cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkLine, DECEPTIVE_RANGES, MAX_NAME, MAX_TOURNAMENT_NAME, MAX_CHAT } from '../js/text.js';

const rust = readFileSync(fileURLToPath(new URL('../../protocol/src/text.rs', import.meta.url)), 'utf8');

test('the ranges and limits are the server\'s', () => {
  const ranges = [...rust.matchAll(/\(0x([0-9A-F]+), 0x([0-9A-F]+)\),/g)].map((m) => [parseInt(m[1], 16), parseInt(m[2], 16)]);
  assert.ok(ranges.length > 20, 'the Rust ranges were found');
  assert.deepEqual(DECEPTIVE_RANGES.map((r) => [...r]), ranges);
  const limit = (name) => Number(new RegExp(`pub const ${name}: usize = (\\d+);`).exec(rust)?.[1]);
  assert.deepEqual([MAX_NAME, MAX_TOURNAMENT_NAME, MAX_CHAT], [limit('MAX_NAME'), limit('MAX_TOURNAMENT_NAME'), limit('MAX_CHAT')]);
});

test('names are trimmed, collapsed, and refused with the reason', () => {
  assert.deepEqual(checkLine(' Anna \u2003 Maria ', MAX_NAME), { ok: true, text: 'Anna Maria' });
  assert.deepEqual(checkLine('Zoë', MAX_NAME), { ok: true, text: 'Zoë' });
  assert.equal(checkLine('é'.repeat(32), MAX_NAME).ok, true);
  assert.equal(checkLine('Ana\n', MAX_NAME).ok, true, 'a trailing newline is trimmed');
  for (const bad of ['A\u200DB', '\u202Ex', 'x\u2069', '\uFEFF', 'a\tb', '\u0301a', '\u{E0020}', '\u{10FFFD}', '\uFFFF', '👨\u200D👩\u200D👧']) {
    assert.deepEqual(checkLine(bad, MAX_NAME), { ok: false, error: 'chars' }, JSON.stringify(bad));
  }
  assert.deepEqual(checkLine('', MAX_NAME), { ok: false, error: 'empty' });
  assert.deepEqual(checkLine('   ', MAX_NAME), { ok: false, error: 'empty' });
  assert.deepEqual(checkLine('x'.repeat(33), MAX_NAME), { ok: false, error: 'long' });
  assert.deepEqual(checkLine('x'.repeat(40), MAX_NAME), { ok: false, error: 'long' });
});

test('tournament names and chat lines follow the same rule with their lengths', () => {
  assert.deepEqual(checkLine('  Coppa  di\u2003Natale ', MAX_TOURNAMENT_NAME), { ok: true, text: 'Coppa di Natale' });
  assert.deepEqual(checkLine('Bidi \u202Eevil\u202C name', MAX_TOURNAMENT_NAME), { ok: false, error: 'chars' });
  assert.equal(checkLine('x'.repeat(200), MAX_CHAT).ok, true);
  assert.deepEqual(checkLine('x'.repeat(201), MAX_CHAT), { ok: false, error: 'long' });
});
