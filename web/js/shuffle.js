// @ts-check
/**
 * The deal of RULES.md section 3, recomputed in the browser ("verify the shuffle"):
 * ChaCha20 keyed with the 32-byte seed (nonce 0, counter 0), read as little-endian u32 words;
 * Fisher-Yates from index 107 down to 1 with rejection sampling; then the deal itself.
 * Works in browsers and in Node (node:test), no dependencies.
 */

export const SUITS = ['H', 'D', 'C', 'S'];
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
export const DECK_SIZE = 108;
export const HAND_SIZE = 11;

/** The canonical deck, index 0..107: twice H D C S (each A..K), then four jokers. */
export function canonicalDeck() {
  /** @type {string[]} */
  const deck = [];
  for (let copy = 0; copy < 2; copy++) {
    for (const s of SUITS) for (const r of RANKS) deck.push(r + s);
  }
  for (let j = 0; j < 4; j++) deck.push('JK');
  return deck;
}

/** @param {string} hex @returns {Uint8Array} */
export function hexToBytes(hex) {
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2) throw new Error('not hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {Uint8Array} bytes */
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {number} x @param {number} n */
const rotl = (x, n) => ((x << n) | (x >>> (32 - n))) >>> 0;

/**
 * A ChaCha20 keystream as u32 words (20 rounds, 64-bit block counter from 0, 64-bit nonce 0:
 * rand_chacha's `ChaCha20Rng::from_seed`).
 */
export class ChaCha20 {
  /** @param {Uint8Array} key 32 bytes */
  constructor(key) {
    if (key.length !== 32) throw new Error('a ChaCha20 key is 32 bytes');
    const view = new DataView(key.buffer, key.byteOffset, 32);
    /** @type {Uint32Array} */
    this.state = new Uint32Array(16);
    this.state.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
    for (let i = 0; i < 8; i++) this.state[4 + i] = view.getUint32(4 * i, true);
    // words 12,13: block counter (low, high); 14,15: nonce = 0
    this.block = new Uint32Array(16);
    this.index = 16;
  }

  refill() {
    const s = this.state;
    const x = Uint32Array.from(s);
    /** @param {number} a @param {number} b @param {number} c @param {number} d */
    const qr = (a, b, c, d) => {
      x[a] = (x[a] + x[b]) >>> 0; x[d] = rotl(x[d] ^ x[a], 16);
      x[c] = (x[c] + x[d]) >>> 0; x[b] = rotl(x[b] ^ x[c], 12);
      x[a] = (x[a] + x[b]) >>> 0; x[d] = rotl(x[d] ^ x[a], 8);
      x[c] = (x[c] + x[d]) >>> 0; x[b] = rotl(x[b] ^ x[c], 7);
    };
    for (let round = 0; round < 10; round++) {
      qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
      qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) this.block[i] = (x[i] + s[i]) >>> 0;
    s[12] = (s[12] + 1) >>> 0;
    if (s[12] === 0) s[13] = (s[13] + 1) >>> 0;
    this.index = 0;
  }

  /** The next little-endian u32 word of the keystream. */
  nextU32() {
    if (this.index >= 16) this.refill();
    return this.block[this.index++];
  }
}

/**
 * The shuffled deck for a seed, index 0 = top (RULES.md section 3, step 2).
 * @param {Uint8Array|string} seed 32 bytes or 64 hex digits
 */
export function shuffledDeck(seed) {
  const key = typeof seed === 'string' ? hexToBytes(seed) : seed;
  const rng = new ChaCha20(key);
  const deck = canonicalDeck();
  const TWO32 = 2 ** 32;
  for (let i = DECK_SIZE - 1; i >= 1; i--) {
    const n = i + 1;
    const zone = TWO32 - (TWO32 % n);
    let x = rng.nextU32();
    while (x >= zone) x = rng.nextU32();
    const j = x % n;
    const t = deck[i]; deck[i] = deck[j]; deck[j] = t;
  }
  return deck;
}

/** Seats in play, clockwise. @param {number} players */
export function seatsInPlay(players) {
  return players === 2 ? ['S', 'N'] : ['N', 'E', 'S', 'W'];
}

/** The next seat clockwise. @param {string} seat @param {number} players */
export function nextSeat(seat, players) {
  const seats = seatsInPlay(players);
  return seats[(seats.indexOf(seat) + 1) % seats.length];
}

/**
 * @typedef {{hands: {seat: string, cards: string[]}[], pozzetti: string[][], discard: string, tallone: string[]}} Deal
 */

/**
 * Deals a 108-card deck (steps 3-5): hands one card at a time from the dealer's left,
 * pozzetti alternately from the bottom, the up card, the tallone top first.
 * @param {string[]} deck @param {number} players @param {string} dealer @returns {Deal}
 */
export function dealFromDeck(deck, players, dealer) {
  const n = players;
  /** @type {{seat: string, cards: string[]}[]} */
  const hands = [];
  let seat = dealer;
  for (let i = 0; i < n; i++) {
    seat = nextSeat(seat, players);
    hands.push({ seat, cards: [] });
  }
  for (let k = 0; k < n * HAND_SIZE; k++) hands[k % n].cards.push(deck[k]);
  /** @type {string[][]} */
  const pozzetti = [[], []];
  for (let k = 0; k < 2 * HAND_SIZE; k++) pozzetti[k % 2].push(deck[DECK_SIZE - 1 - k]);
  const top = n * HAND_SIZE;
  return { hands, pozzetti, discard: deck[top], tallone: deck.slice(top + 1, DECK_SIZE - 2 * HAND_SIZE) };
}

/** @param {string} seedHex @param {number} players @param {string} dealer */
export function dealFromSeed(seedHex, players, dealer) {
  return dealFromDeck(shuffledDeck(seedHex), players, dealer);
}

/**
 * SHA-256 of the seed's 32 bytes via WebCrypto (browser `crypto.subtle`, or Node's webcrypto).
 * @param {string} seedHex @returns {Promise<string>}
 */
export async function commitmentOf(seedHex) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) throw new Error('WebCrypto is not available (the page must be served over http://localhost or https)');
  const bytes = hexToBytes(seedHex);
  const digest = await subtle.digest('SHA-256', /** @type {ArrayBuffer} */ (bytes.buffer));
  return bytesToHex(new Uint8Array(digest));
}

/** Multiset equality of two card lists. @param {string[]} a @param {string[]} b */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}
