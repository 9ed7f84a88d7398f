// @ts-check
/** The words of the player's page (player.html), in English and Italian; the language is the game's (i18n.js). */
import { getLang } from './i18n.js';

const en = {
  page_title: 'Player',
  back_to_game: '← Back to the game',
  leaderboards: 'Leaderboards',
  my_account: 'Your account',
  guest_title: 'Your games this session',
  guest_note: 'You play as a guest: only this tab sees these games. Create an account to keep them.',
  bot_badge: 'bot',
  rating: 'Rating',
  season: 'This season',
  cat_pair: 'Fixed pair',
  season_line: '{points} points, {matches} matches',
  season_pair: 'with {names}',
  season_link: 'The season\'s ladder',
  no_rated_games: 'No rated games yet.',
  cat_two: 'Head to head',
  cat_four: 'Partnerships',
  provisional: 'provisional',
  provisional_title: 'Provisional: too few rated matches to be sure of it yet ("?" after the rating). It becomes established, with a level, once its deviation falls to 110.',
  rated_matches: '{n} rated matches',
  rated_matches_one: '1 rated match',
  rating_line: '{rating} ± {dev}',
  level: 'level {level}',
  chart_label: 'Rating history: {cat}',
  totals: 'Totals',
  no_matches: 'No finished matches yet.',
  matches_played: 'Matches',
  won: 'Won',
  drawn: 'Drawn',
  lost: 'Lost',
  average_vp: 'Average VP',
  burraco_per_hand: 'Burraco per hand',
  closings: 'Closings',
  pozzetti_first: 'Pozzetti taken first',
  partners: 'Favourite partners',
  partner_line: '{matches} matches, {won} won',
  tournaments: 'Tournaments',
  tournament_line: '{matches} matches, {won} won, {vp} VP',
  recent: 'Recent matches',
  more: 'More',
  result_won: 'Won',
  result_lost: 'Lost',
  result_draw: 'Draw',
  vs: 'vs {names}',
  with_partner: 'with {name}',
  vp: '{for}–{against} VP',
  points: '{for}–{against}',
  hands_n: '{n} hands',
  hands_n_one: '1 hand',
  replay: 'Replay',
  verify: 'Verify the shuffle',
  verifying: 'Verifying…',
  verify_ok: 'Hand {n}: the shuffle checks out.',
  verify_bad: 'Hand {n}: something does not check out.',
  verify_none: 'No hand of this match can be verified yet.',
  in_tournament: 'tournament',
  err_no_such_player: 'There is no player of that name.',
  err_no_session: 'This tab has no game session yet: play a game first.',
  err_players_unavailable: 'Player pages are not available on this server right now.',
  err_generic: 'Something went wrong ({code}).',
};

/** @type {Record<keyof typeof en, string>} */
const it = {
  page_title: 'Giocatore',
  leaderboards: 'Classifiche',
  back_to_game: '← Torna al gioco',
  my_account: 'Il tuo account',
  guest_title: 'Le tue partite di questa sessione',
  guest_note: 'Giochi come ospite: solo questa scheda vede queste partite. Crea un account per conservarle.',
  bot_badge: 'bot',
  rating: 'Punteggio',
  season: 'Questa stagione',
  cat_pair: 'Coppia fissa',
  season_line: '{points} punti, {matches} partite',
  season_pair: 'con {names}',
  season_link: 'La classifica della stagione',
  no_rated_games: 'Ancora nessuna partita valida per il punteggio.',
  cat_two: 'Testa a testa',
  cat_four: 'A coppie',
  provisional: 'provvisorio',
  provisional_title: 'Provvisorio: ancora troppo poche partite valide per esserne sicuri ("?" dopo il punteggio). Diventa stabile, con un livello, quando la sua deviazione scende a 110.',
  rated_matches: '{n} partite valide',
  rated_matches_one: '1 partita valida',
  rating_line: '{rating} ± {dev}',
  level: 'livello {level}',
  chart_label: 'Andamento del punteggio: {cat}',
  totals: 'Totali',
  no_matches: 'Ancora nessuna partita finita.',
  matches_played: 'Partite',
  won: 'Vinte',
  drawn: 'Pari',
  lost: 'Perse',
  average_vp: 'VP medi',
  burraco_per_hand: 'Burraco per smazzata',
  closings: 'Chiusure',
  pozzetti_first: 'Pozzetti presi per primi',
  partners: 'Compagni preferiti',
  partner_line: '{matches} partite, {won} vinte',
  tournaments: 'Tornei',
  tournament_line: '{matches} partite, {won} vinte, {vp} VP',
  recent: 'Partite recenti',
  more: 'Altre',
  result_won: 'Vinta',
  result_lost: 'Persa',
  result_draw: 'Pari',
  vs: 'contro {names}',
  with_partner: 'con {name}',
  vp: '{for}–{against} VP',
  points: '{for}–{against}',
  hands_n: '{n} smazzate',
  hands_n_one: '1 smazzata',
  replay: 'Rivedi',
  verify: 'Verifica il mescolamento',
  verifying: 'Verifica in corso…',
  verify_ok: 'Smazzata {n}: il mescolamento è corretto.',
  verify_bad: 'Smazzata {n}: qualcosa non torna.',
  verify_none: 'Nessuna smazzata di questa partita si può ancora verificare.',
  in_tournament: 'torneo',
  err_no_such_player: 'Non c\'è nessun giocatore con quel nome.',
  err_no_session: 'Questa scheda non ha ancora una sessione di gioco: prima gioca una partita.',
  err_players_unavailable: 'Le pagine dei giocatori non sono disponibili su questo server in questo momento.',
  err_generic: 'Qualcosa è andato storto ({code}).',
};

export const PLAYER_DICTIONARIES = { en, it };

/** @typedef {keyof typeof en} PlayerKey */

/**
 * `key` in the page's language, its {params} filled in; with `n` equal to 1, `key_one` where there is one.
 * @param {PlayerKey} key
 * @param {Record<string, string|number>} [params]
 */
export function tp(key, params) {
  if (params && params.n === 1 && `${key}_one` in en) key = /** @type {PlayerKey} */ (`${key}_one`);
  let s = PLAYER_DICTIONARIES[getLang()][key] ?? en[key] ?? key;
  if (params) s = s.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
  return s;
}

/** @param {string} key @returns {key is PlayerKey} */
export function hasPlayerKey(key) { return key in en; }
