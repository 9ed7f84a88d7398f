// @ts-check
/** The words of the leaderboards page (leaderboard.html), in English and Italian; the language is the game's (i18n.js). */
import { getLang } from './i18n.js';

const en = {
  page_title: 'Leaderboards',
  back_to_game: '← Back to the game',
  cat_two: 'Head to head',
  cat_four: 'Four players',
  cat_pair: 'Pairs',
  this_week: 'This week',
  bots: 'Bots',
  season_link: 'This season\'s points ladder',
  arena_link: 'The bot arena',
  col_rank: '#',
  col_name: 'Player',
  col_pair: 'Pair',
  col_rating: 'Rating',
  col_gain: 'Gained',
  col_level: 'Level',
  col_matches: 'Matches',
  empty: 'No established ratings yet.',
  empty_week: 'No rated matches this week yet.',
  note: 'Established ratings only (not provisional, a rated match in the last 30 days).',
  note_week: 'Rating gained this week, since Monday 00:00 UTC.',
  level_beginner: 'Beginner',
  level_novice: 'Novice',
  level_intermediate: 'Intermediate',
  level_advanced: 'Advanced',
  level_expert: 'Expert',
  level_master: 'Master',
  level_champion: 'Champion',
  err_ratings_unavailable: 'Ratings are not available on this server right now.',
  err_network: 'The server cannot be reached.',
  err_generic: 'Something went wrong ({code}).',
};

/** @type {Record<keyof typeof en, string>} */
const it = {
  page_title: 'Classifiche',
  back_to_game: '← Torna al gioco',
  cat_two: 'Testa a testa',
  cat_four: 'Quattro giocatori',
  cat_pair: 'Coppie',
  this_week: 'Questa settimana',
  bots: 'Bot',
  season_link: 'La classifica a punti della stagione',
  arena_link: 'L\'arena dei bot',
  col_rank: '#',
  col_name: 'Giocatore',
  col_pair: 'Coppia',
  col_rating: 'Punteggio',
  col_gain: 'Guadagnati',
  col_level: 'Livello',
  col_matches: 'Partite',
  empty: 'Nessun punteggio ancora consolidato.',
  empty_week: 'Nessuna partita valida questa settimana.',
  note: 'Solo punteggi consolidati (non provvisori, con una partita valida negli ultimi 30 giorni).',
  note_week: 'Punti guadagnati questa settimana, da lunedì alle 00:00 UTC.',
  level_beginner: 'Principiante',
  level_novice: 'Esordiente',
  level_intermediate: 'Intermedio',
  level_advanced: 'Avanzato',
  level_expert: 'Esperto',
  level_master: 'Maestro',
  level_champion: 'Campione',
  err_ratings_unavailable: 'I punteggi non sono disponibili su questo server in questo momento.',
  err_network: 'Il server non è raggiungibile.',
  err_generic: 'Qualcosa è andato storto ({code}).',
};

export const LEADERBOARD_DICTIONARIES = { en, it };

/** @typedef {keyof typeof en} LeaderboardKey */

/**
 * `key` in the page's language, its {params} filled in.
 * @param {LeaderboardKey} key
 * @param {Record<string, string|number>} [params]
 */
export function tl(key, params) {
  let s = LEADERBOARD_DICTIONARIES[getLang()][key] ?? en[key] ?? key;
  if (params) s = s.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
  return s;
}

/** @param {string} key @returns {key is LeaderboardKey} */
export function hasLeaderboardKey(key) { return key in en; }
