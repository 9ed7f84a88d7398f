// "Verify the shuffle" from a hand record alone: the complete record of docs/HAND_RECORD.md passes
// every check; a record whose moves do not fit its deal, or whose seed is not the committed one, fails.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { verifyRecord } from '../js/verify.js';

const doc = readFileSync(new URL('../../docs/HAND_RECORD.md', import.meta.url), 'utf8');
const example = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(doc)[1]);

test('the documented record verifies: four checks, all passed', async () => {
  const v = await verifyRecord(example);
  assert.deepEqual(v.checks.map((c) => [c.key, c.ok]), [['v_commitment', true], ['v_deck', true], ['v_moves', true], ['v_replay', true]]);
  assert.equal(v.ok, true);
});

test('the cards this browser was dealt are compared when it kept them', async () => {
  const ok = await verifyRecord(example, { you: 'N', dealt: (await verifyRecord(example)).deal.hands.find((h) => h.seat === 'N').cards });
  assert.equal(ok.checks.length, 5);
  assert.equal(ok.ok, true);
  const bad = await verifyRecord(example, { you: 'N', dealt: ['AH', 'AH', 'AH', 'AH', 'AH', 'AH', 'AH', 'AH', 'AH', 'AH', 'AH'] });
  assert.equal(bad.ok, false);
});

test('a seed that is not the committed one fails', async () => {
  const v = await verifyRecord({ ...example, seed: '22'.repeat(32) });
  assert.equal(v.checks.find((c) => c.key === 'v_commitment').ok, false);
  assert.equal(v.ok, false);
});

test('moves that do not fit the deal fail', async () => {
  const inputs = example.inputs.map((i) => (i.type === 'open' ? { ...i, cards: ['KH', 'KH', 'KH'] } : i));
  const v = await verifyRecord({ ...example, inputs });
  assert.equal(v.checks.find((c) => c.key === 'v_moves').ok, false);
  assert.equal(v.ok, false);
});
