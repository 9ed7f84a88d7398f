// @ts-check
/**
 * The server's text rule (protocol/src/text.rs, docs/PROTOCOL.md section 2), checked before a
 * name, a tournament's name or a chat line is sent: the same limits, the same characters, so the
 * page says why in the player's language instead of sending what the server refuses.
 */

/** The longest player name, tournament name and chat line, in characters (code points). */
export const MAX_NAME = 32;
export const MAX_TOURNAMENT_NAME = 80;
export const MAX_CHAT = 200;

/**
 * Characters a name may not hold besides controls and noncharacters (the server's `is_deceptive`):
 * every format character (zero-width, bidi marks, embeddings, overrides, isolates, the soft
 * hyphen, tags...), invisible default-ignorables, the Braille blank, private use.
 */
export const DECEPTIVE_RANGES = /** @type {const} */ ([
  [0x00AD, 0x00AD], [0x034F, 0x034F], [0x0600, 0x0605], [0x061C, 0x061C], [0x06DD, 0x06DD], [0x070F, 0x070F],
  [0x0890, 0x0891], [0x08E2, 0x08E2], [0x115F, 0x1160], [0x17B4, 0x17B5], [0x180B, 0x180F], [0x200B, 0x200F],
  [0x202A, 0x202E], [0x2060, 0x206F], [0x2800, 0x2800], [0x3164, 0x3164], [0xE000, 0xF8FF], [0xFDD0, 0xFDEF],
  [0xFE00, 0xFE0F], [0xFEFF, 0xFEFF], [0xFFA0, 0xFFA0], [0xFFF0, 0xFFFB], [0x110BD, 0x110BD], [0x110CD, 0x110CD],
  [0x13430, 0x1345F], [0x1BCA0, 0x1BCA3], [0x1D173, 0x1D17A], [0xE0000, 0xE0FFF], [0xF0000, 0x10FFFF],
]);

/** @param {number} c a code point */
export function isDeceptive(c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c & 0xFFFE) === 0xFFFE || DECEPTIVE_RANGES.some(([lo, hi]) => c >= lo && c <= hi);
}

/** The combining diacritical marks' blocks (a name may not start with one). @param {number} c */
export function isCombiningMark(c) {
  return (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) || (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F);
}

/** Rust's `char::is_whitespace` (Unicode White_Space), which the server splits on. */
const WS = '\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const WHITESPACE = new RegExp(`[${WS}]+`, 'u');
const EDGES = new RegExp(`^[${WS}]+|[${WS}]+$`, 'gu');

/**
 * A line checked and made as the server makes it: trimmed, every run of whitespace one space.
 * `error`: why it is refused: `empty`, `long` (more than `max` characters) or `chars` (a
 * control, format or invisible character, or a combining mark first).
 * @param {string} raw @param {number} max
 * @returns {{ok: true, text: string} | {ok: false, error: 'empty'|'long'|'chars'}}
 */
export function checkLine(raw, max) {
  const trimmed = String(raw).split(WHITESPACE).filter(Boolean);
  const text = trimmed.join(' ');
  const points = [...text].map((ch) => /** @type {number} */ (ch.codePointAt(0)));
  // Controls first: a tab or a newline inside is refused, not made a space (as the server does).
  const inner = String(raw).replace(EDGES, '');
  if ([...inner].some((ch) => { const c = /** @type {number} */ (ch.codePointAt(0)); return c < 0x20 || (c >= 0x7F && c <= 0x9F); })) return { ok: false, error: 'chars' };
  if (!points.length) return { ok: false, error: 'empty' };
  if (points.some(isDeceptive) || isCombiningMark(points[0])) return { ok: false, error: 'chars' };
  if (points.length > max) return { ok: false, error: 'long' };
  return { ok: true, text };
}
