// @ts-check
/** The words of the season page (season.html), in English and Italian; the language is the game's (i18n.js). */
import { getLang } from './i18n.js';

const en = {
  page_title: 'Season',
  back_to_game: '← Back to the game',
  leaderboards_link: 'Leaderboards',
  season_label: 'Season',
  season_name: 'Q{quarter} {year}',
  season_current: 'Q{quarter} {year} (current)',
  season_dates: '{start} – {end}',
  cat_two: 'Head to head',
  cat_four: 'Four players',
  cat_pair: 'Pairs',
  bots: 'Bots',
  col_rank: '#',
  col_name: 'Player',
  col_pair: 'Pair',
  col_points: 'Points',
  col_matches: 'Matches',
  note: 'Rated matches: 3 points a win, 1 a draw, 0 a loss. Tournaments: 10, 6, 4 and 2 points for the first four places, 1 for every other finisher. A new ladder every quarter.',
  empty: 'No points in this season yet.',
  more: 'More',
  err_seasons_unavailable: 'Seasons are not available on this server right now.',
  err_unknown_season: 'There is no such season.',
  err_network: 'The server cannot be reached.',
  err_generic: 'Something went wrong ({code}).',
};

/** @type {Record<keyof typeof en, string>} */
const it = {
  page_title: 'Stagione',
  back_to_game: '← Torna al gioco',
  leaderboards_link: 'Classifiche',
  season_label: 'Stagione',
  season_name: '{quarter}º trimestre {year}',
  season_current: '{quarter}º trimestre {year} (in corso)',
  season_dates: '{start} – {end}',
  cat_two: 'Testa a testa',
  cat_four: 'Quattro giocatori',
  cat_pair: 'Coppie',
  bots: 'Bot',
  col_rank: '#',
  col_name: 'Giocatore',
  col_pair: 'Coppia',
  col_points: 'Punti',
  col_matches: 'Partite',
  note: 'Partite valide: 3 punti la vittoria, 1 il pareggio, 0 la sconfitta. Tornei: 10, 6, 4 e 2 punti ai primi quattro posti, 1 a ogni altro classificato. Una nuova classifica ogni trimestre.',
  empty: 'Nessun punto ancora in questa stagione.',
  more: 'Altri',
  err_seasons_unavailable: 'Le stagioni non sono disponibili su questo server in questo momento.',
  err_unknown_season: 'Questa stagione non esiste.',
  err_network: 'Il server non è raggiungibile.',
  err_generic: 'Qualcosa è andato storto ({code}).',
};

export const SEASON_DICTIONARIES = { en, it };

/** @typedef {keyof typeof en} SeasonKey */

/**
 * `key` in the page's language, its {params} filled in.
 * @param {SeasonKey} key
 * @param {Record<string, string|number>} [params]
 */
export function ts(key, params) {
  let s = SEASON_DICTIONARIES[getLang()][key] ?? en[key] ?? key;
  if (params) s = s.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
  return s;
}

/** @param {string} key @returns {key is SeasonKey} */
export function hasSeasonKey(key) { return key in en; }
