// @ts-check
/** Card codes (`7H`, `10S`, `JK`), values, sorting, meld checks used for hints, and card markup. */

export const SUIT_SYMBOL = /** @type {Record<string,string>} */ ({ H: '♥', D: '♦', C: '♣', S: '♠' });
export const SUIT_ORDER = ['H', 'D', 'C', 'S'];
const RANK_NUM = /** @type {Record<string,number>} */ ({ A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, J: 11, Q: 12, K: 13 });
export const RANK_OF_POS = ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];

/** @typedef {{code: string, rank: string, suit: string, joker: boolean, num: number}} Card */

/** @param {string} code @returns {Card} */
export function parse(code) {
  if (code === 'JK') return { code, rank: 'JK', suit: '', joker: true, num: 0 };
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  return { code, rank, suit, joker: false, num: RANK_NUM[rank] ?? 0 };
}

/** RULES.md 2: joker 30, 2 20, A 15, K..8 10, 7..3 5. @param {string} code */
export function points(code) {
  const c = parse(code);
  if (c.joker) return 30;
  if (c.rank === '2') return 20;
  if (c.rank === 'A') return 15;
  return c.num >= 8 ? 10 : 5;
}

/** A joker or any 2 (a 2 may still be a sequence's natural 2). @param {string} code */
export function isWildish(code) {
  return code === 'JK' || code.startsWith('2');
}

/** Rank strength for sorting by rank, high first as RULES.md 2 (joker, 2, A, K ... 3). @param {Card} c */
function rankStrength(c) {
  if (c.joker) return 14;
  if (c.rank === '2') return 13;
  if (c.rank === 'A') return 12;
  return c.num - 2;
}

/**
 * Sorts for display. `suit`: by suit (H D C S), A..K inside, wilds last. `rank`: by rank (A, K..3), then 2s and jokers.
 * @param {string[]} codes @param {'suit'|'rank'} mode
 */
export function sortCards(codes, mode) {
  const key = (/** @type {string} */ code) => {
    const c = parse(code);
    const wild = c.joker ? 2 : c.rank === '2' ? 1 : 0;
    const suit = c.joker ? 4 : SUIT_ORDER.indexOf(c.suit);
    if (mode === 'suit') return wild * 1000 + suit * 100 + (c.rank === 'A' ? 1 : c.num);
    return wild * 1000 + (20 - rankStrength(c)) * 10 + suit;
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

/** "Secondo norma" key: higher = discarded first by the clock. @param {string} code */
export function normaKey(code) {
  const c = parse(code);
  const suitStrength = c.joker ? 0 : 3 - SUIT_ORDER.indexOf(c.suit);
  // Value, then suit, then rank (RULES.md 2, the FITAB definition): of K♠ and Q♥, Q♥ first.
  return points(code) * 64 + suitStrength * 16 + rankStrength(c);
}

/** Text label: "7♥", "10♠", "Joker". @param {string} code */
export function label(code) {
  const c = parse(code);
  if (c.joker) return 'Joker';
  return c.rank + SUIT_SYMBOL[c.suit];
}

/** @param {string} code */
export function isRed(code) {
  const c = parse(code);
  return c.suit === 'H' || c.suit === 'D';
}

// ----- meld checks (hints only: the server is authoritative) -----------------------------------

/**
 * Whether `codes` form a valid combination (RULES.md 5): 3-9 cards of one rank (A or 3..K),
 * at most one wild (2s always wild here), at least two naturals.
 * @param {string[]} codes
 */
export function isCombination(codes) {
  if (codes.length < 3 || codes.length > 9) return false;
  const naturals = codes.filter((c) => !isWildish(c));
  const wilds = codes.length - naturals.length;
  if (wilds > 1 || naturals.length < 2) return false;
  const rank = parse(naturals[0]).rank;
  return naturals.every((c) => parse(c).rank === rank);
}

/**
 * Valid wild positions (and the arrangement) for a sequence made of `codes`, or null when they
 * cannot form one. Returns every arrangement's wild position (empty array = no free wild).
 * @param {string[]} codes
 * @returns {{positions: number[], ok: boolean}}
 */
export function sequenceOptions(codes) {
  const none = { positions: [], ok: false };
  if (codes.length < 3 || codes.length > 14) return none;
  const suited = codes.filter((c) => c !== 'JK');
  // The suit: of the non-2 cards (a 2 of another suit can only be the wild).
  const non2 = suited.filter((c) => !c.startsWith('2'));
  if (non2.length === 0) return none;
  const suit = parse(non2[0]).suit;
  if (!non2.every((c) => parse(c).suit === suit)) return none;
  const jokers = codes.length - suited.length;
  const ownTwos = suited.filter((c) => c === '2' + suit).length;
  const otherTwos = suited.filter((c) => c.startsWith('2') && c !== '2' + suit).length;
  const aces = non2.filter((c) => parse(c).rank === 'A').length;
  if (aces > 1) return none;
  const fixed = non2.filter((c) => parse(c).rank !== 'A').map((c) => parse(c).num);
  /** @type {Set<number>} */
  const positions = new Set();
  let ok = false;
  // Choices: the ace low or high; each own-suit 2 natural (at most one) or wild.
  for (const acePos of aces ? [1, 14] : [0]) {
    for (let natTwos = 0; natTwos <= Math.min(1, ownTwos); natTwos++) {
      const wilds = jokers + otherTwos + (ownTwos - natTwos);
      if (wilds > 1) continue;
      const nat = [...fixed];
      if (acePos) nat.push(acePos);
      if (natTwos) nat.push(2);
      if (nat.length < 2 || nat.length > 13) continue;
      if (new Set(nat).size !== nat.length) continue;
      const lo = Math.min(...nat), hi = Math.max(...nat);
      const gaps = hi - lo + 1 - nat.length;
      if (gaps > wilds) continue;
      if (wilds === 0) { ok = true; continue; }
      if (gaps === 1) {
        for (let p = lo; p <= hi; p++) if (!nat.includes(p)) positions.add(p);
        ok = true;
      } else {
        if (lo > 1) { positions.add(lo - 1); ok = true; }
        if (hi < 14) { positions.add(hi + 1); ok = true; }
      }
    }
  }
  return { positions: [...positions].sort((a, b) => a - b), ok };
}

/** @param {string[]} codes */
export function isMeld(codes) {
  return isCombination(codes) || sequenceOptions(codes).ok;
}

/**
 * Which hand cards may be played now, as a hint: a card that can join one of the side's melds,
 * or that forms a valid three-card meld with two other cards of the hand.
 * @param {string[]} hand @param {{side: string, kind: string, cards: string[]}[]} ownMelds
 * @returns {Set<number>} indexes into `hand`
 */
export function playableIndexes(hand, ownMelds) {
  /** @type {Set<number>} */
  const out = new Set();
  const n = hand.length;
  for (let i = 0; i < n; i++) {
    if (ownMelds.some((m) => m.cards.length < 14 && isMeld([...m.cards, hand[i]]))) out.add(i);
  }
  // A wild with almost any two cards makes a meld: naturals light up only for a meld without a
  // wild; a wild lights up when it completes some meld.
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (out.has(i) && out.has(j)) continue;
      for (let k = j + 1; k < n; k++) {
        const trio = [hand[i], hand[j], hand[k]];
        if (!isMeld(trio)) continue;
        for (const x of [i, j, k]) if (!trio.some(isWildish) || isWildish(hand[x])) out.add(x);
      }
    }
  }
  // Keep at least one card to discard: a hint, not a rule, so nothing more here.
  return out;
}

/**
 * Lays out a sequence for display (used by the replay, which has no server meld to show):
 * positions lowest first with the wild where it stands.
 * @param {string[]} codes @param {number|undefined|null} wildAt
 * @returns {{start: number|null, cards: string[], wild_at: number|null, kind: string, wild: string|null}}
 */
export function arrangeMeld(codes, wildAt) {
  if (isCombination(codes) || !sequenceOptions(codes).ok) {
    const wild = codes.find((c) => isWildish(c)) ?? null;
    const naturals = codes.filter((c) => !isWildish(c));
    return { start: null, cards: wild ? [...naturals, wild] : naturals, wild_at: null, kind: 'combination', wild };
  }
  const non2 = codes.filter((c) => c !== 'JK' && !c.startsWith('2'));
  const suit = parse(non2[0]).suit;
  const hasAce = non2.some((c) => parse(c).rank === 'A');
  const others = non2.filter((c) => parse(c).rank !== 'A').map((c) => parse(c).num);
  const aceHigh = hasAce && others.length > 0 && Math.max(...others) >= 12 && !codes.includes('2' + suit);
  /** @type {Map<number,string>} */
  const at = new Map();
  for (const c of non2) at.set(parse(c).rank === 'A' ? (aceHigh ? 14 : 1) : parse(c).num, c);
  const wilds = codes.filter((c) => c === 'JK' || c.startsWith('2'));
  // A 2 of the suit is natural if position 2 is free and it fits.
  const own2 = wilds.indexOf('2' + suit);
  if (own2 >= 0 && !at.has(2) && (wilds.length > 1 || at.has(3) || at.has(1))) {
    at.set(2, wilds[own2]);
    wilds.splice(own2, 1);
  }
  const nat = [...at.keys()];
  let lo = Math.min(...nat), hi = Math.max(...nat);
  let wildPos = null;
  if (wilds.length) {
    const gap = [];
    for (let p = lo; p <= hi; p++) if (!at.has(p)) gap.push(p);
    const fits = (/** @type {number|null|undefined} */ p) =>
      p != null && p >= 1 && p <= 14 && !at.has(p) && (gap.length === 0 ? p === lo - 1 || p === hi + 1 : gap.includes(p));
    wildPos = fits(wildAt) ? /** @type {number} */ (wildAt) : gap[0] ?? (lo > 1 ? lo - 1 : hi + 1);
    at.set(wildPos, wilds[0]);
    lo = Math.min(lo, wildPos); hi = Math.max(hi, wildPos);
  }
  const cards = [];
  for (let p = lo; p <= hi; p++) { const c = at.get(p); if (c) cards.push(c); }
  return { start: lo, cards, wild_at: wildPos, kind: 'sequence', wild: null };
}

// ----- markup ------------------------------------------------------------------------------------

/** @param {string} s */
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);
}

/**
 * A face-up card's inner markup (corner index + big suit). The caller wraps it.
 * @param {string} code
 */
export function cardFace(code) {
  const c = parse(code);
  if (c.joker) {
    return `<span class="corner"><span class="r">J</span><span class="s">★</span></span><span class="pip joker"><span class="jk-star">★</span><span class="jk-word">JOKER</span></span><span class="corner br"><span class="r">J</span><span class="s">★</span></span>`;
  }
  const sym = SUIT_SYMBOL[c.suit];
  return `<span class="corner"><span class="r">${c.rank}</span><span class="s">${sym}</span></span><span class="pip">${sym}</span><span class="corner br"><span class="r">${c.rank}</span><span class="s">${sym}</span></span>`;
}

/**
 * A static card (pile, melds, replay).
 * @param {string} code @param {{cls?: string, title?: string, attrs?: string}} [opts]
 */
export function cardHtml(code, opts = {}) {
  const c = parse(code);
  const color = c.joker ? 'joker' : isRed(code) ? 'red' : 'black';
  return `<span class="card ${color} ${opts.cls ?? ''}" data-code="${esc(code)}" title="${esc(opts.title ?? label(code))}" ${opts.attrs ?? ''}>${cardFace(code)}</span>`;
}

/** A face-down card. @param {string} [cls] */
export function backHtml(cls = '') {
  return `<span class="card back ${cls}" aria-hidden="true"></span>`;
}
