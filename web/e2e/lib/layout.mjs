// Layout checks shared by the tests: the page fits the window, nothing covers the melds, tap targets.
import assert from 'node:assert/strict';

/**
 * The page scrolls neither sideways nor (`down`: false for a page that may) down. At a table, also
 * nothing inside it scrolls (not the felt, not the hand, no other container of the table view: the
 * log and chat lists, which keep every entry, excepted) and everything one plays with is inside the
 * window: every seat, both sides' melds and each meld, the tallone, the whole discard pile, the hand
 * and each of its cards.
 */
export async function assertFitsWindow(page, what, { down = true } = {}) {
  await cardsAtRest(page);
  const m = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight, w: innerWidth, h: innerHeight }));
  assert.ok(m.sw <= m.w + 1, `${what}: ${m.sw} px wide in a ${m.w} px window`);
  if (down) assert.ok(m.sh <= m.h + 1, `${what}: ${m.sh} px tall in a ${m.h} px window`);
  if (!down) return;
  const problems = await page.evaluate(() => {
    const view = document.querySelector('.table-view');
    if (!view || !document.querySelector('[data-testid=hand-card], [data-testid=melds-ours]')) return [];
    const out = [];
    const name = (/** @type {Element} */ e) => e.getAttribute('data-testid') || `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`;
    for (const e of [document.scrollingElement, document.body, ...view.querySelectorAll('*')]) {
      if (!e || e.closest('.log, .chat')) continue;
      const cs = getComputedStyle(e);
      const scrolls = (o) => o === 'auto' || o === 'scroll';
      if (e.getClientRects().length === 0) continue;
      if (scrolls(cs.overflowY) && e.scrollHeight > e.clientHeight + 1) out.push(`${name(e)} scrolls down (${e.scrollHeight} in ${e.clientHeight} px)`);
      if (scrolls(cs.overflowX) && e.scrollWidth > e.clientWidth + 1) out.push(`${name(e)} scrolls sideways (${e.scrollWidth} in ${e.clientWidth} px)`);
    }
    const W = innerWidth, H = innerHeight;
    const must = ['[data-testid^=seat-]', '[data-testid=melds-ours]', '[data-testid=melds-their]', '[data-testid=meld]', '[data-testid=tallone]',
      '[data-testid=pile]', '[data-testid=pile] .card', '[data-testid=hand]', '[data-testid=hand-card]'];
    for (const sel of must) for (const e of document.querySelectorAll(sel)) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) { out.push(`${sel} not shown`); continue; }
      if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) out.push(`${sel} outside the window: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} of ${W}x${H}`);
    }
    return out;
  });
  assert.deepEqual(problems, [], `${what}: the table fits the window`);
}

/** Resolves when no card is travelling or sliding any more (motion.js): the layout is measured where the cards rest. */
export async function cardsAtRest(page) {
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.id === 'card-travel' || a.id === 'card-slide')
    .map((a) => a.finished.catch(() => {}))));
}

/** The table's state in numbers: melds per side and cards in hand (for checks that need a mid-hand table). */
export async function tableCounts(page) {
  return page.evaluate(() => ({
    ours: document.querySelectorAll('[data-testid=melds-ours] [data-testid=meld]').length,
    their: document.querySelectorAll('[data-testid=melds-their] [data-testid=meld]').length,
    hand: document.querySelectorAll('[data-testid=hand-card]').length,
  }));
}

/** "Our melds", scrolled into view inside the felt, is what the window shows at its middle (the hand panel does not cover it). */
export async function assertOurMeldsVisible(page) {
  await cardsAtRest(page);
  const ok = await page.evaluate(() => {
    const box = document.querySelector('[data-testid=melds-ours]');
    if (!box) return 'no melds-ours';
    box.scrollIntoView({ block: 'nearest' });
    const r = box.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 12));
    if (!hit || !box.contains(hit)) return `covered by ${hit && (hit.className || hit.tagName)}`;
    const hand = document.querySelector('.my-area');
    if (hand) {
      const h = hand.getBoundingClientRect();
      if (r.bottom > h.top + 1 && r.top < h.bottom) return `overlaps the hand panel: melds ${r.top}-${r.bottom}, hand ${h.top}-${h.bottom}`;
    }
    return 'ok';
  });
  assert.equal(ok, 'ok', 'our melds visible');
}

/** Every hand card inside the window, and each one's visible (tappable) part at least `min` px wide. */
export async function assertHandTappable(page, min = 36) {
  await cardsAtRest(page);
  const boxes = await page.$$eval('[data-testid=hand-card]', (els) => els.map((e) => { const r = e.getBoundingClientRect(); return { l: r.left, r: r.right, t: r.top }; }));
  const w = await page.evaluate(() => innerWidth);
  for (const b of boxes) assert.ok(b.l >= -1 && b.r <= w + 1, `a hand card outside the window: ${b.l}-${b.r} of ${w}`);
  for (let i = 0; i + 1 < boxes.length; i++) {
    if (Math.abs(boxes[i + 1].t - boxes[i].t) > 20) continue; // the next row
    const visible = boxes[i + 1].l - boxes[i].l;
    assert.ok(visible >= min, `card ${i} shows only ${visible} px`);
  }
  // Tall enough to tap too: the cards, and the action buttons beside them.
  const short = await page.$$eval('[data-testid=hand-card], .my-area .actions .btn', (els) => els.map((e) => e.getBoundingClientRect())
    .filter((r) => r.height > 0 && r.height < 40).length);
  assert.equal(short, 0, `${short} hand cards or action buttons under 40 px tall`);
  const hasOverflow = await page.$eval('[data-testid=hand]', (e) => e.scrollWidth > e.clientWidth + 1);
  assert.ok(!hasOverflow, 'the hand scrolls sideways');
}

/** The seat after mine (clockwise N, E, S, W) sits on my left. */
export async function assertClockwise(page) {
  const you = await page.evaluate(() => /** @type {any} */ (window).__burraco.table.you);
  const order = ['N', 'E', 'S', 'W'];
  const next = order[(order.indexOf(you) + 1) % 4];
  const prev = order[(order.indexOf(you) + 3) % 4];
  const left = await page.$eval(`[data-testid=seat-${next}]`, (e) => e.getBoundingClientRect().left);
  const right = await page.$eval(`[data-testid=seat-${prev}]`, (e) => e.getBoundingClientRect().left);
  assert.ok(left < right, `the next player (${next}) sits left of the previous one (${prev})`);
}
