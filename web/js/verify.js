// @ts-check
/**
 * "Verify the shuffle", from a hand record alone (docs/HAND_RECORD.md): the revealed seed, its
 * commitment, the dealer, the settings and the inputs. Nothing the page remembered from the hand
 * goes in, except, as a fifth check, the eleven cards this browser was dealt, kept under the
 * hand's commitment (so it can never be compared with another hand's deal).
 */
import { commitmentOf, shuffledDeck, dealFromDeck, canonicalDeck, sameCards } from './shuffle.js';
import { replayRecord } from './replay.js';

/**
 * @typedef {{key: string, params?: Record<string, any>, ok: boolean}} Check
 * @typedef {{checks: Check[], ok: boolean, deal: import('./shuffle.js').Deal|null}} Verdict
 */

/** The key the page keeps its dealt cards under. @param {string} commitment */
export const dealtKey = (commitment) => `burraco.dealt.${commitment}`;

/**
 * @param {any} rec the parsed hand record
 * @param {{you?: string|null, dealt?: string[]|null}} [seen] what this browser was dealt, if it kept it (same commitment)
 * @returns {Promise<Verdict>}
 */
export async function verifyRecord(rec, seen = {}) {
  /** @type {Check[]} */
  const checks = [];
  if (!rec || !rec.seed) return { checks: [{ key: 'v_no_seed', ok: false }], ok: false, deal: null };
  const players = rec.settings.players;
  // 1. The seed is the one committed to before the first card.
  let digest = '';
  try { digest = await commitmentOf(rec.seed); } catch { /* no WebCrypto */ }
  checks.push({ key: 'v_commitment', ok: !!rec.commitment && digest === rec.commitment });
  // 2. The shuffle is a whole deck, dealt as RULES.md section 3 says.
  const deck = shuffledDeck(rec.seed);
  const deal = dealFromDeck(deck, players, rec.dealer);
  const whole = sameCards(deck, canonicalDeck()) && deal.hands.every((h) => h.cards.length === 11)
    && deal.pozzetti.every((p) => p.length === 11) && deal.tallone.length === 108 - 22 - 11 * players - 1;
  checks.push({ key: 'v_deck', params: { card: deal.discard, n: players }, ok: whole });
  // 3 and 4. The record's moves fit that deal, and replaying them ends in the hands the server revealed.
  let movesFit = false;
  /** @type {boolean|null} */
  let finalMatches = null;
  try {
    const r = replayRecord(rec);
    movesFit = r.movesFit;
    finalMatches = r.finalMatches;
  } catch { /* a record this page cannot replay */ }
  checks.push({ key: 'v_moves', params: { n: rec.inputs.length }, ok: movesFit });
  checks.push({ key: 'v_replay', ok: finalMatches === true });
  // 5. What this browser saw dealt to it, when it kept it.
  if (seen.you && seen.dealt) {
    const mine = deal.hands.find((h) => h.seat === seen.you);
    checks.push({ key: 'v_my_hand', ok: !!mine && sameCards(mine.cards, seen.dealt) });
  }
  return { checks, ok: checks.every((c) => c.ok), deal };
}
