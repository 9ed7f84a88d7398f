// @ts-check
/**
 * Levels beside names and the expected result of a rated match (issue 21; docs/RATINGS.md,
 * "Levels" and "The expected VP before a match"), as markup without the DOM. The levels come from
 * the server: the lobby's `lobby` reply and a table's `table_levels` (PROTOCOL.md 1.5, each
 * `[{seat, level}]`, only established ratings: none for a provisional one or a guest); the
 * expected VP from `GET /api/tables/{id}/expected`. The level names are the leaderboards' (one
 * list, English and Italian).
 */
import { escapeHtml } from './dom.js';
import { getLang } from './i18n.js';
import { levelName } from './leaderboard-view.js';

const words = {
  en: { level: 'Level {level}', expected: 'Expected {vp} VP', expected_title: 'Expected result of this rated match, from the ratings (of 20 VP)' },
  it: { level: 'Livello {level}', expected: 'Previsti {vp} PV', expected_title: 'Risultato previsto di questa partita valida, dai punteggi (su 20 PV)' },
};

export const LEVEL_DICTIONARIES = words;

/** @param {keyof typeof words.en} key @param {Record<string, string>} [params] */
function tw(key, params = {}) {
  const s = (getLang() === 'it' ? words.it : words.en)[key];
  return s.replace(/\{(\w+)\}/g, (_, k) => params[k] ?? '');
}

/**
 * A seat's level from the server's `[{seat, level}]` list, or null.
 * @param {{seat: string, level: string}[]|null|undefined} levels @param {string} seat
 */
export function levelOf(levels, seat) {
  return (levels ?? []).find((l) => l.seat === seat)?.level ?? null;
}

/**
 * The badge beside a name: the level's name in the page's language (its visible label), "Level
 * …" for a screen reader and as a tooltip; nothing without a level (provisional, guest, bot).
 * @param {string|null|undefined} level the server's code (`expert`)
 */
export function levelBadge(level) {
  if (!level) return '';
  const name = levelName(level);
  const full = tw('level', { level: name });
  return `<span class="level-badge" data-testid="level-badge" data-level="${escapeHtml(level)}" title="${escapeHtml(full)}"><span class="sr-only">${escapeHtml(full.slice(0, full.length - name.length))}</span>${escapeHtml(name)}</span>`;
}

/**
 * A seat's expected VP from `GET /api/tables/{id}/expected`'s `expected` list, or null.
 * @param {{seat: string, vp: number}[]|null|undefined} expected @param {string} seat
 */
export function expectedOf(expected, seat) {
  const vp = (expected ?? []).find((e) => e.seat === seat)?.vp;
  return typeof vp === 'number' ? vp : null;
}

/**
 * "Expected 12.4 VP" beside a seat in the ready check of a rated table; nothing without a forecast.
 * @param {number|null} vp
 */
export function expectedHtml(vp) {
  if (vp == null) return '';
  const text = vp.toLocaleString(getLang() === 'it' ? 'it-IT' : 'en-GB', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `<span class="expected-vp" data-testid="expected-vp" data-vp="${vp}" title="${escapeHtml(tw('expected_title'))}">${escapeHtml(tw('expected', { vp: text }))}</span>`;
}
