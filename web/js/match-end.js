// @ts-check
/**
 * The match's end as the dialog tells it, without the DOM: the server's outcome, never the
 * page's own comparison of the totals. The server decides who won by the VP (a 10-10 is a draw
 * whatever the totals, RULES.md section 11) and says it in `match_ended.winner` (`null`: a draw),
 * the same outcome the player page, the season and the rating count.
 */
import { t } from './i18n.js';

/** @typedef {'won'|'lost'|'draw'} Outcome */

/**
 * @param {{winner?: string|null}} ended the `match_ended` message
 * @param {string|null} side the viewer's side label (`NS`/`EW`, head to head `S`/`N`), `null` for a spectator
 * @returns {{outcome: Outcome|null, text: string}} `outcome` is the viewer's (`null` for a spectator of a match someone won)
 */
export function matchVerdict(ended, side) {
  const winner = ended.winner ?? null;
  if (!winner) return { outcome: side ? 'draw' : null, text: t('draw_result') };
  if (!side) return { outcome: null, text: t('winner', { side: winner }) };
  return winner === side ? { outcome: 'won', text: t('you_won') } : { outcome: 'lost', text: t('you_lost') };
}
