// @ts-check
/** Small DOM and text helpers shared by the controller and the views (no imports: breaks the app.js <-> view-*.js cycle). */

/** @param {string} s */
export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);
}

/**
 * The HTTP base of the server's /api: the page's own origin, or the one of a `?server=ws://...` override.
 * @returns {string[]} candidate bases, the most likely first
 */
export function apiBases() {
  const out = [''];
  try {
    const override = new URLSearchParams(location.search).get('server');
    if (override) {
      const u = new URL(override);
      out.push(`${u.protocol === 'wss:' ? 'https:' : 'http:'}//${u.host}`);
    }
  } catch { /* ignore */ }
  return out;
}

/** sessionStorage read/write that never throws. */
export const session = {
  /** @param {string} k */
  get(k) { try { const v = sessionStorage.getItem(k); return v == null ? null : JSON.parse(v); } catch { return null; } },
  /** @param {string} k @param {any} v */
  set(k, v) { try { sessionStorage.setItem(k, JSON.stringify(v)); } catch { /* full or blocked */ } },
};

/** How long a player waits alone at a table before the page offers server bots. */
export const BOTS_OFFER_MS = 4000;
