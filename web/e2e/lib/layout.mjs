// Layout checks shared by the tests: the page fits the window, nothing covers the melds, tap targets.
import assert from 'node:assert/strict';

/** The page scrolls neither sideways nor (`down`: false for a page that may) down; the felt may scroll inside itself. */
export async function assertFitsWindow(page, what, { down = true } = {}) {
  const m = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight, w: innerWidth, h: innerHeight }));
  assert.ok(m.sw <= m.w + 1, `${what}: ${m.sw} px wide in a ${m.w} px window`);
  if (down) assert.ok(m.sh <= m.h + 1, `${what}: ${m.sh} px tall in a ${m.h} px window`);
}

/** "Our melds", scrolled into view inside the felt, is what the window shows at its middle (the hand panel does not cover it). */
export async function assertOurMeldsVisible(page) {
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
  const boxes = await page.$$eval('[data-testid=hand-card]', (els) => els.map((e) => { const r = e.getBoundingClientRect(); return { l: r.left, r: r.right, t: r.top }; }));
  const w = await page.evaluate(() => innerWidth);
  for (const b of boxes) assert.ok(b.l >= -1 && b.r <= w + 1, `a hand card outside the window: ${b.l}-${b.r} of ${w}`);
  for (let i = 0; i + 1 < boxes.length; i++) {
    if (Math.abs(boxes[i + 1].t - boxes[i].t) > 20) continue; // the next row
    const visible = boxes[i + 1].l - boxes[i].l;
    assert.ok(visible >= min, `card ${i} shows only ${visible} px`);
  }
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
