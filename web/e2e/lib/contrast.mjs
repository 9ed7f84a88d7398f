// WCAG 2.1 AA contrast of every visible text on the page: 4.5:1, 3:1 for large text (24 px, or
// 18.66 px bold). The background is the first opaque one up the tree (semi-transparent ones
// blended over it); a background image or gradient is read as its colours' worst (each stop
// listed in the gradient), so a text over a gradient passes only over all of it.

/**
 * The texts of the page under AA contrast, each as {text, ratio, need, fg, bg, where}.
 * @param {import('playwright-core').Page} page
 */
export async function contrastFailures(page) {
  // What is fading in is measured once it is there (a discard's 0.3 s arrival, a meld's).
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => {}))));
  return page.evaluate(() => {
    const parse = (c) => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const p = m[1].split(/[,\s/]+/).filter(Boolean).map(Number);
      return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
    };
    const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
    const lum = (c) => {
      const ch = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    /** The backgrounds an element's text may sit on (several for a gradient). */
    const backgrounds = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        const img = cs.backgroundImage;
        if (img && img !== 'none') {
          const stops = [...img.matchAll(/rgba?\([^)]+\)/g)].map((m) => parse(m[0])).filter(Boolean);
          if (stops.length) { layers.push(stops); if (stops.every((s) => s.a === 1)) break; continue; }
        }
        const bg = parse(cs.backgroundColor);
        if (bg && bg.a > 0) { layers.push([bg]); if (bg.a === 1) break; }
      }
      let result = [{ r: 255, g: 255, b: 255, a: 1 }];
      for (const layer of layers.reverse()) result = layer.flatMap((top) => result.map((under) => over(top, under)));
      return result;
    };
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) return false;
      for (let e = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.visibility === 'hidden' || cs.display === 'none' || Number(cs.opacity) === 0) return false;
        if (e.hasAttribute('hidden') || e.getAttribute('aria-hidden') === 'true') return false;
      }
      return true;
    };
    const failures = [];
    const seen = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      const el = n.parentElement;
      if (!text || !el || seen.has(el) || !visible(el)) continue;
      seen.add(el);
      const tag = el.tagName;
      if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'OPTION') continue;
      const cs = getComputedStyle(el);
      // A disabled control is exempt (WCAG 1.4.3: inactive user interface components).
      if (el.closest('button[disabled], input[disabled], select[disabled], [aria-disabled="true"]')) continue;
      let fg = parse(cs.color);
      if (!fg) continue;
      // An element's own opacity (and its ancestors') fades its text into what is behind it.
      let alpha = 1;
      for (let e = el; e; e = e.parentElement) alpha *= Number(getComputedStyle(e).opacity);
      const size = parseFloat(cs.fontSize);
      const bold = Number(cs.fontWeight) >= 700;
      const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      let worst = Infinity, worstBg = null;
      for (const bg of backgrounds(el)) {
        const shown = over({ ...fg, a: fg.a * alpha }, bg);
        const r = ratio(shown, bg);
        if (r < worst) { worst = r; worstBg = bg; }
      }
      if (worst + 0.005 < need) {
        const tid = el.closest('[data-testid]')?.getAttribute('data-testid') ?? '';
        failures.push({ text: text.slice(0, 60), ratio: Math.round(worst * 100) / 100, need, fg: cs.color,
          bg: `rgb(${Math.round(worstBg.r)}, ${Math.round(worstBg.g)}, ${Math.round(worstBg.b)})`, where: `${tag.toLowerCase()}.${[...el.classList].join('.')} in [${tid}]` });
      }
    }
    return failures;
  });
}

/** Fails with the list when any text of the page is under AA contrast. @param {string} screen what is on screen */
export async function assertContrast(page, screen) {
  const failures = await contrastFailures(page);
  if (failures.length) {
    throw new Error(`${screen}: ${failures.length} text(s) under WCAG AA contrast:\n${failures.map((f) => `  ${f.ratio}:1 < ${f.need}:1 "${f.text}" ${f.fg} on ${f.bg} (${f.where})`).join('\n')}`);
  }
}
