// @ts-check
/** Every string the page shows, in English and Italian. `t(key, params)` looks one up. */

/** @typedef {'en'|'it'} Lang */

const en = {
  app_title: 'Burraco',
  tagline: 'The Italian rummy, played online against people or bots',
  your_name: 'Your name',
  name_placeholder: 'e.g. Anna',
  enter: 'Enter',
  language: 'Language',
  conn_connecting: 'Connecting…',
  conn_online: 'Online',
  conn_reconnecting: 'Reconnecting…',
  conn_offline: 'Offline',
  conn_taken_over: 'Opened in another tab',
  lobby: 'Lobby',
  open_tables: 'Open tables',
  refresh: 'Refresh',
  no_tables: 'No public tables yet. Create one or use quick play.',
  col_table: 'Table', col_preset: 'Rules', col_seats: 'Seated', col_players: 'Seats', col_status: 'Status', col_actions: '',
  status_waiting: 'Waiting', status_playing: 'Playing', status_finished: 'Finished', status_between_hands: 'Between hands',
  join: 'Join', watch: 'Watch', spectators: '{n} watching',
  quick_play: 'Quick play',
  quick_play_hint: 'Sit at the first open table with these rules, or open a new one.',
  create_table: 'Create a table',
  preset: 'Rules (preset)',
  preset_fitab: 'FITAB (default)', preset_feburit: 'FE.BUR.IT', preset_fedibur: 'FEDIBUR',
  players: 'Players',
  players_4: '4 (two pairs)', players_2: '2 (head to head)',
  match_length: 'Match',
  match_default: "The preset's default",
  match_hands: 'Number of hands', match_target: 'To a target score',
  hands_n: 'Hands', target_points: 'Target points',
  clocks: 'Clocks', clocks_default: "Preset's", clocks_federation: 'Federation', clocks_relaxed: 'Relaxed (doubled)', clocks_off: 'Off',
  semipulito: 'Semipulito burracos', close_pulito: 'Closing requires a burraco pulito (FIBUR)',
  opt_default: "Preset's", opt_on: 'On', opt_off: 'Off',
  visibility: 'Visibility', public: 'Public (listed in the lobby)', private: 'Private (invite code)',
  bots_label: 'Empty seats', bots_none: 'Wait for people', bots_random: 'Bots: beginner (L0)', bots_greedy: 'Bots: greedy (L1)', bots_expert: 'Bots: expert (L2)', bots_search: 'Bots: search (L3)',
  create: 'Create',
  join_by_invite: 'Join by invite code',
  invite_code: 'Invite code',
  invite_share: 'Invite code to share:',
  copy: 'Copy', copied: 'Copied',
  table: 'Table',
  leave: 'Leave table', back_to_lobby: 'Back to lobby',
  ready_check: 'Ready check',
  ready_hint: 'The first hand is dealt when every seat is taken and every player is ready.',
  add_bots: 'Fill the free seats with bots',
  im_ready: "I'm ready", ready: 'Ready', not_ready: 'Not ready', free_seat: 'Free seat',
  seat_N: 'North', seat_E: 'East', seat_S: 'South', seat_W: 'West',
  you: 'you', partner: 'partner', opponent: 'opponent', bot: 'Bot', server_bot: 'a bot of the server',
  stand_in: 'away: a bot plays for {name} until they are back', stand_in_left: '{name} left: a bot plays the seat',
  connected: 'connected', disconnected: 'disconnected', disconnected_grace: 'disconnected — seat kept {s}s',
  spectating: 'You are watching this table',
  hand_n: 'Hand {n}', hand_of: 'Hand {n} of {total}', to_target: 'to {n} points',
  dealer: 'Dealer',
  cards_n: '{n} cards', cards_n_one: '1 card',
  tallone: 'Tallone', pile: 'Discard pile', pile_empty: 'empty',
  pozzetto: 'Pozzetto', pozzetto_taken_by: 'taken by {side}', pozzetto_free: 'not taken',
  your_pozzetto_hidden: 'Your pozzetto (11 cards) is yours: you will see it after your partner\'s next discard.',
  our_melds: 'Our melds', their_melds: 'Their melds', melds_side: 'Melds {side}', no_melds: 'No melds yet',
  sequence: 'sequence', combination: 'combination',
  wild_as: 'wild as {card}',
  sort_suit: 'Sort by suit', sort_rank: 'Sort by rank',
  your_hand: 'Your hand',
  your_turn: 'Your turn', turn_of: "{name}'s turn", waiting_turn: 'Waiting for {name}',
  phase_take: 'draw from the tallone or pick up the pile',
  phase_play: 'meld, attach, then discard',
  draw: 'Draw', pick_up: 'Pick up the pile', open: 'Open meld', attach: 'Attach', discard: 'Discard', clear: 'Clear',
  attach_hint: 'Select cards, then click one of your melds to attach them.',
  select_hint: 'Select cards to open a meld, or one card to discard.',
  move_clock: 'Move clock', grace: 'grace', round_clock: 'Round clock',
  time_out: 'TIME OUT', time_out_turns: 'TIME OUT — {n} turns left in this hand', time_out_void: 'TIME OUT — this hand is void',
  stallo_warning: 'Stallo warning: {n} card exchanges in a row — one more round and it is a stallo.',
  stallo: 'Stallo!', stallo_must_draw: 'Stallo: {seat} must draw at the next turn.', stallo_ends: 'Stallo: another card exchange ends the hand.',
  clock_expired: "{name}'s clock ran out: the server played the turn.", clock_expired_you: 'Your time ran out: the server played your turn (drew if needed, then discarded your highest card).',
  score: 'Score', running_score: 'Score',
  refused: 'Refused', error: 'Error',
  choose_wild: 'Where should the wild go?',
  choose_wild_hint: 'The wild can stand on more than one position. Choose one:',
  position_as: 'Position {pos} (as {rank})',
  cancel: 'Cancel', close: 'Close',
  hand_over: 'Hand over',
  end_closed: '{name} closed the hand', end_tallone_exhausted: 'The tallone ran out', end_stallo: 'Stallo', end_time_out: 'Time out', end_voided: 'Hand void (time out before the first take)',
  sc_side: 'Side', sc_melded: 'Cards melded', sc_burracos: 'Burracos', sc_closing: 'Closing', sc_in_hand: 'Cards left in hand', sc_pozzetto: 'Pozzetto', sc_total: 'Hand total',
  sc_match: 'Match total',
  burraco_reale: 'reale', burraco_super: 'super', burraco_pulito: 'pulito', burraco_semipulito: 'semipulito', burraco_sporco: 'sporco',
  burraco_reale_feburit: 'over the top', burraco_super_feburit: 'superpulito',
  none: '—',
  final_hands: 'Cards left in each hand',
  match_standing: 'Standing',
  match_over: 'Match over', winner: 'Winner: {side}', draw_result: 'Draw', vp: 'VP',
  next_hand_soon: 'The next hand is dealt when everyone is ready (at most 30 s).',
  next_hand_ready: 'Ready for the next hand',
  next_hand_waiting: 'Waiting for {names}',
  seed: 'Shuffle key (seed)', commitment: 'Commitment (SHA-256 of the key, published before the first card)',
  you_lead: 'you lead by {n}', you_trail: 'you trail by {n}', level: 'level',
  you_won: 'You won the match!', you_lost: 'You lost the match.', rematch: 'Play again (same settings)',
  hands_history: 'Hands of this match', hands_btn: 'Hands', no_hands_yet: 'No hand has finished yet.',
  record_pending: 'The hand record is on its way…',
  v_deck: 'The key shuffles a whole deck (108 cards) and deals {n} hands of 11, two pozzetti of 11 and the up card {card}',
  v_moves: 'Each of the record\'s {n} moves uses cards the player held at that moment in this deal',
  v_no_seed: 'The record has no shuffle key', v_error: 'The check could not run: {msg}',
  leave_q: 'Leave the match?', leave_warning: 'The match goes on without you: a server bot takes your seat for the rest of the match, and you cannot come back to it.',
  leave_yes: 'Leave, a bot plays my seat', leave_no: 'Stay',
  play_bots_offer: 'Nobody else here yet. Play now with server bots in the empty seats?', play_bots: 'Play with bots now',
  settings_line: '{preset} · {length} · clocks: {clocks}', length_hands: '{n} hands', length_hands_one: '1 hand', length_target: 'to {n} points',
  clocks_on_federation: 'federation (10/20/40 s a move)', clocks_on_relaxed: 'relaxed (20/40/80 s a move)', clocks_on_off: 'none',
  ev_clock_expired: "{seat}'s time ran out: the server played for them", ev_server_discarded: 'the server discarded {card} for {seat}', ev_server_drew: 'the server drew for {seat}',
  ev_hand_ended: 'Hand {n} over: {score}', ev_opened_named: '{seat} opened meld {m}: {cards}', ev_attached_named: '{seat} attached {cards} to meld {m}',
  mute: 'Sound off', unmute: 'Sound on', your_turn_title: 'Your turn', clock_warn_title: 'Hurry: your time is running out',
  how_to_play: 'How to play', chat_placeholder: 'Message (between hands)', send: 'Send',
  seed_hidden: 'The seed is not revealed yet.',
  verify_shuffle: 'Verify the shuffle', verifying: 'Checking…',
  v_commitment: 'SHA-256 of the key equals the commitment published at the deal',
  v_up_card: 'The up card {card} is the one dealt',
  v_my_hand: 'Your 11 cards are the ones dealt to you',
  v_replay: 'Replaying the record from this deal ends with exactly the hands the server revealed',
  v_ok: 'The shuffle checks out: this deal is the one the committed key gives.',
  v_fail: 'Mismatch: this deal does not match the key.',
  v_dealt_hands: 'The deal recomputed in your browser',
  hand_record: 'Hand record', replay: 'Replay', download_record: 'Download the record (JSON)',
  replay_step: 'Step {i} of {n}', replay_start: 'Deal', first: 'First', prev: 'Previous', next: 'Next', last: 'Last',
  r_draw: '{seat} draws {card}', r_pick_up: '{seat} picks up the pile ({n} cards)', r_pick_up_one: '{seat} picks up the pile (1 card)', r_open: '{seat} opens {cards}', r_attach: '{seat} attaches {cards} to meld {meld}',
  r_discard: '{seat} discards {card}', r_clock_expired: '{seat}: the clock ran out', r_time_out: 'TIME OUT', r_pozzetto: '{seat} takes pozzetto {p}',
  chat: 'Chat', say: 'Say',
  phrase_hello: 'Hello!', phrase_good_luck: 'Good luck!', phrase_well_played: 'Well played!', phrase_thanks: 'Thanks!', phrase_sorry: 'Sorry!', phrase_goodbye: 'Goodbye!',
  shortcuts: 'Keyboard shortcuts',
  shortcuts_text: 'Tab/arrows: move between cards · Shift+arrows: move the card in the hand · Space/Enter: select · D: draw · P: pick up · O: open · A then 1–9: attach to meld · X: discard the selected card · S: sort · Esc: clear',
  e_illegal: 'Not allowed: {msg}',
  e_generic: '{msg}',
  name_required: 'Please type a name.',
  welcome_back: 'Welcome back, {name}.',
  table_full: 'That table is full.',
  log: 'Table log',
  log_toggle: 'Log', log_toggle_label: 'Show or hide the table log and chat',
  ev_joined: '{name} sat down ({seat})', ev_left: '{seat} left', ev_ready: '{seat} is ready', ev_hand_started: 'Hand {n} dealt by {seat}',
  ev_disconnected: '{seat} lost the connection', ev_reconnected: '{seat} is back', ev_bot: 'A bot plays for {seat}',
  ev_opened: '{seat} opened a meld', ev_attached: '{seat} attached to meld {m}', ev_pozzetto: '{seat} took pozzetto {p}{how}', in_diretta: ' (in diretta)', con_lo_scarto: ' (with the discard)',
  ev_match_started: 'The match starts. First dealer: {seat}',
  ev_discarded: '{seat} discarded {card}', ev_drew: '{seat} drew', ev_picked_up: '{seat} picked up {n} cards', ev_picked_up_one: '{seat} picked up 1 card',
  playable_hint: 'Highlighted cards can be played (a hint; the server decides).',
};

/** @type {Record<keyof typeof en, string>} */
const it = {
  app_title: 'Burraco',
  tagline: 'Il gioco di carte italiano, online contro persone o bot',
  your_name: 'Il tuo nome',
  name_placeholder: 'es. Anna',
  enter: 'Entra',
  language: 'Lingua',
  conn_connecting: 'Connessione…',
  conn_online: 'In linea',
  conn_reconnecting: 'Riconnessione…',
  conn_offline: 'Non in linea',
  conn_taken_over: 'Aperto in un’altra scheda',
  lobby: 'Sala',
  open_tables: 'Tavoli aperti',
  refresh: 'Aggiorna',
  no_tables: 'Nessun tavolo pubblico. Creane uno o usa il gioco rapido.',
  col_table: 'Tavolo', col_preset: 'Regole', col_seats: 'Seduti', col_players: 'Posti', col_status: 'Stato', col_actions: '',
  status_waiting: 'In attesa', status_playing: 'In gioco', status_finished: 'Finito', status_between_hands: 'Tra una smazzata e l\'altra',
  join: 'Siediti', watch: 'Guarda', spectators: '{n} spettatori',
  quick_play: 'Gioco rapido',
  quick_play_hint: 'Siediti al primo tavolo libero con queste regole, o aprine uno nuovo.',
  create_table: 'Crea un tavolo',
  preset: 'Regolamento',
  preset_fitab: 'FITAB (predefinito)', preset_feburit: 'FE.BUR.IT', preset_fedibur: 'FEDIBUR',
  players: 'Giocatori',
  players_4: '4 (due coppie)', players_2: '2 (testa a testa)',
  match_length: 'Partita',
  match_default: 'Come da regolamento',
  match_hands: 'Numero di smazzate', match_target: 'A punteggio',
  hands_n: 'Smazzate', target_points: 'Punti da raggiungere',
  clocks: 'Tempi', clocks_default: 'Da regolamento', clocks_federation: 'Federali', clocks_relaxed: 'Rilassati (doppi)', clocks_off: 'Senza tempo',
  semipulito: 'Burraco semipulito', close_pulito: 'Per chiudere serve un burraco pulito (FIBUR)',
  opt_default: 'Da regolamento', opt_on: 'Sì', opt_off: 'No',
  visibility: 'Visibilità', public: 'Pubblico (in sala)', private: 'Privato (codice invito)',
  bots_label: 'Posti vuoti', bots_none: 'Aspetta persone', bots_random: 'Bot: principiante (L0)', bots_greedy: 'Bot: avido (L1)', bots_expert: 'Bot: esperto (L2)', bots_search: 'Bot: ricerca (L3)',
  create: 'Crea',
  join_by_invite: 'Entra con un codice invito',
  invite_code: 'Codice invito',
  invite_share: 'Codice invito da condividere:',
  copy: 'Copia', copied: 'Copiato',
  table: 'Tavolo',
  leave: 'Lascia il tavolo', back_to_lobby: 'Torna alla sala',
  ready_check: 'Pronti?',
  ready_hint: 'La prima smazzata parte quando tutti i posti sono occupati e tutti sono pronti.',
  add_bots: 'Occupa i posti liberi con dei bot',
  im_ready: 'Sono pronto', ready: 'Pronto', not_ready: 'Non pronto', free_seat: 'Posto libero',
  seat_N: 'Nord', seat_E: 'Est', seat_S: 'Sud', seat_W: 'Ovest',
  you: 'tu', partner: 'compagno', opponent: 'avversario', bot: 'Bot', server_bot: 'un bot del server',
  stand_in: 'assente: un bot gioca per {name} finché non torna', stand_in_left: '{name} è uscito: il posto lo gioca un bot',
  connected: 'connesso', disconnected: 'disconnesso', disconnected_grace: 'disconnesso — posto tenuto {s}s',
  spectating: 'Stai guardando questo tavolo',
  hand_n: 'Smazzata {n}', hand_of: 'Smazzata {n} di {total}', to_target: 'ai {n} punti',
  dealer: 'Mazziere',
  cards_n: '{n} carte', cards_n_one: '1 carta',
  tallone: 'Tallone', pile: 'Scarti', pile_empty: 'vuoto',
  pozzetto: 'Pozzetto', pozzetto_taken_by: 'preso da {side}', pozzetto_free: 'non preso',
  your_pozzetto_hidden: 'Il pozzetto (11 carte) è tuo: lo vedrai dopo il prossimo scarto del compagno.',
  our_melds: 'I nostri giochi', their_melds: 'I loro giochi', melds_side: 'Giochi {side}', no_melds: 'Ancora nessun gioco',
  sequence: 'scala', combination: 'tris',
  wild_as: 'matta al posto di {card}',
  sort_suit: 'Ordina per seme', sort_rank: 'Ordina per valore',
  your_hand: 'La tua mano',
  your_turn: 'Tocca a te', turn_of: 'Tocca a {name}', waiting_turn: 'In attesa di {name}',
  phase_take: 'pesca dal tallone o raccogli gli scarti',
  phase_play: 'cala, attacca, poi scarta',
  draw: 'Pesca', pick_up: 'Raccogli gli scarti', open: 'Cala', attach: 'Attacca', discard: 'Scarta', clear: 'Annulla',
  attach_hint: 'Seleziona le carte, poi clicca un tuo gioco per attaccarle.',
  select_hint: 'Seleziona carte per calare un gioco, o una carta da scartare.',
  move_clock: 'Tempo della mossa', grace: 'recupero', round_clock: 'Tempo del turno di gara',
  time_out: 'TIME OUT', time_out_turns: 'TIME OUT — restano {n} turni in questa smazzata', time_out_void: 'TIME OUT — smazzata nulla',
  stallo_warning: 'Attenzione stallo: {n} scambi di carta di fila — ancora un giro ed è stallo.',
  stallo: 'Stallo!', stallo_must_draw: 'Stallo: {seat} deve pescare al prossimo turno.', stallo_ends: 'Stallo: un altro scambio chiude la smazzata.',
  clock_expired: 'Tempo scaduto per {name}: il server ha giocato il turno.', clock_expired_you: 'Il tuo tempo è scaduto: il server ha giocato il tuo turno (ha pescato se serviva, poi scartato la carta più alta).',
  score: 'Punteggio', running_score: 'Punteggio',
  refused: 'Rifiutato', error: 'Errore',
  choose_wild: 'Dove va la matta?',
  choose_wild_hint: 'La matta può stare in più posizioni. Scegline una:',
  position_as: 'Posizione {pos} (come {rank})',
  cancel: 'Annulla', close: 'Chiudi',
  hand_over: 'Smazzata finita',
  end_closed: '{name} ha chiuso', end_tallone_exhausted: 'Il tallone è finito', end_stallo: 'Stallo', end_time_out: 'Time out', end_voided: 'Smazzata nulla (time out prima della prima presa)',
  sc_side: 'Coppia', sc_melded: 'Carte calate', sc_burracos: 'Burraco', sc_closing: 'Chiusura', sc_in_hand: 'Carte in mano', sc_pozzetto: 'Pozzetto', sc_total: 'Totale smazzata',
  sc_match: 'Totale partita',
  burraco_reale: 'reale', burraco_super: 'super', burraco_pulito: 'pulito', burraco_semipulito: 'semipulito', burraco_sporco: 'sporco',
  burraco_reale_feburit: 'over the top', burraco_super_feburit: 'superpulito',
  none: '—',
  final_hands: 'Carte rimaste in mano',
  match_standing: 'Situazione',
  match_over: 'Partita finita', winner: 'Vince: {side}', draw_result: 'Pareggio', vp: 'PV',
  next_hand_soon: 'La prossima smazzata parte quando tutti sono pronti (al massimo 30 s).',
  next_hand_ready: 'Pronto per la prossima smazzata',
  next_hand_waiting: 'In attesa di {names}',
  seed: 'Chiave di mescolamento (seed)', commitment: 'Impegno (SHA-256 della chiave, pubblicato prima della prima carta)',
  you_lead: 'siete avanti di {n}', you_trail: 'siete indietro di {n}', level: 'in parità',
  you_won: 'Avete vinto la partita!', you_lost: 'Avete perso la partita.', rematch: 'Gioca ancora (stesse regole)',
  hands_history: 'Smazzate di questa partita', hands_btn: 'Smazzate', no_hands_yet: 'Nessuna smazzata è ancora finita.',
  record_pending: 'Il verbale della smazzata sta arrivando…',
  v_deck: 'La chiave mescola un mazzo intero (108 carte) e distribuisce {n} mani da 11, due pozzetti da 11 e la carta scoperta {card}',
  v_moves: 'Ognuna delle {n} mosse del verbale usa carte che il giocatore aveva in mano in quel momento, in questa distribuzione',
  v_no_seed: 'Il verbale non ha la chiave di mescolamento', v_error: 'Impossibile verificare: {msg}',
  leave_q: 'Lasciare la partita?', leave_warning: 'La partita continua senza di te: un bot del server prende il tuo posto fino alla fine, e non potrai tornare.',
  leave_yes: 'Esci, il mio posto lo gioca un bot', leave_no: 'Resta',
  play_bots_offer: 'Non c\'è ancora nessun altro. Vuoi giocare subito con i bot del server nei posti vuoti?', play_bots: 'Gioca subito con i bot',
  settings_line: '{preset} · {length} · tempi: {clocks}', length_hands: '{n} smazzate', length_hands_one: '1 smazzata', length_target: 'ai {n} punti',
  clocks_on_federation: 'federali (10/20/40 s a mossa)', clocks_on_relaxed: 'rilassati (20/40/80 s a mossa)', clocks_on_off: 'senza tempo',
  ev_clock_expired: 'Tempo scaduto per {seat}: il server ha giocato per lui', ev_server_discarded: 'il server ha scartato {card} per {seat}', ev_server_drew: 'il server ha pescato per {seat}',
  ev_hand_ended: 'Smazzata {n} finita: {score}', ev_opened_named: '{seat} ha calato il gioco {m}: {cards}', ev_attached_named: '{seat} ha attaccato {cards} al gioco {m}',
  mute: 'Audio spento', unmute: 'Audio acceso', your_turn_title: 'Tocca a te', clock_warn_title: 'Presto: il tempo sta per scadere',
  how_to_play: 'Come si gioca', chat_placeholder: 'Messaggio (tra una smazzata e l\'altra)', send: 'Invia',
  seed_hidden: 'La chiave non è ancora rivelata.',
  verify_shuffle: 'Verifica il mescolamento', verifying: 'Verifica…',
  v_commitment: 'Lo SHA-256 della chiave è uguale all\'impegno pubblicato alla distribuzione',
  v_up_card: 'La carta scoperta {card} è quella distribuita',
  v_my_hand: 'Le tue 11 carte sono quelle distribuite a te',
  v_replay: 'Rigiocando il verbale da questa distribuzione si arriva esattamente alle mani rivelate dal server',
  v_ok: 'Il mescolamento è corretto: questa distribuzione è quella della chiave impegnata.',
  v_fail: 'Discrepanza: questa distribuzione non corrisponde alla chiave.',
  v_dealt_hands: 'La distribuzione ricalcolata nel tuo browser',
  hand_record: 'Verbale della smazzata', replay: 'Rivedi', download_record: 'Scarica il verbale (JSON)',
  replay_step: 'Passo {i} di {n}', replay_start: 'Distribuzione', first: 'Inizio', prev: 'Indietro', next: 'Avanti', last: 'Fine',
  r_draw: '{seat} pesca {card}', r_pick_up: '{seat} raccoglie gli scarti ({n} carte)', r_pick_up_one: '{seat} raccoglie gli scarti (1 carta)', r_open: '{seat} cala {cards}', r_attach: '{seat} attacca {cards} al gioco {meld}',
  r_discard: '{seat} scarta {card}', r_clock_expired: '{seat}: tempo scaduto', r_time_out: 'TIME OUT', r_pozzetto: '{seat} prende il pozzetto {p}',
  chat: 'Chat', say: 'Dì',
  phrase_hello: 'Ciao!', phrase_good_luck: 'Buona fortuna!', phrase_well_played: 'Ben giocato!', phrase_thanks: 'Grazie!', phrase_sorry: 'Scusa!', phrase_goodbye: 'Arrivederci!',
  shortcuts: 'Scorciatoie da tastiera',
  shortcuts_text: 'Tab/frecce: muoviti tra le carte · Maiusc+frecce: sposta la carta nella mano · Spazio/Invio: seleziona · D: pesca · P: raccogli · O: cala · A poi 1–9: attacca al gioco · X: scarta la carta selezionata · S: ordina · Esc: annulla',
  e_illegal: 'Mossa non consentita: {msg}',
  e_generic: '{msg}',
  name_required: 'Scrivi un nome.',
  welcome_back: 'Bentornato, {name}.',
  table_full: 'Il tavolo è pieno.',
  log: 'Cronaca del tavolo',
  log_toggle: 'Cronaca', log_toggle_label: 'Mostra o nascondi la cronaca del tavolo e la chat',
  ev_joined: '{name} si siede ({seat})', ev_left: '{seat} se ne va', ev_ready: '{seat} è pronto', ev_hand_started: 'Smazzata {n}, mazziere {seat}',
  ev_disconnected: '{seat} ha perso la connessione', ev_reconnected: '{seat} è tornato', ev_bot: 'Un bot gioca per {seat}',
  ev_opened: '{seat} ha calato un gioco', ev_attached: '{seat} ha attaccato al gioco {m}', ev_pozzetto: '{seat} ha preso il pozzetto {p}{how}', in_diretta: ' (in diretta)', con_lo_scarto: ' (con lo scarto)',
  ev_match_started: 'La partita comincia. Primo mazziere: {seat}',
  ev_discarded: '{seat} ha scartato {card}', ev_drew: '{seat} ha pescato', ev_picked_up: '{seat} ha raccolto {n} carte', ev_picked_up_one: '{seat} ha raccolto 1 carta',
  playable_hint: 'Le carte evidenziate si possono giocare (un suggerimento; decide il server).',
};

/** @typedef {keyof typeof en} Key */

export const DICTIONARIES = { en, it };

/** @type {Lang} */
let lang = initialLang();

function initialLang() {
  try {
    const saved = globalThis.localStorage && localStorage.getItem('burraco.lang');
    if (saved === 'en' || saved === 'it') return saved;
  } catch { /* storage may be blocked */ }
  const nav = globalThis.navigator && navigator.language || 'en';
  return nav.toLowerCase().startsWith('it') ? 'it' : 'en';
}

export function getLang() { return lang; }

/** @param {Lang} l */
export function setLang(l) {
  lang = l;
  try { localStorage.setItem('burraco.lang', l); } catch { /* ignore */ }
  if (globalThis.document) document.documentElement.lang = l;
}

/**
 * The string `key` in the page's language with its {params} filled in; with `n` equal to 1, the
 * singular `key_one` where there is one ("1 card").
 * @param {Key} key
 * @param {Record<string, string|number>} [params]
 */
export function t(key, params) {
  const dict = DICTIONARIES[lang];
  if (params && params.n === 1 && `${key}_one` in en) key = /** @type {Key} */ (`${key}_one`);
  let s = dict[key] ?? en[key] ?? key;
  if (params) s = s.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
  return s;
}

/** @param {string} key @returns {key is Key} */
export function hasKey(key) { return key in en; }

/** Italian wording of the server's refusals, by stable rule/error code (English uses the server's own message). */
const RULES_IT = /** @type {Record<string,string>} */ ({
  hand_over: 'la smazzata è finita',
  not_seated: 'non sei seduto a questo tavolo',
  not_your_turn: 'non è il tuo turno (REGOLE 4)',
  must_take_first: 'prima devi pescare dal tallone o raccogliere gli scarti (REGOLE 4.1)',
  already_taken: 'hai già preso in questo turno (REGOLE 4.1)',
  tallone_exhausted: 'le ultime due carte del tallone non si pescano mai (art. 17)',
  stallo_must_draw: 'stallo: chi ha iniziato gli scambi deve pescare, non raccogliere (FEDIBUR art. 5)',
  card_not_in_hand: 'non hai quella carta',
  cards_not_in_hand: 'non hai tutte quelle carte',
  unknown_meld: 'quel gioco non esiste',
  opponents_meld: 'quel gioco è degli avversari: puoi attaccare solo ai giochi della tua coppia (REGOLE 4.2)',
  duplicate_combination: 'la tua coppia ha già un tris di quel valore (art. 31)',
  would_empty_hand: 'avete già il pozzetto: puoi svuotare la mano solo chiudendo con uno scarto (REGOLE 6)',
  no_legal_discard_left: 'non ti resterebbe uno scarto valido per finire il turno (REGOLE 6)',
  discard_picked_up_card: 'hai raccolto quella singola carta in questo turno: non puoi scartarla senza averne una identica (art. 8)',
  close_without_pozzetto: 'per chiudere la tua coppia deve aver preso il pozzetto (REGOLE 7)',
  close_without_burraco: 'per chiudere serve un burraco (REGOLE 7)',
  close_without_burraco_pulito: 'a questo tavolo per chiudere serve un burraco pulito (regola FIBUR)',
  close_with_wild: 'non si chiude scartando una matta (art. 14)',
  close_after_pile_pickup: 'non puoi chiudere nel turno in cui hai raccolto gli scarti: chiusura al monte (FITAB art. 32 D)',
  close_after_multi_card_pickup: 'puoi chiudere dopo aver raccolto gli scarti solo se era una sola carta (FEDIBUR art. 5)',
  close_in_first_round: 'non si chiude nel primo giro della smazzata (FEDIBUR art. 5)',
  meld_too_few_cards: 'un gioco richiede almeno 3 carte (art. 9)',
  not_a_meld: 'le carte non sono né dello stesso valore né una scala dello stesso seme (art. 9)',
  combination_of_wilds: 'non esiste un tris di 2 o di jolly; nei tris i 2 sono sempre matte (art. 10)',
  too_many_wilds: 'un gioco ha al massimo una matta oltre al 2 naturale di una scala (art. 10)',
  too_few_naturals: 'un gioco richiede almeno due carte naturali (art. 10)',
  combination_too_long: 'un tris ha al massimo 9 carte',
  sequence_too_long: 'una scala ha al massimo 14 carte, di cui al massimo 13 naturali (art. 11)',
  two_natural_aces: 'una scala ha al massimo un asso naturale',
  not_contiguous: 'la scala non è continua',
  wrong_card_for_meld: 'quella carta non va in questo gioco',
  bound_wild_moved: 'una matta interna si sposta solo quando si attacca la carta naturale che sostituisce (art. 10)',
  wild_position_ambiguous: 'la matta può andare in più posizioni: scegline una',
  wild_position_invalid: 'la matta non può andare in quella posizione',
  table_full: 'il tavolo è pieno',
  table_started: 'la partita è cominciata: i posti sono occupati; puoi guardare',
  seat_taken: 'quel posto è occupato',
  bad_invite: 'nessun tavolo ha quel codice invito',
  unknown_table: 'tavolo sconosciuto',
  not_at_table: 'non sei né seduto né spettatore a questo tavolo',
  invalid_settings: 'impostazioni non valide',
  no_hand_in_play: 'nessuna smazzata in corso a questo tavolo',
  rate_limited: 'troppe richieste: rallenta',
  chat_closed: 'la chat libera è chiusa durante la smazzata; le frasi fisse restano aperte',
  'not connected': 'non connesso: riconnessione in corso',
});

/** Bot levels, for the names the server gives its bots ("Bot (expert)"). */
const BOT_LEVEL_IT = /** @type {Record<string,string>} */ ({ random: 'principiante', greedy: 'avido', expert: 'esperto', search: 'ricerca' });

/**
 * A name to show: the server's bot names ("Bot (expert)") in the page's language; any other name as is.
 * @param {string} name
 */
export function localBotName(name) {
  const m = /^Bot \((random|greedy|expert|search)\)$/.exec(name ?? '');
  if (!m || lang !== 'it') return name;
  return `Bot (${BOT_LEVEL_IT[m[1]]})`;
}

/**
 * Drops references to rule documents from a refusal ("(RULES.md 4.1)", "(REGOLE 4.1)", "(art. 9)", "(FEDIBUR art. 5)"):
 * players get the plain explanation.
 * @param {string} text
 */
export function withoutRuleRefs(text) {
  return String(text).replace(/\s*\([^()]*\b(?:RULES|REGOLE|art\.|section|sezione)[^()]*\)/gi, '').trim();
}

/**
 * The server's refusal in plain words, in the page's language.
 * @param {{message: string, code?: string, rule?: string|null}} err
 */
export function refusalText(err) {
  const code = err.rule || err.code || '';
  if (lang === 'it' && RULES_IT[code]) return withoutRuleRefs(RULES_IT[code]);
  if (lang === 'it' && RULES_IT[err.message]) return withoutRuleRefs(RULES_IT[err.message]);
  return withoutRuleRefs(err.message);
}
