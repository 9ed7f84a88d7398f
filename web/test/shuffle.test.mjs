// The browser's re-implementation of RULES.md section 3 against the Rust reference: the fixtures
// are the output of `burraco deal` (regenerate with web/scripts/gen-deal-fixtures.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { canonicalDeck, shuffledDeck, dealFromSeed, commitmentOf, ChaCha20, hexToBytes } from '../js/shuffle.js';

const fixtures = JSON.parse(readFileSync(new URL('./fixtures/deals.json', import.meta.url), 'utf8'));

test('the canonical deck is twice H D C S A..K then four jokers', () => {
  const deck = canonicalDeck();
  assert.equal(deck.length, 108);
  assert.deepEqual(deck.slice(0, 3), ['AH', '2H', '3H']);
  assert.equal(deck[13], 'AD');
  assert.equal(deck[51], 'KS');
  assert.equal(deck[52], 'AH');
  assert.deepEqual(deck.slice(104), ['JK', 'JK', 'JK', 'JK']);
});

test('ChaCha20 block 0 matches RFC 8439 section 2.3.2 structure (all-zero key keystream)', () => {
  // Known ChaCha20 keystream for key = 0, nonce = 0, counter = 0: 76 b8 e0 ad a0 f1 3d 90 ...
  const rng = new ChaCha20(new Uint8Array(32));
  assert.equal(rng.nextU32(), 0xade0b876);
  assert.equal(rng.nextU32(), 0x903df1a0);
});

for (const f of fixtures) {
  test(`deal of seed ${f.seed.slice(0, 8)}... (${f.players} players, dealer ${f.dealer}) matches burraco deal`, async () => {
    const deal = dealFromSeed(f.seed, f.players, f.dealer);
    assert.deepEqual(deal.hands, f.hands.map((/** @type {string[]} */ cards, /** @type {number} */ i) => ({ seat: f.seats[i], cards })));
    assert.deepEqual(deal.pozzetti, f.pozzetti);
    assert.equal(deal.discard, f.discard);
    assert.deepEqual(deal.tallone, f.tallone);
    assert.equal(await commitmentOf(f.seed), f.commitment);
    assert.equal(shuffledDeck(hexToBytes(f.seed)).length, 108);
  });
}
