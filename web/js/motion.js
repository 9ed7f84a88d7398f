// @ts-check
/**
 * Cards that travel. The page re-renders from the server's events, so a card that moves is a new
 * element in a new place: before a render the places of what can move are measured, after it the
 * new elements are animated from where their card was (FLIP: first, last, invert, play). A drawn
 * card comes from the tallone (or the pile), a discard goes from the hand (or the seat) to the pile,
 * melded cards go from the hand (or the seat) to the meld, and the hand's other cards slide to their
 * new places. Nothing moves for someone who asked for reduced motion.
 */

/** The id of a card's travel from one place to another (tests look for it with `element.getAnimations()`). */
export const FLIP_ID = 'card-travel';
/** The id of a hand card's slide to its new place in the hand. */
export const SLIDE_ID = 'card-slide';
const DURATION = 420;

/**
 * What the last events moved, for the next render.
 * @typedef {{kind: 'draw', codes: string[], from: 'tallone'|'pile'}
 *   | {kind: 'discard', seat: string, code: string, mine: boolean}
 *   | {kind: 'meld', seat: string, meld: number, codes: string[], mine: boolean}} Move
 */

/**
 * @typedef {{hand: Map<string, DOMRect>, order: string[], tallone: DOMRect|null, pile: DOMRect|null,
 *   seats: Map<string, DOMRect>}} Places
 */

export function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** @param {Element|null} el */
const rectOf = (el) => (el ? el.getBoundingClientRect() : null);

/** The places of what can move, as the screen shows them now. @param {ParentNode} root @returns {Places} */
export function measure(root) {
  /** @type {Map<string, DOMRect>} */
  const hand = new Map();
  /** @type {string[]} */
  const order = [];
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-testid=hand-card]'))) {
    const key = el.dataset.key ?? '';
    // Where the card sits, not where a lift (selected, hovered) or a running travel shows it.
    hand.set(key, restingRect(el));
    order.push(key);
  }
  /** @type {Map<string, DOMRect>} */
  const seats = new Map();
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-seat]'))) seats.set(el.dataset.seat ?? '', el.getBoundingClientRect());
  const me = root.querySelector('.my-area');
  if (me) seats.set('me', me.getBoundingClientRect());
  return {
    hand, order, seats,
    tallone: rectOf(root.querySelector('[data-testid=tallone] .stack .card:last-child') ?? root.querySelector('[data-testid=tallone]')),
    pile: rectOf(root.querySelector('[data-testid=pile] .card.top') ?? root.querySelector('[data-testid=pile] .pile-empty') ?? root.querySelector('[data-testid=pile]')),
  };
}

/** @param {HTMLElement} el */
function restingRect(el) {
  const r = el.getBoundingClientRect();
  const m = new DOMMatrixReadOnly(getComputedStyle(el).transform === 'none' ? undefined : getComputedStyle(el).transform);
  return new DOMRect(r.left - m.e, r.top - m.f, r.width, r.height);
}

/**
 * Animates `el` from `from` to where it is now: from a card's rect, or from the middle of a place (a
 * seat) at a little under its own size.
 * @param {HTMLElement} el @param {DOMRect|{place: DOMRect}} src @param {number} [delay] @param {string} [id]
 */
function travel(el, src, delay = 0, id = FLIP_ID) {
  const to = restingRect(el);
  const from = 'place' in src
    ? new DOMRect(src.place.left + src.place.width / 2 - to.width * .35, src.place.top + src.place.height / 2 - to.height * .35, to.width * .7, to.height * .7)
    : src;
  const dx = from.left - to.left, dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return false;
  const sx = to.width ? from.width / to.width : 1, sy = to.height ? from.height / to.height : 1;
  const a = el.animate([
    { transformOrigin: '0 0', transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, zIndex: 5 },
    { transformOrigin: '0 0', transform: 'none', zIndex: 5 },
  ], { duration: DURATION, delay, easing: 'cubic-bezier(.2, .7, .2, 1)', fill: 'backwards' });
  a.id = id;
  return true;
}

/**
 * After a render: the moved cards travel from their old places to their new ones.
 * @param {ParentNode} root @param {Places} before @param {Move[]} moves
 * @returns {number} how many cards were set moving
 */
export function play(root, before, moves) {
  if (reducedMotion()) return 0;
  let n = 0;
  const cards = /** @type {HTMLElement[]} */ ([...root.querySelectorAll('[data-testid=hand-card]')]);
  const keys = cards.map((el) => el.dataset.key ?? '');
  const arrived = cards.filter((el) => !before.hand.has(el.dataset.key ?? ''));
  // The keys that left the hand, by card code: where a discarded or melded card came from.
  /** @type {Map<string, DOMRect[]>} */
  const left = new Map();
  for (const [key, r] of before.hand) {
    if (keys.includes(key)) continue;
    const code = key.slice(0, key.lastIndexOf('#'));
    left.set(code, [...(left.get(code) ?? []), r]);
  }
  /** @param {string} code */
  const takeLeft = (code) => left.get(code)?.shift() ?? null;
  /** @param {string} seat @param {boolean} mine */
  const seatRect = (seat, mine) => {
    const r = (mine ? before.seats.get('me') : before.seats.get(seat)) ?? null;
    return r ? { place: r } : null;
  };

  for (const m of moves) {
    if (m.kind === 'draw') {
      const from = m.from === 'tallone' ? before.tallone : before.pile;
      if (!from) continue;
      arrived.filter((el) => m.codes.includes(el.dataset.code ?? '')).forEach((el, i) => { if (travel(el, from, Math.min(i, 10) * 30)) n++; });
    } else if (m.kind === 'discard') {
      const top = /** @type {HTMLElement|null} */ (root.querySelector('[data-testid=pile] .card.top'));
      const from = (m.mine ? takeLeft(m.code) : null) ?? seatRect(m.seat, m.mine);
      if (top && from && travel(top, from)) n++;
    } else if (m.kind === 'meld') {
      const meld = root.querySelector(`[data-testid=meld][data-meld-id="${m.meld}"]`);
      if (!meld) continue;
      const slots = /** @type {HTMLElement[]} */ ([...meld.querySelectorAll('.meld-slot .card')]);
      /** @type {Set<HTMLElement>} */
      const used = new Set();
      m.codes.forEach((code, i) => {
        // The newest copy of the code in the meld (attached cards are the ones just added).
        const el = [...slots].reverse().find((s) => !used.has(s) && s.dataset.code === code);
        if (!el) return;
        used.add(el);
        const from = (m.mine ? takeLeft(code) : null) ?? seatRect(m.seat, m.mine);
        if (from && travel(el, from, i * 40)) n++;
      });
    }
  }
  // The hand's other cards slide to their new places when the hand changed (a card came or went, or was moved).
  if (keys.join() !== before.order.join()) {
    for (const el of cards) {
      const was = before.hand.get(el.dataset.key ?? '');
      if (was && !el.getAnimations().some((a) => a.id === FLIP_ID) && travel(el, was, 0, SLIDE_ID)) n++;
    }
  }
  return n;
}
