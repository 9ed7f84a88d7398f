// @ts-check
/**
 * The page controller: the connection, the lobby, the table being played or watched, the
 * player's selection, and one click/keyboard dispatcher. Everything on screen is rendered from
 * the server's messages (state.js); a request only changes the screen when the server's events say so.
 */
import { Connection, ServerError, serverUrl, ErrorCode, RuleCode } from './net.js';
import { t, getLang, setLang, refusalText, tournamentRefusalText } from './i18n.js';
import { emptyTable, applyMessage, applyPause, applySameAddress, sideOf, playerCount } from './state.js';
import { renderLogin, renderLobby } from './view-lobby.js';
import { renderTable, clockText, logText, nameOf } from './view-table.js';
import { renderOverlay } from './view-overlays.js';
import { sortCards, isMeld } from './cards.js';
import { escapeHtml, apiBases, session, BOTS_OFFER_MS } from './dom.js';
import { headerRatingHtml, headlineRating } from './header-rating.js';
import { verifyRecord, dealtKey } from './verify.js';
import { beep, isMuted, setMuted } from './sound.js';
import { measure, play } from './motion.js';
import { renderTournament, renderTournamentsLobby, tournamentStripHtml } from './view-tournament.js';
import { tournamentSettings, handRecordsWanted, LINEUPS, registrationClosedKey, CODE_SHAPE, myEntrant } from './tournament.js';
import { checkLine, MAX_NAME, MAX_CHAT } from './text.js';

/** @typedef {import('./net.js').Message} Message */
/** @typedef {import('./state.js').TableState} TableState */

/**
 * @typedef {{kind: 'score', hand?: number|null} | {kind: 'replay', step: number, hand: number, hands?: HandEntry[], title?: string} | {kind: 'wild', options: number[], action: string, fields: Record<string, any>}
 *   | {kind: 'help'} | {kind: 'history'} | {kind: 'confirm-leave'} | {kind: 'howto'}} Overlay
 * @typedef {{hand: number, rec: any, raw: string}} HandEntry one finished hand of the match: its record, parsed and as received
 */

/** A bell, struck through when notifications are off (drawn: no emoji font needed). @param {boolean} on */
function bellSvg(on) {
  return `<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path fill="currentColor" d="M8 1.5a4 4 0 0 0-4 4v3L2.5 11h11L12 8.5v-3a4 4 0 0 0-4-4zM6.5 12.5a1.5 1.5 0 0 0 3 0z"/>${on
    ? '' : '<path d="M2 2l12 12" stroke="currentColor" stroke-width="1.6"/>'}</svg>`;
}

/** A speaker, struck through when muted (drawn: no emoji font needed). @param {boolean} muted */
function speakerSvg(muted) {
  return `<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path fill="currentColor" d="M2 6h3l4-3v10l-4-3H2z"/>${muted
    ? '<path d="M11 5l4 6M15 5l-4 6" stroke="currentColor" stroke-width="1.6"/>' : '<path d="M11 5.5a3.5 3.5 0 0 1 0 5M12.5 3.5a6 6 0 0 1 0 9" fill="none" stroke="currentColor" stroke-width="1.4"/>'}</svg>`;
}

/**
 * What an address names: `#table/<id>`, `#tournament/<id>`, `#tournaments`, `#replay/<table>`
 * (a finished table's hands, step by step: the player's page links there); null for the lobby.
 * @param {string} hash @returns {{kind: 'table'|'tournament'|'replay', id: string}|{kind: 'tournaments'}|null}
 */
export function parseAddress(hash) {
  const m = /^#(table|tournament|replay)\/([A-Za-z0-9-]{1,64})$/.exec(hash);
  if (m) return { kind: /** @type {'table'|'tournament'|'replay'} */ (m[1]), id: m[2] };
  return hash === '#tournaments' ? { kind: 'tournaments' } : null;
}

/** How far (px) a pressed hand card moves before it is dragged rather than tapped. */
const DRAG_START = 8;

/** The director's fields of the tournament page, untouched (the record's values show). */
const DIRECTOR_FIELDS = Object.freeze({ dEntrant: '', dVp: '', dReason: '', dEntrant2: '', dEntrant3: '', dRoundMin: '', dOpen: null, dInviteOnly: null, dCheckIn: null, dBotsAfter: null });

/** The steps by which the table view gets denser until it fits the window (styles.css). */
const FIT_LEVELS = ['dense', 'denser'];

export class App {
  constructor() {
    /** @type {Connection|null} */
    this.conn = null;
    this.connState = /** @type {import('./net.js').ConnState} */ ('offline');
    this.name = localStorage.getItem('burraco.name') ?? '';
    /** @type {Message[]} */
    this.tables = [];
    /** @type {TableState|null} */
    this.table = null;
    this.spectating = false;
    this.syncing = false;
    /** @type {string|null} */
    this.invite = null;
    // UI-only state (what the player is composing; never game state)
    /** @type {Set<string>} */
    this.selected = new Set();
    /** @type {'suit'|'rank'} */
    this.sortMode = /** @type {any} */ (localStorage.getItem('burraco.sort')) === 'rank' ? 'rank' : 'suit';
    /** @type {{text: string, kind: 'error'|'info'}|null} */
    this.message = null;
    /** @type {Overlay|null} */
    this.overlay = null;
    this.attachArmed = false;
    this.busy = false;
    /** @type {Record<string, any>} */
    this.verify = {};
    /** The match's finished hands, by number: from `hand_record` events, and after a reload from /api/tables/{id}/hands. @type {HandEntry[]} */
    this.hands = [];
    /** @type {any} */
    this.replayCache = null;
    this.firstWelcome = true;
    /**
     * What the lobby's and the tournament page's fields hold (kept across re-renders): strings,
     * checkboxes as booleans; `null` for a director's field not touched yet (the record's value shows).
     * @type {Record<string, any>}
     */
    this.lobbyForm = { preset: 'fitab', players: '4', length: 'default', hands: '2', target: '2005', clocks: '', semipulito: '', pulito: '', private: 'public', bots: '', rated: false, invite: '', chat: '',
      tName: '', tKind: 'pairs', tRoundCount: '1', tMove0: 'danish', tHands: '2', tPreset: 'fitab', tMax: '', tDup: false, tSeating: 'registration', tFull: false, tClocks: '',
      tInvite: '', tPartner: '', tBotsAfter: '', ...DIRECTOR_FIELDS };
    // ----- tournaments -----
    /** The lobby's tab. @type {'tables'|'tournaments'} */
    this.lobbyTab = session.get('burraco.lobbyTab') === 'tournaments' ? 'tournaments' : 'tables';
    /** `GET /api/tournaments`. @type {any[]} */
    this.tournaments = [];
    /** The tournament page open, with its record. @type {{id: string, record: any, error: string|null}|null} */
    this.tour = null;
    /** The tournament page shown over the table this page is seated at (the match goes on). */
    this.tourOverTable = false;
    /** The last `tournament_update` and `tournament_status` of each tournament. @type {Record<string, {update?: Message, status?: Message}>} */
    this.tourLive = {};
    /** Tournament records fetched, by id. @type {Record<string, any>} */
    this.tourRecords = {};
    /** Each tournament's entrants' levels (`GET /api/tournaments/{id}/levels`), by entrant: its players' levels in the order of its names. @type {Record<string, Record<number, (string|null)[]>>} */
    this.tourLevels = {};
    /** The lobby's tables that are a tournament's round, with its id and name. @type {Record<string, {id: string, name: string}>} */
    this.tourOfTable = {};
    /** Upcoming events with a start time, soonest first (`loadCalendar`). @type {{id: string, name: string, kind: string, starts: number, closes: number|null}[]} */
    this.calendar = [];
    /** Hand records of tournament tables (the duplicate comparison), by table id; and how many boards were revealed when asked. @type {Record<string, any[]>} */
    this.tourHands = {};
    /** @type {Record<string, number>} */
    this.tourHandsAsked = {};
    /** The seat each `go_to_table` held for this player, by tournament. @type {Record<string, {table: string, seat: string, round: number}>} */
    this.tourNext = {};
    /** The tournament of each table this page was sent to (kept in the tab). @type {Record<string, string>} */
    this.tourTables = session.get('burraco.tourTables') ?? {};
    /** An invite-only list's code, as `registration_configured` gave it to the director. @type {Record<string, string>} */
    this.dirInvite = {};
    /** The director's action waiting for its yes (withdraw, excuse, disqualify, end), if any. @type {string|null} */
    this.dirConfirm = null;
    /** The director's last warning to this player, shown until closed. @type {{id: string, reason: string}|null} */
    this.tourWarning = null;
    /** The tournament this connection watches (`watch_tournament`), once the server said ok. @type {string|null} */
    this.watchingTour = null;
    /** Each tournament's chat lines (1.7), by their number, oldest first. @type {Record<string, any[]>} */
    this.tourChat = {};
    /** The tournament chat line whose report form is open (`tournament:line`, 1.8), if any. @type {string|null} */
    this.tourReport = null;
    /** The tournament chat lines this page reported (`tournament:line`). @type {Set<string>} */
    this.tourReported = new Set();
    /** A round's table ready while the player looked elsewhere: the tab's title says so until they look. @type {number|null} */
    this.roundAttention = null;
    /** Counts the refresh timer's ticks (a watched tournament's record is read every fourth). */
    this.refreshTicks = 0;
    /** This session's stable player id (the welcome's `player`). @type {string|null} */
    this.playerId = null;
    /** What the server says this connection is (`identity`, 1.4): only a signed-in account may play rated. @type {'guest'|'player'|'bot'} */
    this.identity = 'guest';
    /** The signed-in account's id (`identity`'s `account`), null for a guest: it directs the tournaments it created without their key. @type {string|null} */
    this.accountId = null;
    /** The signed-in account's rating for the header (`GET /api/ratings/{account}`), null for a guest or until read. @type {import('./rating-chart.js').RatingRow|null} */
    this.myRating = null;
    /** The table's rated flag and its seats' levels (`table_levels`, 1.5), for the table shown. @type {{table: string, rated: boolean, levels: {seat: string, level: string}[]}|null} */
    this.seatLevels = null;
    /** Who holds each seat of the table shown (`seat_identities`, 1.6): a bot account is labelled apart from a server bot. @type {{table: string, seats: {seat: string, kind: string, server_bot: string|null}[]}|null} */
    this.seatKinds = null;
    /** Each seat's expected VP at a rated table before its first hand (`GET /api/tables/{id}/expected`). @type {{table: string, expected: {seat: string, vp: number}[]}|null} */
    this.expected = null;
    this.root = /** @type {HTMLElement} */ (document.getElementById('app'));
    this.renderQueued = false;
    this.lastHandKey = '';
    /** @type {any} */
    this.flashTimer = null;
    /** @type {null|'your_turn_title'|'clock_warn_title'} what the tab's title calls attention to */
    this.attention = null;
    /** The card this player just drew (marked in the hand until the discard). @type {string|null} */
    this.lastDrawn = null;
    /** @type {{meld?: number, pile?: boolean, seat?: string}|null} what just moved: animated once, in the next render */
    this.fresh = null;
    /** The last event number the kept log (sessionStorage) already holds. */
    this.keptLogSeq = 0;
    /** @type {number|null} a meld of mine to scroll into view after the next render */
    this.scrollToMeld = null;
    /** What the events since the last render moved (cards travel there in the next render). @type {import('./motion.js').Move[]} */
    this.moves = [];
    /**
     * A hand card held by a pointer (mouse, pen or touch): it follows the pointer once it has moved
     * DRAG_START px, and is dropped on a hand card (arrange), a meld (attach) or the pile (discard).
     * @type {{id: number, key: string, el: HTMLElement, x: number, y: number, active: boolean, over: HTMLElement|null}|null}
     */
    this.drag = null;
    /** A render asked for while a card is dragged (done at the drop). */
    this.renderAfterDrag = false;
    /** The address the page was opened at (a shared link), used once the server welcomed us. @type {ReturnType<typeof parseAddress>} */
    this.openedAt = null;
    /** When a button was pressed (0: none held), and a render asked for meanwhile (done at its release). */
    this.pressedAt = 0;
    this.renderAfterPress = false;
    /** The click that ends a drag (dispatched with its pointerup) is not a tap on a card. */
    this.noClick = false;
    /** The table log and chat opened (on a phone they are folded away). */
    this.sideOpen = false;
    /** The header's, the page's and the dialog's markup as last rendered. */
    this.lastHeaderHtml = '';
    this.lastRootHtml = '';
    this.lastOverlayHtml = '';
    /** The log line last said in the live region, and a turn to say with the next. @type {any} */
    this.lastAnnounced = null;
    /** @type {string|null} */
    this.turnSaid = null;
    /** When this page sat down at the current table (the "play with bots" offer waits a little). */
    this.enteredAt = 0;
    /**
     * The creating requests in flight (`create`, `quick`, `play-bots`, `rematch`, `t-create`,
     * `register`, `invite`): their buttons are disabled until the reply, so a double click
     * makes one table or tournament, not two.
     * @type {Set<string>}
     */
    this.inFlight = new Set();
    /** Why the name form refuses the name (the page's check, or the server's `invalid_name`). @type {string|null} */
    this.nameError = null;
    /** The name form is open over the lobby to change the name. */
    this.changingName = false;
  }

  /**
   * Runs the creating request `make` unless `key` is in flight already; its button is disabled
   * meanwhile. A `repeated_create` refusal (the server's guard against the same create twice) is
   * the first request's echo: said nothing of.
   * @template T @param {string} key @param {() => Promise<T>} make @returns {Promise<T|null>}
   */
  async once(key, make) {
    if (this.inFlight.has(key)) return null;
    this.inFlight.add(key);
    this.render();
    try {
      return await make();
    } finally {
      this.inFlight.delete(key);
      this.render();
    }
  }

  /** @param {unknown} e */
  showCreateError(e) {
    if (e instanceof ServerError && e.code === ErrorCode.RepeatedCreate) return;
    this.showError(e);
  }

  /**
   * The name as the server will take it, or null with the reason shown on the name form.
   * @param {string} raw
   */
  checkedName(raw) {
    const r = checkLine(raw, MAX_NAME);
    if (r.ok) { this.nameError = null; return r.text; }
    this.nameError = r.error === 'empty' ? t('name_required') : r.error === 'long' ? t('name_long', { max: MAX_NAME, n: [...raw.trim()].length }) : t('name_chars');
    this.render();
    return null;
  }

  start() {
    setLang(getLang());
    document.addEventListener('click', (e) => this.onClick(e));
    document.addEventListener('change', (e) => this.onChange(e));
    document.addEventListener('input', (e) => {
      // Keep what is typed (a re-render must not lose it), without re-rendering under the caret.
      const el = /** @type {HTMLInputElement} */ (e.target);
      if (el.dataset && el.dataset.field && el.type !== 'checkbox') this.lobbyForm[el.dataset.field] = el.value;
    });
    document.addEventListener('submit', (e) => this.onSubmit(e));
    document.addEventListener('keydown', (e) => this.onKey(e));
    // The player looks at the page again: a round's table announced in the title has been seen.
    const seen = () => { if (this.roundAttention != null) { this.roundAttention = null; this.render(); } };
    window.addEventListener('focus', seen);
    document.addEventListener('pointerdown', seen);
    document.addEventListener('keydown', seen);
    // Drag where it helps, with pointer events (mouse, pen and touch alike): a hand card dropped on
    // another arranges the hand, on one of the side's melds attaches it (with the other selected
    // cards), on the discard pile discards it. A tap (no movement) still selects; clicks and keys do the rest.
    document.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    // A button being pressed is not replaced under the pointer: a re-render between its press
    // and its release (a record read again every few seconds re-renders a page whose fields
    // were typed in) took the click with it. Renders wait for the release (at most a second).
    document.addEventListener('pointerdown', (e) => {
      if (e.target instanceof Element && e.target.closest('button, [data-action]')) this.pressedAt = Date.now();
    }, true);
    const release = () => {
      if (!this.pressedAt) return;
      this.pressedAt = 0;
      if (this.renderAfterPress) { this.renderAfterPress = false; this.render(); }
    };
    // After the click the release makes (a click follows its pointerup).
    document.addEventListener('pointerup', () => setTimeout(release, 0), true);
    document.addEventListener('pointercancel', release, true);
    addEventListener('blur', release);
    document.addEventListener('pointermove', (e) => this.onPointerMove(e));
    document.addEventListener('pointerup', (e) => this.onPointerUp(e));
    document.addEventListener('pointercancel', (e) => this.endDrag(e, false));
    // A held card goes back when the window loses the focus (its pointer's release may never come).
    addEventListener('blur', () => { if (this.drag) this.endDrag(/** @type {any} */ ({ pointerId: this.drag.id }), false); });
    // A card dragged by touch is not a scroll: no fling after it that would swallow the next tap.
    document.addEventListener('touchmove', (e) => { if (this.drag?.active) e.preventDefault(); }, { passive: false });
    setInterval(() => this.tickClocks(), 250);
    // Addresses (#table/<id>, #tournament/<id>, #tournaments): Back, reload and a shared link
    // land where they say, inside the app.
    addEventListener('popstate', () => this.onAddress());
    this.openedAt = parseAddress(location.hash);
    // The table is laid out for the window's size (fitTable): fitted again, not re-rendered (a
    // re-render would replace what is being pressed, and a phone may fire resize often).
    addEventListener('resize', () => { this.fitTable(true); this.placeSidePanel(); });
    // The lobby list refreshes itself while it is on screen.
    setInterval(() => { if (!this.table && !this.tour && this.lobbyTab === 'tables' && this.connState === 'online') this.listTables(); }, 5000);
    // So do the tournaments' list and the tournament page (the record is the whole event).
    setInterval(() => this.refreshTournaments(), 2500);
    // A name an older page accepted, which the server refuses, is not sent again and again.
    if (this.name && this.checkedName(this.name)) this.connect();
    this.render();
  }

  connect() {
    if (this.conn) return;
    this.conn = new Connection({
      url: serverUrl(),
      name: this.name,
      onEvent: (m) => this.onServerEvent(m),
      onState: (s) => { this.connState = s; this.render(); },
      onWelcome: (m) => this.onWelcome(m),
      onNameRefused: () => this.onNameRefused(),
    });
    /** @type {any} */ (window).__burraco = this;
    this.conn.connect();
  }

  /** The server refused the name (`invalid_name`, then it closes): back to the name form, saying why. */
  onNameRefused() {
    this.conn?.close({ forget: true });
    this.conn = null;
    this.firstWelcome = true;
    this.nameError = t('name_refused');
    this.message = null;
    this.render();
  }

  /**
   * A new name: a new session (a resumed session keeps its name), from the lobby only. The old
   * session's tables and tournament entries stay under the old name.
   * @param {string} name
   */
  changeName(name) {
    this.changingName = false;
    if (name === this.name && this.conn) { this.render(); return; }
    this.conn?.close({ forget: true });
    this.conn = null;
    this.firstWelcome = true;
    this.table = null; this.tour = null; this.tourOverTable = false; this.invite = null; this.hands = [];
    session.set('burraco.tourPage', null);
    this.name = name;
    localStorage.setItem('burraco.name', name);
    this.connect();
    this.render();
  }

  // ----- server messages ---------------------------------------------------------------------

  /** @param {Message} m */
  async onWelcome(m) {
    const first = this.firstWelcome;
    this.firstWelcome = false;
    this.playerId = m.player ?? null;
    // Back after a reload on a tournament's page.
    const page = session.get('burraco.tourPage');
    if (first && typeof page === 'string' && !this.tour) this.openTournament(page);
    // A new connection watches nothing yet.
    this.watchingTour = null;
    if (!first && this.tour) this.watchTour(this.tour.id);
    if (this.table) {
      // A reconnection: catch up from the last number seen.
      if (this.spectating) {
        this.table = emptyTable(this.table.table);
        this.request('spectate', { table: this.table.table });
      } else if (m.seats.some((/** @type {any} */ s) => s.table === this.table?.table)) {
        this.sync();
      } else {
        this.flash(t('e_generic', { msg: refusalText({ message: 'seat lost', code: 'not_at_table' }) }), 'error');
        this.table = null;
      }
    } else if (m.seats.length > 0) {
      // Back after a reload: the session still holds a seat (a tournament's: its record too).
      this.enterTable(m.seats[0].table, false);
      this.sync();
      const tid = this.tourTables[m.seats[0].table];
      if (tid) this.loadTour(tid);
    } else {
      this.listTables();
      // A shared link to a table this session does not sit at: watch it.
      const at = first && !m.resumed ? this.openedAt : null;
      if (at?.kind === 'table') { this.enterTable(at.id, true); this.request('spectate', { table: at.id }).catch((x) => { this.table = null; this.showError(x); }); }
    }
    // A shared link to a tournament's page.
    if (first && this.openedAt?.kind === 'tournament' && !this.tour) this.openTournament(this.openedAt.id);
    else if (first && this.openedAt?.kind === 'tournaments' && !this.table) this.lobbyTab = 'tournaments';
    else if (first && this.openedAt?.kind === 'replay') this.tourReplay(`/api/tables/${this.openedAt.id}/hands`, this.openedAt.id);
    if (first && m.resumed) this.flash(t('welcome_back', { name: m.name }), 'info');
    this.render();
  }

  sync() {
    const st = this.table;
    if (!st || this.syncing) return;
    this.syncing = true;
    const table = st.table;
    this.request('sync', { table, last_seq: st.seq }).finally(() => { this.syncing = false; });
  }

  /** @param {Message} m */
  onServerEvent(m) {
    if (m.type === 'identity') {
      this.identity = m.kind === 'player' || m.kind === 'bot' ? m.kind : 'guest';
      this.accountId = this.identity === 'guest' ? null : (m.account ?? null);
      if (!this.accountId) this.myRating = null;
      else this.loadMyRating();
      this.render();
      return;
    }
    if (m.type === 'goodbye') { this.flash(m.reason, 'info'); return; }
    if (m.type === 'error' && m.id == null) { this.flash(m.message, 'error'); return; }
    if (m.type === 'tournament_update' || m.type === 'tournament_status' || m.type === 'go_to_table') { this.onTournamentMessage(m); return; }
    if (m.type === 'quick_play_moved') { this.onQuickPlayMoved(m); return; }
    if (m.type === 'tournament_chat_message') { this.addTourChat(/** @type {string} */ (m.tournament), [m.line]); this.render(); return; }
    const st = this.table;
    if (!st || m.table !== st.table) return;
    const now = Date.now();
    if (m.type === 'snapshot') {
      applyMessage(st, m, now);
      this.tourBotSeats(st);
      this.refreshLevels(st);
    } else if (m.type === 'table_paused') {
      applyPause(st, m, now);
    } else if (m.type === 'same_address') {
      applySameAddress(st, m);
    } else if (typeof m.seq === 'number') {
      if (m.seq <= st.seq) return; // already seen (a sync replays what a live frame may have brought)
      if (m.seq !== st.seq + 1) { this.sync(); return; } // a gap: ask for what we missed
      const logLen = st.log.length, chatLen = st.chat.length;
      applyMessage(st, m, now);
      // Whose turn it is, for the live region (the log has no line for a turn).
      if (m.type === 'turn_started') this.turnSaid = !this.spectating && m.seat === st.you ? t('your_turn') : t('turn_of', { name: nameOf(st, m.seat) });
      // After a reload the log and chat come back from this tab's storage: a catch-up of events
      // already in them must not log them twice.
      if (m.seq <= this.keptLogSeq) { st.log.length = logLen; st.chat.length = chatLen; }
      if (m.type === 'hand_ended') { this.overlay = { kind: 'score', hand: m.hand }; this.verify = {}; }
      if (m.type === 'hand_record') this.addHand(m.hand, m.record);
      if (m.type === 'player_joined' || m.type === 'player_left' || m.type === 'player_replaced_by_bot') this.refreshLevels(st);
      // The next deal closes the score screen; it stays reachable from "Hands".
      if (m.type === 'hand_started') { if (this.overlay?.kind === 'score' || (this.overlay?.kind === 'replay' && !this.overlay.hands) || this.overlay?.kind === 'history') this.overlay = null; }
      if (m.type === 'match_ended') {
        this.overlay = { kind: 'score', hand: null };
        // The ratings are written just after the match ends (a projection of its end): read them again soon.
        if (this.accountId && this.seatLevels?.table === st.table && this.seatLevels.rated) for (const ms of [1000, 4000]) setTimeout(() => this.loadMyRating(), ms);
      }
      if (m.type === 'dealt' && m.seat === st.you && st.hand?.commitment) session.set(dealtKey(st.hand.commitment), { you: st.you, cards: m.cards });
      // Attention: a beep and the tab's title, for my turn and for my clock's grace.
      if (!this.spectating && st.you && m.seat === st.you) {
        if (m.type === 'turn_started') { this.attention = 'your_turn_title'; beep(1, 880); this.notify(t('your_turn_title'), `${t('table')} ${st.table}`); }
        if (m.type === 'grace_started') { this.attention = 'clock_warn_title'; beep(3, 660); }
        if (m.type === 'drew_card') this.lastDrawn = m.card;
        if (m.type === 'picked_up') this.lastDrawn = m.cards.length === 1 ? m.cards[0] : null;
        if (m.type === 'discarded') { this.attention = null; this.lastDrawn = null; }
        // My meld: bring it into view (on a phone the melds may be scrolled away).
        if (m.type === 'opened' || m.type === 'attached') this.scrollToMeld = m.meld.id;
      }
    }
    // Cards that travel in the next render (motion.js).
    if (m.type === 'snapshot') this.moves = [];
    else if (typeof m.seq === 'number') this.queueMove(st, m);
    // One-shot movement cues for the next render only (a later render must not replay them).
    if (m.type === 'opened' || m.type === 'attached') this.fresh = { meld: m.meld.id };
    else if (m.type === 'discarded') this.fresh = { pile: true };
    else if (m.type === 'picked_up' || m.type === 'drew') this.fresh = { seat: m.seat };
    this.saveLog();
    const h = st.hand;
    const key = h ? `${h.number}:${(h.hand ?? []).join(',')}` : '';
    if (key !== this.lastHandKey) {
      // The hand changed (a server event): what was selected no longer applies.
      this.lastHandKey = key;
      this.selected.clear();
      this.attachArmed = false;
    }
    this.render();
  }

  /** What an event moves, for the next render. @param {TableState} st @param {Message} m */
  queueMove(st, m) {
    const mine = !!st.you && !this.spectating && m.seat === st.you;
    if (m.type === 'drew_card' && mine) this.moves.push({ kind: 'draw', codes: [m.card], from: 'tallone' });
    else if (m.type === 'picked_up' && mine && Array.isArray(m.cards)) this.moves.push({ kind: 'draw', codes: m.cards, from: 'pile' });
    else if (m.type === 'discarded') this.moves.push({ kind: 'discard', seat: m.seat, code: m.card, mine });
    else if ((m.type === 'opened' || m.type === 'attached') && m.meld) this.moves.push({ kind: 'meld', seat: m.seat, meld: m.meld.id, codes: m.cards ?? [], mine });
    if (this.moves.length > 40) this.moves.splice(0, this.moves.length - 40);
  }

  // ----- requests ----------------------------------------------------------------------------

  /** @param {string} type @param {Record<string, any>} [fields] */
  async request(type, fields) {
    if (!this.conn) throw new Error('not connected');
    return this.conn.request(type, fields);
  }

  /** The lobby's tables, each with its rated flag and its seats' levels (`list_lobby`, 1.5; `list_tables` from an older server). */
  listTables() {
    this.request('list_lobby')
      .catch(() => this.request('list_tables'))
      .then((r) => { this.tables = r.tables; this.render(); this.labelTourTables(); }).catch(() => {});
  }

  /**
   * Who holds each seat (`seat_identities`: a bot account or a server bot), the levels of the table's seats (`table_levels`), and at a rated table whose match has not
   * started its expected result (`GET /api/tables/{id}/expected`): after the snapshot and each
   * change of who sits. Levels are a nicety: a refusal leaves the names bare.
   * @param {TableState} st
   */
  refreshLevels(st) {
    const table = st.table;
    this.request('seat_identities', { table }).then((r) => {
      if (this.table?.table !== table) return;
      this.seatKinds = { table, seats: Array.isArray(r.seats) ? r.seats : [] };
      this.render();
    }).catch(() => {});
    this.request('table_levels', { table }).then((r) => {
      if (this.table?.table !== table) return;
      this.seatLevels = { table, rated: !!r.rated, levels: Array.isArray(r.levels) ? r.levels : [] };
      this.render();
      if (r.rated && !st.hand && !st.matchEnded) {
        this.fetchApi(`/api/tables/${encodeURIComponent(table)}/expected`).then((x) => {
          if (this.table?.table !== table || !x || !Array.isArray(x.expected)) return;
          this.expected = { table, expected: x.expected };
          this.render();
        });
      }
    }).catch(() => {});
  }

  /**
   * The lobby's tournament labels: which listed tables are a tournament's, from the playing
   * tournaments' records (`GET /api/tournaments`, then each one's record when its round changed):
   * the lobby's own list says nothing of tournaments, and its messages' fields never change.
   */
  async labelTourTables() {
    const list = await this.fetchApi('/api/tournaments');
    if (!Array.isArray(list)) return;
    /** @type {Record<string, {id: string, name: string}>} */
    const labels = {};
    for (const summary of list.filter((x) => x.status === 'playing').slice(0, 16)) {
      let rec = this.tourRecords[summary.tournament];
      if (!rec || rec.rounds.length !== summary.round) {
        rec = await this.fetchApi(`/api/tournaments/${encodeURIComponent(summary.tournament)}`);
        if (!rec) continue;
        this.tourRecords[summary.tournament] = rec;
      }
      for (const tb of rec.rounds.at(-1)?.tables ?? []) labels[tb.table] = { id: summary.tournament, name: rec.settings.name };
    }
    this.tourOfTable = labels;
    this.render();
  }

  /** @param {string} text @param {'error'|'info'} kind */
  flash(text, kind) {
    const m = { text, kind };
    this.message = m;
    // Notices close by themselves (a refusal stays a little longer); the × closes them at once.
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => { if (this.message === m) { this.message = null; this.render(); } }, kind === 'error' ? 5000 : 3500);
    this.render();
  }

  /** @param {unknown} e */
  showError(e) {
    if (e instanceof ServerError) {
      const text = e.code === ErrorCode.IllegalAction ? t('e_illegal', { msg: refusalText(e) }) : refusalText(e);
      this.flash(text, 'error');
    } else {
      this.flash(refusalText({ message: e instanceof Error ? e.message : String(e) }), 'error');
    }
  }

  /**
   * A finished hand's record (a JSON string from `hand_record`, or an object from /api).
   * @param {number|null} hand @param {string|Record<string, any>} record
   */
  addHand(hand, record) {
    let rec, raw;
    try {
      rec = typeof record === 'string' ? JSON.parse(record) : record;
      raw = typeof record === 'string' ? record : JSON.stringify(record);
    } catch { return; }
    const n = hand ?? this.hands.length + 1;
    if (this.hands.some((x) => x.hand === n)) return;
    this.hands.push({ hand: n, rec, raw });
    this.hands.sort((a, b) => a.hand - b.hand);
    this.render();
  }

  /** The signed-in account's rating, for the header (docs/ACCOUNTS.md, `GET /api/ratings/{account}`). */
  async loadMyRating() {
    const account = this.accountId;
    if (!account) return;
    for (const base of apiBases()) {
      try {
        const res = await fetch(`${base}/api/ratings/${encodeURIComponent(account)}`);
        if (!res.ok) continue;
        const json = await res.json();
        if (this.accountId !== account) return;
        this.myRating = headlineRating(json);
        this.render();
        return;
      } catch { /* the next base */ }
    }
  }

  /** The records of the table's finished hands, from the server's HTTP API (after a reload, or on watching). @param {string} table */
  async loadHands(table) {
    for (const base of apiBases()) {
      try {
        const res = await fetch(`${base}/api/tables/${encodeURIComponent(table)}/hands`);
        if (!res.ok) continue;
        const list = await res.json();
        if (this.table?.table !== table || !Array.isArray(list)) return;
        list.forEach((r, i) => { const rec = typeof r === 'string' ? JSON.parse(r) : r; if (rec && rec.outcome) this.addHand(i + 1, rec); });
        return;
      } catch { /* the next base */ }
    }
  }

  /**
   * 1.9 `quick_play_moved`: quick play brought the players of this waiting table to another,
   * where a seat is held for this player: join it and show that table (ready again if the player
   * was ready here). @param {Message} m
   */
  onQuickPlayMoved(m) {
    const st = this.table;
    if (!st || st.table !== m.from || this.spectating) return;
    const wasReady = st.seats.some((s) => s.seat === st.you && s.ready);
    this.request('join', { table: m.table, seat: m.seat, invite: null })
      .then((r) => {
        this.enterTable(r.table, false);
        this.flash(t('quick_play_moved', { table: r.table }), 'info');
        if (wasReady) return this.request('ready', { table: r.table }).then(() => {}, () => {});
      })
      .catch(() => {
        // The seat went before the join (its table started, or let it go): back to the lobby.
        this.table = null;
        this.flash(t('quick_play_moved_gone'), 'error');
      })
      .finally(() => this.render());
  }

  /** The table log and chat, kept in this tab per table, so a reload shows them again. */
  saveLog() {
    const st = this.table;
    if (st) session.set(`burraco.log.${st.table}`, { seq: st.seq, log: st.log.slice(-200), chat: st.chat.slice(-50) });
  }

  /** Enter a table after `seated`/`table_created` (the snapshot follows). @param {string} table @param {boolean} spectating */
  enterTable(table, spectating) {
    this.table = emptyTable(table);
    const kept = session.get(`burraco.log.${table}`);
    this.keptLogSeq = kept?.seq ?? 0;
    if (kept) { this.table.log = kept.log ?? []; this.table.chat = kept.chat ?? []; }
    this.hands = [];
    this.verify = {};
    this.enteredAt = Date.now();
    setTimeout(() => this.render(), BOTS_OFFER_MS + 50);
    this.loadHands(table);
    this.spectating = spectating;
    this.selected.clear();
    this.overlay = null;
    this.message = null;
  }

  /**
   * A game action: the reply only says ok or why not; the screen changes with the events.
   * @param {string} type @param {Record<string, any>} [fields]
   */
  async act(type, fields = {}) {
    const st = this.table;
    if (!st || this.busy) return;
    this.busy = true;
    this.message = null;
    try {
      await this.request(type, { table: st.table, ...fields });
      this.attachArmed = false;
    } catch (e) {
      if (e instanceof ServerError && e.rule === RuleCode.WildPositionAmbiguous) {
        const options = (e.message.match(/\[([\d,\s]+)\]/)?.[1] ?? '').split(',').map((x) => parseInt(x, 10)).filter((x) => x > 0);
        this.overlay = { kind: 'wild', options, action: type, fields };
      } else {
        this.showError(e);
      }
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** The selected cards' codes, in hand order. */
  selectedCards() {
    const h = this.table?.hand?.hand ?? [];
    return this.handKeys(h).filter((k) => this.selected.has(k.key)).map((k) => k.code);
  }

  /**
   * Stable keys for a hand's cards: code#n for the n-th copy, in display order.
   * @param {string[]} hand
   */
  handKeys(hand) {
    /** @type {Record<string, number>} */
    const seen = {};
    return this.arranged(hand).map((code) => {
      const n = seen[code] = (seen[code] ?? -1) + 1;
      return { code, key: `${code}#${n}` };
    });
  }

  /**
   * The hand in display order: sorted by suit or rank, or as the player arranged it by dragging
   * (kept in this browser per table; cards new to the hand go at the end, sorted).
   * @param {string[]} hand
   */
  arranged(hand) {
    const sorted = sortCards(hand, this.sortMode);
    const order = this.table ? session.get(this.orderKey(this.table)) : null;
    if (!Array.isArray(order)) return sorted;
    const rest = [...sorted];
    /** @type {string[]} */
    const out = [];
    for (const code of order) {
      const i = rest.indexOf(code);
      if (i >= 0) { out.push(code); rest.splice(i, 1); }
    }
    return [...out, ...rest];
  }

  /** Where this tab keeps the arranged order of the hand in play (per table and hand). @param {TableState} st */
  orderKey(st) {
    return `burraco.order.${st.table}.${st.hand?.number ?? 0}`;
  }

  /** Moves the hand card `key` to where `targetKey` is (drag within the hand). @param {string} key @param {string} targetKey */
  moveCard(key, targetKey) {
    const st = this.table;
    if (!st || !st.hand?.hand || key === targetKey) return;
    const keys = this.handKeys(st.hand.hand);
    const from = keys.findIndex((k) => k.key === key);
    const to = keys.findIndex((k) => k.key === targetKey);
    if (from < 0 || to < 0) return;
    const codes = keys.map((k) => k.code);
    const [moved] = codes.splice(from, 1);
    codes.splice(to, 0, moved);
    session.set(this.orderKey(st), codes);
    this.selected.clear();
    this.render();
  }

  // ----- tournaments -------------------------------------------------------------------------

  /** `tournament_update`, `tournament_status`, `go_to_table` (docs/PROTOCOL.md section 3). @param {Message} m */
  onTournamentMessage(m) {
    const id = /** @type {string} */ (m.tournament);
    const live = this.tourLive[id] ?? (this.tourLive[id] = {});
    if (m.type === 'tournament_update') {
      live.update = m;
      if (m.table) this.noteTourTable(m.table, id);
      // The page shows the record: fetched again on every change.
      if (this.tour?.id === id || (this.table && this.tourTables[this.table.table] === id)) this.loadTour(id);
    } else if (m.type === 'tournament_status') {
      const before = live.status?.warnings;
      // Paused, the round's end moves on with the pause: what is left is held still until resumed.
      live.status = { ...m, held_ms: m.paused && m.round_ends_ms ? Math.max(0, m.round_ends_ms - Date.now()) : null };
      // A director's warning: the warned player is told, at the table too (not only a count).
      if (before != null && (m.warnings ?? 0) > before) this.tellWarning(id);
    } else if (m.type === 'go_to_table') {
      // Sent again on each new connection until the match is played: told once per table.
      const fresh = this.tourNext[id]?.table !== m.table;
      this.tourNext[id] = { table: m.table, seat: m.seat, round: m.round };
      this.noteTourTable(m.table, id);
      if (fresh) {
        // The tab's title too, until the player looks (focus, a click, a key).
        if (!document.hasFocus()) this.roundAttention = m.round;
        this.notify(t('t_round_started', { n: m.round }), `${this.tourRecords[id]?.settings?.name ?? id} — ${t('table')} ${m.table}`);
      }
      this.goToTable(id, m.table, m.seat, m.round);
    }
    this.render();
  }

  /**
   * At a tournament's table, the seats of the server bots that fill a Sit&Go (the record's
   * `server_bot` entrants, named "Bot 2"...) are bots of the server, not bots standing in for someone away.
   * @param {TableState} st
   */
  tourBotSeats(st) {
    const id = this.tourTables[st.table];
    const rec = id ? this.tourRecords[id] : null;
    if (!rec) return;
    const names = new Set((rec.entrants ?? []).filter((/** @type {any} */ e) => e.server_bot).flatMap((/** @type {any} */ e) => e.names));
    for (const s of st.seats) if (s.bot && s.standIn && !s.left && names.has(s.name)) s.standIn = false;
  }

  /**
   * Says the director's latest warning to this player, with its reason from the record; it
   * stays over the table (the tournament strip) until closed. @param {string} id
   */
  async tellWarning(id) {
    await this.loadTour(id);
    const rec = this.tourRecords[id];
    const mine = myEntrant(rec, this.playerId);
    const list = (rec?.warnings ?? []).filter((/** @type {any} */ w) => mine && w.entrant === mine.entrant);
    const reason = list.length ? String(list[list.length - 1].reason ?? '') : '';
    this.tourWarning = { id, reason };
    this.flash(t('t_warned', { reason }), 'error');
  }

  /**
   * The tournament chat's recent lines (1.7 `tournament_chat_history`), for a page opened or
   * reloaded; an older server has none. @param {string} id
   */
  loadTourChat(id) {
    this.request('tournament_chat_history', { tournament: id })
      .then((r) => { this.addTourChat(id, r.lines ?? []); this.render(); })
      .catch(() => {});
  }

  /** Lines into a tournament's chat, each once (the history and live lines meet). @param {string} id @param {any[]} lines */
  addTourChat(id, lines) {
    const list = this.tourChat[id] ?? (this.tourChat[id] = []);
    for (const l of lines) if (l && !list.some((x) => x.line === l.line)) list.push(l);
    list.sort((a, b) => a.line - b.line);
    if (list.length > 100) list.splice(0, list.length - 100);
  }

  /**
   * A line to the open tournament's chat: checked as the server checks it, said as the director
   * when this tab holds the director's key (or its account created the event), else as an entrant.
   * @param {string} raw
   */
  sayInTournament(raw) {
    const id = this.tour?.id;
    if (!id || !raw.trim()) return;
    const line = checkLine(raw, MAX_CHAT);
    if (!line.ok) { this.flash(line.error === 'long' ? t('chat_long', { max: MAX_CHAT, n: [...raw.trim()].length }) : t('chat_chars'), 'error'); return; }
    const director = this.directorToken(id);
    this.request('tournament_chat', { tournament: id, director, text: line.text })
      .then(() => { this.lobbyForm.tChat = ''; this.render(); })
      .catch((x) => {
        const code = x?.code;
        this.flash(code === 'chat_closed' ? t('t_chat_closed') : code === 'muted' ? t('t_chat_muted') : tournamentRefusalText(x), 'error');
      });
  }

  /**
   * A line of the open tournament's chat reported to the moderators (1.8 `tournament_report`),
   * with a reason and an optional note (the server's text rule, checked here first).
   * @param {number} line @param {string} reason @param {string} raw
   */
  reportTourLine(line, reason, raw) {
    const id = this.tour?.id;
    if (!id || !Number.isInteger(line)) return;
    let note = null;
    if (raw.trim()) {
      const checked = checkLine(raw, 500);
      if (!checked.ok) { this.flash(checked.error === 'long' ? t('chat_long', { max: 500, n: [...raw.trim()].length }) : t('chat_chars'), 'error'); return; }
      note = checked.text;
    }
    this.request('tournament_report', { tournament: id, line, reason, note })
      .then(() => {
        this.tourReported.add(`${id}:${line}`);
        this.tourReport = null;
        this.lobbyForm.tReportNote = '';
        this.flash(t('t_report_filed'), 'info');
      })
      .catch((x) => {
        const code = x?.code;
        this.flash(code === 'too_many_reports' ? t('t_report_too_many') : code === 'invalid_report' ? t('t_report_invalid') : tournamentRefusalText(x), 'error');
      });
  }

  /** Whether desktop notifications are on: the player asked for them and the browser allows them. */
  notifying() {
    return typeof Notification !== 'undefined' && Notification.permission === 'granted' && localStorage.getItem('burraco.notify') === 'on';
  }

  /** The bell: asks the browser the first time, then turns the notifications on or off. */
  async toggleNotifications() {
    if (typeof Notification === 'undefined') return;
    if (this.notifying()) { localStorage.setItem('burraco.notify', 'off'); this.render(); return; }
    const answer = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    if (answer === 'granted') localStorage.setItem('burraco.notify', 'on');
    else this.flash(t('notify_blocked'), 'info');
    this.render();
  }

  /**
   * A desktop notification (your turn, a round starts) when the player turned them on and is
   * looking elsewhere; the tab's title and the beep say it too. @param {string} title @param {string} body
   */
  notify(title, body) {
    if (!this.notifying() || document.hasFocus()) return;
    try { new Notification(title, { body, tag: 'burraco' }); } catch { /* some browsers only notify from a service worker */ }
  }

  /** @param {string} table @param {string} id */
  noteTourTable(table, id) {
    if (this.tourTables[table] === id) return;
    this.tourTables[table] = id;
    session.set('burraco.tourTables', this.tourTables);
  }

  /**
   * A round started: the page takes the player to the seat held for them (join, then ready), with
   * a notice; unless they are in a match of their own, which they finish first (the tournament
   * page then has "Go to my table").
   * @param {string} id @param {string} table @param {string} seat @param {number} round
   */
  goToTable(id, table, seat, round) {
    const cur = this.table;
    if (cur && cur.table === table) return;
    if (cur && !this.spectating && cur.you && (cur.status === 'playing' || cur.status === 'between_hands') && !this.tourTables[cur.table]) {
      this.flash(t('t_go_pending', { round }), 'info');
      return;
    }
    this.joinTournamentTable(id, table, seat, round);
  }

  /** @param {string} id @param {string} table @param {string} seat @param {number} round */
  joinTournamentTable(id, table, seat, round) {
    const cur = this.table;
    if (cur && cur.table === table) { this.tourOverTable = false; this.overlay = null; this.render(); return; }
    if (cur) {
      // A table being watched, or waiting for its players, is left; a finished one is just closed.
      if (this.spectating || cur.status === 'waiting') this.request('leave', { table: cur.table }).catch(() => {});
      this.table = null; this.invite = null; this.overlay = null; this.hands = [];
    }
    this.tourOverTable = false;
    this.loadTour(id);
    const notice = () => this.flash(t('t_going', { round, seat: t(/** @type {any} */ (`seat_${seat}`)) }), 'info');
    this.request('join', { table, seat, invite: null })
      .then((r) => {
        this.enterTable(r.table, false);
        notice();
        return this.request('ready', { table: r.table }).catch(() => { /* already started: nothing to be ready for */ });
      })
      .catch(() => {
        // The seat is this session's already (the page was reloaded, or came back from the
        // tournament page): catch up with the table.
        this.enterTable(table, false);
        notice();
        this.sync();
        this.request('ready', { table }).catch(() => {});
      });
  }

  /** @param {string} id */
  openTournament(id) {
    if (this.tour?.id !== id) Object.assign(this.lobbyForm, DIRECTOR_FIELDS);
    this.tour = { id, record: this.tourRecords[id] ?? null, error: null };
    session.set('burraco.tourPage', id);
    this.loadTour(id);
    this.watchTour(id);
    this.render();
  }

  /**
   * Asks to hear the tournament's updates (`watch_tournament`, 1.3): the page then follows them
   * and polls the record only now and then; without the answer (an older server) it polls.
   * @param {string} id
   */
  watchTour(id) {
    if (this.connState !== 'online') return;
    this.loadTourChat(id);
    this.request('watch_tournament', { tournament: id })
      .then(() => { this.watchingTour = id; })
      .catch(() => { this.watchingTour = null; });
  }

  closeTournament() {
    this.tour = null;
    this.tourOverTable = false;
    session.set('burraco.tourPage', null);
    this.lobbyTab = 'tournaments';
    session.set('burraco.lobbyTab', this.lobbyTab);
    this.listTournaments();
    this.render();
  }

  /**
   * GET a path of the server's /api: the parsed JSON, `null` for a 404, `undefined` when no base answered.
   * @param {string} path
   */
  async fetchApi(path) {
    for (const base of apiBases()) {
      try {
        const res = await fetch(`${base}${path}`);
        if (res.status === 404) return null;
        if (!res.ok) continue;
        return await res.json();
      } catch { /* the next base */ }
    }
    return undefined;
  }

  listTournaments() {
    this.fetchApi('/api/tournaments').then((list) => {
      if (!Array.isArray(list)) return;
      const order = { registering: 0, playing: 1, finished: 2 };
      this.tournaments = list.sort((a, b) => (/** @type {any} */ (order)[a.status] ?? 3) - (/** @type {any} */ (order)[b.status] ?? 3) || String(a.name).localeCompare(String(b.name)));
      this.render();
      this.loadCalendar(list).catch(() => {});
    });
  }

  /**
   * The calendar: the events still registering that have a start time (their records' registration,
   * `GET /api/tournaments/{id}`; the list does not say it), soonest first.
   * @param {any[]} list
   */
  async loadCalendar(list) {
    /** @type {{id: string, name: string, kind: string, starts: number, closes: number|null}[]} */
    const entries = [];
    for (const x of list.filter((y) => y.status === 'registering').slice(0, 24)) {
      const rec = await this.fetchApi(`/api/tournaments/${encodeURIComponent(x.tournament)}`);
      if (!rec) continue;
      this.tourRecords[x.tournament] = rec;
      const reg = rec.registration ?? {};
      if (reg.starts_ms != null) entries.push({ id: x.tournament, name: rec.settings.name, kind: rec.settings.kind, starts: reg.starts_ms, closes: reg.closes_ms ?? null });
    }
    this.calendar = entries.sort((a, b) => a.starts - b.starts);
    this.render();
  }

  /** The record of tournament `id`, then (not awaited) the hand records its duplicate comparison needs. @param {string} id */
  async loadTour(id) {
    const rec = await this.fetchApi(`/api/tournaments/${encodeURIComponent(id)}`);
    if (rec === undefined) return;
    if (rec === null) {
      if (this.tour?.id === id) { this.tour.error = t('err_unknown_tournament'); this.render(); }
      return;
    }
    this.tourRecords[id] = rec;
    if (this.tour?.id === id) { this.tour.record = rec; this.tour.error = null; }
    if (this.table) this.tourBotSeats(this.table);
    this.render();
    // Levels only where a player registered signed in (a guest's or an older event has none).
    if ((rec.entrants ?? []).some((/** @type {any} */ e) => (e.accounts ?? []).some(Boolean))) this.loadTourLevels(id).catch(() => {});
    // Not awaited: whoever waits for the record does not wait for the comparison's hand records.
    this.loadTourHands(rec).catch(() => {});
  }

  /** The entrants' levels beside their names in the standings. @param {string} id */
  async loadTourLevels(id) {
    const x = await this.fetchApi(`/api/tournaments/${encodeURIComponent(id)}/levels`);
    if (!x || !Array.isArray(x.entrants)) return;
    /** @type {Record<number, (string|null)[]>} */
    const by = {};
    for (const e of x.entrants) by[e.entrant] = Array.isArray(e.levels) ? e.levels : [];
    const before = JSON.stringify(this.tourLevels[id] ?? {});
    this.tourLevels[id] = by;
    if (JSON.stringify(by) !== before) this.render();
  }

  /** The hand records the duplicate comparison of record `rec` needs and has not asked for yet. @param {any} rec */
  async loadTourHands(rec) {
    for (const w of handRecordsWanted(rec, this.tourHands)) {
      if (this.tourHandsAsked[w.table] === w.revealed) continue;
      this.tourHandsAsked[w.table] = w.revealed;
      const list = await this.fetchApi(w.url);
      if (!Array.isArray(list)) continue;
      this.tourHands[w.table] = list.map((r) => (typeof r === 'string' ? JSON.parse(r) : r));
      this.render();
    }
  }

  refreshTournaments() {
    if (this.connState !== 'online' || document.hidden) return;
    this.refreshTicks = (this.refreshTicks + 1) % 4;
    // Watched: the updates bring the changes; the record is read again every fourth tick.
    const watched = this.tour && this.watchingTour === this.tour.id;
    if (this.tour && (!this.table || this.tourOverTable) && (!watched || this.refreshTicks === 0)) this.loadTour(this.tour.id);
    else if (!this.table && this.lobbyTab === 'tournaments') this.listTournaments();
  }

  /**
   * Opens the replay of a tournament table's finished hands from its hand records' address.
   * @param {string} url @param {string} table
   */
  async tourReplay(url, table) {
    const list = await this.fetchApi(url);
    if (!Array.isArray(list) || !list.length) { this.flash(t('t_no_records'), 'info'); return; }
    // Duplicate boards: a hand record has no seed of its own; the round's revealed seed is in
    // the tournament's record (a board not revealed yet is not replayed).
    const round = (this.tour?.record?.rounds ?? []).find((/** @type {any} */ r) => (r.tables ?? []).some((/** @type {any} */ x) => x.table === table));
    const boardSeed = (/** @type {number} */ n) => (round?.boards?.hands ?? []).find((/** @type {any} */ b) => b.hand === n)?.seed ?? null;
    /** @type {HandEntry[]} */
    const hands = [];
    list.forEach((r, i) => {
      try {
        const rec = typeof r === 'string' ? JSON.parse(r) : r;
        if (rec && !rec.seed && !rec.deck) rec.seed = boardSeed(i + 1);
        if (rec && rec.outcome && (rec.seed || rec.deck)) hands.push({ hand: i + 1, rec, raw: typeof r === 'string' ? r : JSON.stringify(r) });
      } catch { /* a record that does not read is left out */ }
    });
    if (!hands.length) { this.flash(t('t_no_records'), 'info'); return; }
    this.replayCache = null;
    this.overlay = { kind: 'replay', step: 0, hand: hands[0].hand, hands, title: t('t_replay_title', { table }) };
    this.render();
  }

  /**
   * Whether this page directs tournament `id`: it holds the key, or it is signed in as the
   * account that created the event (the record's `director_account`; the server fills an empty
   * `director` from the connection's account, PROTOCOL.md 1.6).
   * @param {string} id
   */
  directs(id) {
    if (this.directorToken(id)) return true;
    const account = this.tourRecords[id]?.director_account;
    return !!account && account === this.accountId;
  }

  /** @param {string} id @returns {string|null} */
  directorToken(id) {
    const v = session.get(`burraco.director.${id}`);
    return typeof v === 'string' ? v : null;
  }

  /** The partner code this player got when registering (a pair's or team's first player). @param {string} id @returns {string|null} */
  partnerCode(id) {
    const v = session.get(`burraco.partner.${id}`);
    return typeof v === 'string' ? v : null;
  }

  /** @param {unknown} e */
  showTourError(e) {
    if (e instanceof ServerError) this.flash(tournamentRefusalText(e), 'error');
    else this.showError(e);
  }

  createTournament() {
    const r = tournamentSettings(this.lobbyForm);
    if ('error' in r) { this.flash(t(r.error, r.params), 'error'); return; }
    // A Sit&Go filled with server bots after a wait: set with the entry list once created.
    const fillText = String(this.lobbyForm.tBotsAfter ?? '').trim();
    const fill = r.settings.start_when_full && fillText !== '' ? Number(fillText) : null;
    if (fill != null && !(Number.isInteger(fill) && fill >= 0 && fill <= 86400)) { this.flash(t('dir_bots_after_bad'), 'error'); return; }
    this.once('t-create', () => this.request('create_tournament', { settings: r.settings })
      .then(async (m) => {
        session.set(`burraco.director.${m.tournament}`, m.director_token);
        if (fill != null) {
          await this.request('configure_registration', { tournament: m.tournament, director: m.director_token,
            registration: { open: true, invite_only: false, closes_ms: null, starts_ms: null, check_in: false, bots_after_secs: fill } }).catch((x) => this.showTourError(x));
          this.lobbyForm.tBotsAfter = '';
        }
        this.lobbyForm.tName = '';
        this.openTournament(m.tournament);
        this.flash(t('t_created'), 'info');
      })
      .catch((x) => { if (!(x instanceof ServerError && x.code === ErrorCode.RepeatedCreate)) this.showTourError(x); }));
  }

  registerTournament() {
    const id = this.tour?.id;
    if (!id) return;
    const f = this.lobbyForm;
    const partner = String(f.tPartner ?? '').trim().toUpperCase() || null;
    const invite = String(f.tInvite ?? '').trim().toUpperCase();
    // A code of the wrong shape is a typing slip: said before asking the server.
    if (partner && !CODE_SHAPE.test(partner)) { this.flash(t('t_partner_code_shape'), 'error'); return; }
    if (invite && !CODE_SHAPE.test(invite)) { this.flash(t('t_invite_shape'), 'error'); return; }
    this.once('register', () => (invite
      ? this.request('register_invited', { tournament: id, invite, partner_code: partner, bot: null })
      : this.request('register_tournament', { tournament: id, partner_code: partner, bot: null }))
      .then((m) => {
        if (m.partner_code) session.set(`burraco.partner.${id}`, m.partner_code);
        f.tPartner = ''; f.tInvite = '';
        this.loadTour(id);
      }).catch((x) => {
        // "Closed" has three causes the record tells apart: started, full, or closed.
        if (x instanceof ServerError && x.code === ErrorCode.RegistrationClosed) this.flash(t(registrationClosedKey(this.tour?.record)), 'error');
        else this.showTourError(x);
      }));
  }

  /**
   * A director's request with this tab's token; `what` names it in the notice.
   * @param {string} type @param {Record<string, any>} fields @param {string} what
   */
  dirAct(type, fields, what) {
    const id = this.tour?.id;
    if (!id) return Promise.resolve(null);
    // Without the key, empty: the director's account is this connection's (`directs`).
    return this.request(type, { tournament: id, director: this.directorToken(id) ?? '', ...fields })
      // The record is read again before the caller clears its fields: a form shown from the old
      // record would blank what was just set until the next read.
      .then(async (m) => { this.flash(t('dir_done', { what }), 'info'); await this.loadTour(id); return m; })
      .catch((x) => { this.showTourError(x); return null; });
  }

  /** The entrant chosen in the director's panel, or null (said). @param {string} field */
  dirEntrant(field) {
    const v = String(this.lobbyForm[field] ?? '');
    if (v === '') { this.flash(t('dir_entrant_required'), 'error'); return null; }
    return Number(v);
  }

  /** The reason typed in the director's panel, or null (said). */
  dirReason() {
    const reason = String(this.lobbyForm.dReason ?? '').trim().slice(0, 200);
    if (!reason) { this.flash(t('dir_reason_required'), 'error'); return null; }
    return reason;
  }

  /** The director's panel and the tournament page's buttons. @param {string} a @param {DOMStringMap} d @returns {boolean} handled */
  onTournamentClick(a, d) {
    const f = this.lobbyForm;
    const id = this.tour?.id ?? '';
    const rec = this.tour?.record;
    switch (a) {
      case 'lobby-tab':
        this.lobbyTab = d.tab === 'tournaments' ? 'tournaments' : 'tables';
        session.set('burraco.lobbyTab', this.lobbyTab);
        if (this.lobbyTab === 'tournaments') this.listTournaments(); else this.listTables();
        this.render();
        return true;
      case 'refresh-tournaments': this.listTournaments(); return true;
      case 'open-tournament': this.openTournament(/** @type {string} */ (d.tournament)); return true;
      case 'close-tournament': this.closeTournament(); return true;
      case 'tour-report': {
        const key = `${id}:${d.line}`;
        this.tourReport = this.tourReport === key ? null : key;
        this.render();
        return true;
      }
      case 'tour-report-cancel': this.tourReport = null; this.render(); return true;
      case 'refresh-tournament': if (id) this.loadTour(id); return true;
      case 'tour-back': {
        const tid = d.tournament ?? (this.table ? this.tourTables[this.table.table] : undefined);
        if (!tid) return true;
        this.overlay = null;
        if (this.table && (this.table.status === 'finished' || this.spectating)) {
          if (this.spectating) this.request('leave', { table: this.table.table }).catch(() => {});
          this.table = null; this.hands = []; this.invite = null; this.tourOverTable = false;
        } else if (this.table) {
          this.tourOverTable = true;
        }
        this.openTournament(tid);
        return true;
      }
      case 'tour-go': {
        const next = this.tourNext[id] ?? (this.tourLive[id]?.update?.table ? { table: this.tourLive[id]?.update?.table, seat: this.tourLive[id]?.update?.seat, round: this.tourLive[id]?.update?.round } : null);
        if (next) this.joinTournamentTable(id, next.table, next.seat, next.round);
        return true;
      }
      case 'tour-unregister':
        this.request('unregister_tournament', { tournament: id }).then(() => this.loadTour(id)).catch((x) => this.showTourError(x));
        return true;
      case 'tour-lineup': {
        const order = LINEUPS[Number(d.lineup)];
        if (order) this.request('set_lineup', { tournament: id, order: [...order] }).then(() => this.loadTour(id)).catch((x) => this.showTourError(x));
        return true;
      }
      case 'tour-check-in':
        this.request('check_in_tournament', { tournament: id }).then(() => this.loadTour(id)).catch((x) => this.showTourError(x));
        return true;
      case 'dir-key-open': f.dKeyOpen = true; this.render(); return true;
      case 'dir-use-key': {
        const key = String(f.dKeyPaste ?? '').trim().toLowerCase();
        // The server judges the key on the first request (`not_director`); only its shape here.
        if (!/^[0-9a-f]{32}$/.test(key)) { this.flash(t('dir_key_bad'), 'error'); return true; }
        session.set(`burraco.director.${id}`, key);
        f.dKeyPaste = '';
        f.dKeyOpen = false;
        this.render();
        return true;
      }
      case 'dir-copy-key': {
        const key = this.directorToken(id) ?? '';
        navigator.clipboard?.writeText(key).then(() => this.flash(t('dir_copied'), 'info'), () => {});
        return true;
      }
      case 'dir-forget-key':
        session.set(`burraco.director.${id}`, null);
        this.dirConfirm = null;
        this.render();
        return true;
      case 'dir-confirm-cancel': this.dirConfirm = null; this.render(); return true;
      case 'warning-seen': this.tourWarning = null; this.render(); return true;
      // From the tournament page opened over the table: the table again.
      case 'back-to-table': this.tourOverTable = false; this.overlay = null; this.render(); return true;
      // A partner or invitation code, to paste in a message to the partner.
      case 'copy-code':
        navigator.clipboard?.writeText(String(d.code ?? '')).then(() => this.flash(t('copied'), 'info'), () => {});
        return true;
      // A tournament table's hands, step by step (the hand records, not their JSON).
      case 'tour-replay': this.tourReplay(String(d.url ?? ''), String(d.table ?? '')); return true;
      case 'replay-hand': {
        const o = this.overlay;
        if (o && o.kind === 'replay') { o.hand = Number(d.hand); o.step = 0; this.render(); }
        return true;
      }
      case 'dir-start': this.dirAct('start_round', {}, t('dir_start')); return true;
      case 'dir-pause': this.dirAct('pause_tournament', {}, t('dir_pause')); return true;
      case 'dir-resume': this.dirAct('resume_tournament', {}, t('dir_resume')); return true;
      case 'dir-end':
        // Not undone: asked first.
        if (!d.confirmed) { this.dirConfirm = a; this.render(); return true; }
        this.dirConfirm = null;
        this.dirAct('end_tournament', {}, t(rec?.status === 'registering' ? 'dir_cancel_event' : 'dir_end'));
        return true;
      case 'dir-adjust': {
        const entrant = this.dirEntrant('dEntrant');
        if (entrant == null) return true;
        const vp = Number(f.dVp);
        if (String(f.dVp).trim() === '' || !Number.isInteger(vp)) { this.flash(t('dir_vp_required'), 'error'); return true; }
        const reason = this.dirReason();
        if (reason == null) return true;
        this.dirAct('adjust_score', { entrant, vp, reason }, t('dir_adjust')).then((m) => { if (m) { f.dVp = ''; f.dReason = ''; this.render(); } });
        return true;
      }
      case 'dir-warn': case 'dir-withdraw': case 'dir-excuse': case 'dir-disqualify': {
        const entrant = this.dirEntrant('dEntrant');
        if (entrant == null) return true;
        const reason = this.dirReason();
        if (reason == null) return true;
        // Withdrawing and disqualifying are not undone: asked first.
        if (a !== 'dir-warn' && !d.confirmed) { this.dirConfirm = a; this.render(); return true; }
        this.dirConfirm = null;
        const type = { 'dir-warn': 'warn_entrant', 'dir-withdraw': 'withdraw_entrant', 'dir-excuse': 'excuse_entrant', 'dir-disqualify': 'disqualify_entrant' }[a];
        const what = t(/** @type {any} */ (a.replace('-', '_')));
        this.dirAct(/** @type {string} */ (type), { entrant, reason }, what).then((m) => { if (m) { f.dReason = ''; this.render(); } });
        return true;
      }
      case 'dir-forbid': {
        const a1 = String(f.dEntrant2 ?? ''), a2 = String(f.dEntrant3 ?? '');
        if (a1 === '' || a2 === '' || a1 === a2) { this.flash(t('dir_two_entrants'), 'error'); return true; }
        this.dirAct('forbid_pairing', { entrants: [Number(a1), Number(a2)] }, t('dir_forbid'));
        return true;
      }
      case 'dir-round-time': {
        const min = Number(f.dRoundMin);
        if (!(min > 0 && min <= 240)) { this.flash(t('dir_minutes_required'), 'error'); return true; }
        this.dirAct('set_round_time', { round_secs: Math.round(min * 60) }, t('dir_round_time'));
        return true;
      }
      case 'dir-seat': {
        const order = String(f.dOrder ?? '').split(/[\s,]+/).filter(Boolean).map(Number);
        if (!order.length || order.some((n) => !Number.isInteger(n) || n < 0) || new Set(order).size !== order.length) { this.flash(t('dir_order_bad'), 'error'); return true; }
        this.dirAct('seat_entrants', { order }, t('dir_seat')).then((m) => { if (m) { f.dOrder = null; this.render(); } });
        return true;
      }
      case 'dir-round-time-preset': this.dirAct('set_round_time', { round_secs: null }, t('dir_preset_time')); return true;
      case 'dir-configure': {
        const reg = rec?.registration ?? {};
        const pick = (/** @type {any} */ v, /** @type {any} */ dflt) => (v == null ? !!dflt : v === true);
        // Server bots fill only a Sit&Go (the server's conduct): the field is offered only there.
        const sitGo = !!rec?.settings?.start_when_full;
        const bots = !sitGo ? null : f.dBotsAfter == null ? (reg.bots_after_secs ?? null) : String(f.dBotsAfter).trim() === '' ? null : Number(f.dBotsAfter);
        if (bots != null && !(Number.isInteger(bots) && bots >= 0 && bots <= 86400)) { this.flash(t('dir_bots_after_bad'), 'error'); return true; }
        // A datetime-local value is local time; empty is none.
        const when = (/** @type {any} */ v, /** @type {any} */ dflt) => (v == null ? (dflt ?? null) : String(v).trim() === '' ? null : new Date(String(v)).getTime());
        const closes = when(f.dCloses, reg.closes_ms), starts = when(f.dStarts, reg.starts_ms);
        // A time already past would close the list, or start (or, short of entrants, end) the
        // event at once: refused here as the server refuses it, unless it is the time already set.
        for (const [ms, set, label] of /** @type {const} */ ([[closes, reg.closes_ms, 'dir_closes'], [starts, reg.starts_ms, 'dir_starts']])) {
          if (ms != null && (Number.isNaN(ms) || (ms <= Date.now() && ms !== set))) { this.flash(t('dir_time_past', { what: t(label) }), 'error'); return true; }
        }
        const registration = { open: pick(f.dOpen, reg.open), invite_only: pick(f.dInviteOnly, reg.invite_only), closes_ms: closes,
          starts_ms: starts, check_in: pick(f.dCheckIn, reg.check_in), bots_after_secs: bots };
        // What was sent, to forget once taken: a field edited again while the request was on its
        // way keeps the new edit (the page then shows it, not the value just stored).
        const keys = /** @type {const} */ (['dOpen', 'dInviteOnly', 'dCheckIn', 'dBotsAfter', 'dCloses', 'dStarts']);
        const sent = keys.map((k) => f[k]);
        this.dirAct('configure_registration', { registration }, t('dir_registration')).then((m) => {
          if (!m) return;
          if (m.invite) this.dirInvite[id] = m.invite;
          keys.forEach((k, i) => { if (f[k] === sent[i]) f[k] = null; });
          this.render();
        });
        return true;
      }
      default: return false;
    }
  }

  /** The strip over a tournament's table (empty at any other table). */
  tournamentStrip() {
    const id = this.table ? this.tourTables[this.table.table] : undefined;
    return id ? tournamentStripHtml(this, id) : '';
  }

  // ----- input -------------------------------------------------------------------------------

  /** @param {Event} e */
  onClick(e) {
    if (this.noClick) { this.noClick = false; return; }
    const target = /** @type {HTMLElement|null} */ (e.target instanceof Element ? e.target.closest('[data-action]') : null);
    if (!target || target.hasAttribute('disabled')) return;
    const a = target.dataset.action ?? '';
    const d = target.dataset;
    const st = this.table;
    switch (a) {
      case 'lang': setLang(/** @type {any} */ (d.lang)); this.render(); break;
      case 'refresh': if (this.lobbyTab === 'tournaments' && !this.table) this.listTournaments(); else this.listTables(); break;
      case 'dismiss': this.message = null; this.render(); break;
      case 'join':
        this.request('join', { table: d.table }).then((r) => { this.enterTable(r.table, false); this.render(); }).catch((x) => this.showError(x));
        break;
      case 'watch':
        this.enterTable(/** @type {string} */ (d.table), true);
        this.request('spectate', { table: d.table }).catch((x) => { this.table = null; this.showError(x); });
        this.render();
        break;
      case 'quick': {
        const f = this.lobbyForm;
        const rated = f.rated && this.identity !== 'guest';
        this.once('quick', () => this.request(rated ? 'quick_play_rated' : 'quick_play', { preset: f.preset, players: Number(f.players) })
          .then((r) => { this.enterTable(r.table, false); this.render(); }).catch((x) => this.showError(x)));
        break;
      }
      case 'change-name':
        // Mid-match the seat would stay with the old session: the table first.
        if (st && !this.spectating && st.you && (st.status === 'playing' || st.status === 'between_hands')) { this.flash(t('change_name_seated'), 'error'); break; }
        this.changingName = true; this.nameError = null; this.render();
        break;
      case 'change-name-cancel': this.changingName = false; this.nameError = null; this.render(); break;
      // Take the game back from the tab that took it (that tab is then told the same).
      case 'use-here': if (this.conn && this.connState === 'taken_over') { this.conn.attempt = 0; this.conn.connect(); } break;
      // Signed out elsewhere: the page starts again from what the server now says of it.
      case 'reload': window.location.reload(); break;
      case 'leave':
        // Mid-match, leaving hands the seat to a server bot for good: ask first.
        if (st && !this.spectating && st.you && (st.status === 'playing' || st.status === 'between_hands') && this.overlay?.kind !== 'confirm-leave') {
          this.overlay = { kind: 'confirm-leave' }; this.render(); break;
        }
        this.leaveTable();
        break;
      case 'leave-confirmed': this.leaveTable(); break;
      case 'rematch': this.rematch(); break;
      case 'mute': setMuted(!isMuted()); this.render(); break;
      case 'notify': this.toggleNotifications(); break;
      case 'how-to': this.overlay = { kind: 'howto' }; this.render(); break;
      case 'play-bots': this.playWithBots(); break;
      default: this.onClickMore(e); break;
    }
  }

  leaveTable() {
    const st = this.table;
    {
        if (st && !this.spectating && st.status !== 'finished') this.request('leave', { table: st.table }).catch(() => {});
        if (st && this.spectating) this.request('leave', { table: st.table }).catch(() => {});
        this.table = null; this.invite = null; this.overlay = null; this.message = null; this.hands = [];
        this.listTables();
        this.render();
    }
  }

  /** A new table with this match's settings and bot level (the server has no rematch of its own yet). */
  rematch() {
    const st = this.table;
    if (!st) return;
    const level = st.seats.map((x) => /^Bot \((\w+)\)$/.exec(x.name ?? '')?.[1]).find(Boolean) ?? null;
    const s = st.settings;
    const settings = { preset: s.preset, players: s.players, hands: s.hands ?? null, target: s.target ?? null, clocks: s.clocks ?? null,
      semipulito: s.semipulito ?? null, close_requires_pulito: s.close_requires_pulito ?? null };
    const priv = !!this.invite;
    if (this.inFlight.has('rematch')) return;
    this.leaveTable();
    this.once('rematch', () => this.request('create_table', { settings, private: priv, bots: level })
      .then((r) => { this.enterTable(r.table, false); this.invite = r.invite ?? null; this.render(); })
      .catch((x) => this.showCreateError(x)));
  }

  /** Quick play found nobody: leave the empty table and start one with server bots in the other seats. */
  playWithBots() {
    if (this.inFlight.has('play-bots')) return;
    const f = this.lobbyForm;
    const st = this.table;
    if (st) this.request('leave', { table: st.table }).catch(() => {});
    this.table = null;
    const cur = st?.settings ?? {};
    const preset = cur.preset ?? f.preset;
    const settings = { preset, players: cur.players ?? Number(f.players), hands: cur.hands ?? null, target: cur.target ?? null,
      clocks: preset === 'fedibur' ? null : 'relaxed', semipulito: null, close_requires_pulito: null };
    this.once('play-bots', () => this.request('create_table', { settings, private: false, bots: 'expert' })
      .then((r) => { this.enterTable(r.table, false); this.render(); })
      .catch((x) => this.showCreateError(x)));
  }

  /** @param {Event} e */
  onClickMore(e) {
    const target = /** @type {HTMLElement|null} */ (e.target instanceof Element ? e.target.closest('[data-action]') : null);
    if (!target || target.hasAttribute('disabled')) return;
    const a = target.dataset.action ?? '';
    const d = target.dataset;
    const st = this.table;
    switch (a) {
      case 'ready': this.act('ready'); break;
      // Fill the free seats of this waiting table with server bots (`add_bots`).
      case 'add-bots': this.act('add_bots', { level: 'expert' }); break;
      case 'dismiss-notice': if (st) { st.notice = null; this.render(); } break;
      case 'copy-invite':
        navigator.clipboard?.writeText(this.invite ?? '').then(() => this.flash(t('copied'), 'info')).catch(() => {});
        break;
      case 'card': this.toggleCard(/** @type {string} */ (d.key)); break;
      case 'sort':
        this.sortMode = this.sortMode === 'suit' ? 'rank' : 'suit'; localStorage.setItem('burraco.sort', this.sortMode);
        if (st) session.set(this.orderKey(st), null);
        this.render();
        break;
      case 'clear': this.selected.clear(); this.attachArmed = false; this.render(); break;
      case 'draw': this.act('draw'); break;
      case 'pick-up': this.act('pick_up'); break;
      case 'open': this.act('open', { cards: this.selectedCards(), wild_at: null }); break;
      case 'attach-arm': this.attachArmed = !this.attachArmed; this.render(); break;
      case 'meld': this.attachTo(Number(d.meld)); break;
      case 'discard': {
        const cards = this.selectedCards();
        if (cards.length === 1) this.act('discard', { card: cards[0] });
        else this.flash(t('select_hint'), 'info');
        break;
      }
      case 'wild-pos': {
        const o = this.overlay;
        if (o && o.kind === 'wild') { this.overlay = null; this.act(o.action, { ...o.fields, wild_at: Number(d.pos) }); }
        break;
      }
      case 'overlay-close': this.overlay = null; this.render(); break;
      case 'show-score': this.overlay = { kind: 'score', hand: d.hand ? Number(d.hand) : null }; this.render(); break;
      case 'show-history': this.overlay = { kind: 'history' }; this.render(); break;
      case 'verify': this.runVerify(Number(d.hand)); break;
      case 'replay': this.overlay = { kind: 'replay', step: 0, hand: Number(d.hand) }; this.render(); break;
      case 'replay-step': {
        const o = this.overlay;
        if (o && o.kind === 'replay') { o.step = Number(d.step); this.render(); }
        break;
      }
      case 'download-record': this.downloadRecord(Number(d.hand)); break;
      case 'phrase': if (st) this.request('chat', { table: st.table, phrase: d.phrase }).catch((x) => this.showError(x)); break;
      case 'help': this.overlay = { kind: 'help' }; this.render(); break;
      case 'toggle-side': this.sideOpen = !this.sideOpen; this.render(); break;
      default: this.onTournamentClick(a, d); break;
    }
  }

  /** The meld or pile under a drag, if it accepts cards now. @param {Element|null} under */
  dropTarget(under) {
    const h = this.table?.hand;
    if (!h || h.phase !== 'play' || !this.table?.you || h.onTurn !== this.table.you || this.spectating) return null;
    return /** @type {HTMLElement | null} */ (under ? under.closest('[data-action=meld], [data-testid=pile]') : null);
  }

  /** @param {PointerEvent} e */
  onPointerDown(e) {
    if (this.drag || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const el = /** @type {HTMLElement | null} */ (e.target instanceof Element ? e.target.closest('[data-testid=hand-card]') : null);
    if (!el) return;
    this.drag = { id: e.pointerId, key: el.dataset.key ?? '', el, x: e.clientX, y: e.clientY, active: false, over: null };
  }

  /** @param {PointerEvent} e */
  onPointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const dx = e.clientX - d.x, dy = e.clientY - d.y;
    if (!d.active) {
      // A tap that wobbles a little is still a tap.
      if (Math.hypot(dx, dy) < DRAG_START || !d.el.isConnected) return;
      d.active = true;
      d.el.classList.add('dragging');
    }
    e.preventDefault();
    d.el.style.transform = `translate(${dx}px, ${dy}px)`;
    const under = this.dropAt(e.clientX, e.clientY);
    if (under !== d.over) {
      d.over?.classList.remove('drop-over');
      under?.classList.add('drop-over');
      d.over = under;
    }
  }

  /** What a card held at (x, y) would be dropped on: another hand card, a meld or the pile. @param {number} x @param {number} y */
  dropAt(x, y) {
    const under = document.elementFromPoint(x, y);
    if (!under) return null;
    const card = /** @type {HTMLElement | null} */ (under.closest('[data-testid=hand-card]'));
    if (card && card !== this.drag?.el) return card;
    return this.dropTarget(under);
  }

  /** @param {PointerEvent} e */
  onPointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.active) { this.drag = null; return; }
    const target = this.dropAt(e.clientX, e.clientY);
    this.endDrag(e, true);
    if (!target) return;
    const key = d.key;
    if (target.dataset.testid === 'hand-card') { this.moveCard(key, target.dataset.key ?? ''); return; }
    const card = this.handKeys(this.table?.hand?.hand ?? []).find((k) => k.key === key);
    if (!card) return;
    if (target.dataset.action === 'meld') {
      this.selected.add(key);
      this.attachTo(Number(target.dataset.meld));
    } else {
      this.act('discard', { card: card.code });
    }
  }

  /** The held card goes back (a drop re-renders it where it belongs). @param {{pointerId: number}} e @param {boolean} dropped */
  endDrag(e, dropped) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    if (d.active) {
      d.el.classList.remove('dragging');
      d.el.style.transform = '';
      d.over?.classList.remove('drop-over');
      if (dropped) { this.noClick = true; setTimeout(() => { this.noClick = false; }, 0); }
    }
    if (this.renderAfterDrag) { this.renderAfterDrag = false; this.render(); }
  }

  /** @param {number} meld */
  attachTo(meld) {
    const cards = this.selectedCards();
    if (!cards.length) { this.flash(t('attach_hint'), 'info'); return; }
    this.act('attach', { meld, cards, wild_at: null });
  }

  /** @param {string} key */
  toggleCard(key) {
    if (this.selected.has(key)) this.selected.delete(key); else this.selected.add(key);
    this.render();
  }

  /** @param {Event} e */
  onChange(e) {
    const el = /** @type {HTMLInputElement} */ (e.target);
    if (el.dataset.field) {
      /** @type {any} */ (this.lobbyForm)[el.dataset.field] = el.type === 'checkbox' ? el.checked : el.value;
      // A casual table with bots: relaxed clocks unless the player chose otherwise.
      if (el.dataset.field === 'bots' && el.value && !this.lobbyForm.clocks && this.lobbyForm.preset !== 'fedibur') this.lobbyForm.clocks = 'relaxed';
      if (el.dataset.field === 'bots' && !el.value && this.lobbyForm.clocks === 'relaxed') this.lobbyForm.clocks = '';
      this.render();
    }
    if (el.dataset.action === 'replay-slider' && this.overlay?.kind === 'replay') {
      this.overlay.step = Number(el.value);
      this.render();
    }
  }

  /** @param {SubmitEvent} e */
  onSubmit(e) {
    const form = /** @type {HTMLFormElement} */ (e.target);
    e.preventDefault();
    const data = new FormData(form);
    switch (form.dataset.form) {
      case 'login': {
        const name = this.checkedName(String(data.get('name') ?? ''));
        if (!name) return;
        if (this.changingName) { this.changeName(name); break; }
        this.name = name;
        localStorage.setItem('burraco.name', name);
        this.connect();
        this.render();
        break;
      }
      case 'create': this.createTable(); break;
      case 'create-tournament': this.createTournament(); break;
      case 'tour-register': this.registerTournament(); break;
      case 'tour-chat': this.sayInTournament(String(data.get('text') ?? '')); break;
      case 'tour-report': this.reportTourLine(Number(form.dataset.line), String(data.get('reason') ?? ''), String(data.get('note') ?? '')); break;
      case 'chat': {
        const raw = String(data.get('text') ?? '');
        const st = this.table;
        if (!raw.trim() || !st) return;
        // The server's rule (no bidi override turning a line around, nothing invisible), said here.
        const line = checkLine(raw, MAX_CHAT);
        if (!line.ok) { this.flash(line.error === 'long' ? t('chat_long', { max: MAX_CHAT, n: [...raw.trim()].length }) : t('chat_chars'), 'error'); return; }
        const text = line.text;
        this.request('chat', { table: st.table, text, phrase: null })
          .then(() => { this.lobbyForm.chat = ''; this.render(); }).catch((x) => this.showError(x));
        break;
      }
      case 'invite': {
        const invite = String(data.get('invite') ?? '').trim().toUpperCase();
        if (!invite) return;
        this.once('invite', () => this.request('join', { invite }).then((r) => { this.enterTable(r.table, false); this.invite = invite; this.render(); })
          .catch((x) => this.showError(x)));
        break;
      }
      default: break;
    }
  }

  createTable() {
    const f = this.lobbyForm;
    /** @type {Record<string, any>} */
    const settings = { preset: f.preset, players: Number(f.players), hands: null, target: null, clocks: f.clocks || null,
      semipulito: f.semipulito === '' ? null : f.semipulito === 'on', close_requires_pulito: f.pulito === '' ? null : f.pulito === 'on' };
    if (f.length === 'hands') settings.hands = Number(f.hands);
    if (f.length === 'target') settings.target = Number(f.target);
    // The numbers as the rules take them (rules/src/config.rs), said in the player's words.
    if (settings.hands != null && !(Number.isInteger(settings.hands) && settings.hands >= 1 && settings.hands <= 8)) { this.flash(t('create_hands_bad'), 'error'); return; }
    if (settings.target != null && !(Number.isInteger(settings.target) && settings.target >= 100 && settings.target <= 100000 && settings.target % 5 === 0)) { this.flash(t('create_target_bad'), 'error'); return; }
    // A rated table seats accounts only: no server bots (PROTOCOL.md, "Rated play (1.5)").
    const rated = f.rated && this.identity !== 'guest';
    this.once('create', () => (rated
      ? this.request('create_rated_table', { settings, private: f.private === 'private' })
      : this.request('create_table', { settings, private: f.private === 'private', bots: f.bots || null }))
      .then((r) => { this.enterTable(r.table, false); this.invite = r.invite ?? null; this.render(); })
      .catch((x) => this.showCreateError(x)));
  }

  /** @param {KeyboardEvent} e */
  onKey(e) {
    const tag = (/** @type {HTMLElement} */ (e.target)).tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || e.ctrlKey || e.metaKey || e.altKey) return;
    // Another tab holds the game: no key plays here until "Use it here".
    if (this.connState === 'taken_over' || this.connState === 'signed_out') return;
    if (e.key === 'Escape') {
      if (this.overlay) { this.overlay = null; } else { this.selected.clear(); this.attachArmed = false; }
      this.render();
      return;
    }
    const st = this.table;
    if (!st || this.spectating) return;
    if (this.overlay && this.overlay.kind === 'replay') {
      if (e.key === 'ArrowRight') { this.overlay.step++; this.render(); }
      if (e.key === 'ArrowLeft') { this.overlay.step = Math.max(0, this.overlay.step - 1); this.render(); }
      return;
    }
    if (this.overlay) return;
    const k = e.key.toLowerCase();
    if (this.attachArmed && /^[1-9]$/.test(k)) {
      const own = this.ownMelds();
      const m = own[Number(k) - 1];
      if (m) this.attachTo(m.id);
      e.preventDefault();
      return;
    }
    const map = /** @type {Record<string, () => void>} */ ({
      d: () => this.act('draw'),
      p: () => this.act('pick_up'),
      o: () => this.act('open', { cards: this.selectedCards(), wild_at: null }),
      a: () => { this.attachArmed = !this.attachArmed; this.render(); },
      x: () => { const c = this.selectedCards(); if (c.length === 1) this.act('discard', { card: c[0] }); },
      s: () => { this.sortMode = this.sortMode === 'suit' ? 'rank' : 'suit'; this.render(); },
      '?': () => { this.overlay = { kind: 'help' }; this.render(); },
    });
    if (map[k]) { map[k](); e.preventDefault(); return; }
    // Arrow keys move between the hand's cards; with Shift they move the card itself (arranging the
    // hand from the keyboard, as a drag does).
    const el = /** @type {HTMLElement} */ (e.target);
    if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && el.dataset && el.dataset.action === 'card') {
      const cards = [...document.querySelectorAll('[data-action="card"]')];
      const i = cards.indexOf(el) + (e.key === 'ArrowRight' ? 1 : -1);
      const next = /** @type {HTMLElement|undefined} */ (cards[i]);
      if (next && e.shiftKey) this.moveCard(el.dataset.key ?? '', next.dataset.key ?? '');
      else if (next) next.focus();
      e.preventDefault();
    }
  }

  /** Own side's melds (for attaching). */
  ownMelds() {
    const st = this.table;
    if (!st || !st.hand || !st.you) return [];
    const side = sideOf(st.you, playerCount(st));
    return st.hand.melds.filter((m) => m.side === side);
  }

  /** Can the selected cards join meld `m`? (hint) @param {{cards: string[]}} m */
  fitsMeld(m) {
    const sel = this.selectedCards();
    return sel.length > 0 && isMeld([...m.cards, ...sel]);
  }

  /** Verifies hand `n`'s shuffle from its record alone (verify.js). @param {number} n */
  async runVerify(n) {
    const entry = this.hands.find((x) => x.hand === n);
    if (!entry) return;
    this.verify = { hand: n, running: true };
    this.render();
    const kept = entry.rec.commitment ? session.get(dealtKey(entry.rec.commitment)) : null;
    try {
      const v = await verifyRecord(entry.rec, kept ? { you: kept.you, dealt: kept.cards } : {});
      this.verify = { hand: n, ...v };
    } catch (err) {
      this.verify = { hand: n, checks: [{ key: 'v_error', params: { msg: String(err) }, ok: false }], ok: false };
    }
    this.render();
  }

  /** @param {number} n */
  downloadRecord(n) {
    const entry = this.hands.find((x) => x.hand === n);
    if (!entry || !this.table) return;
    const blob = new Blob([entry.raw], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${this.table.table}-hand-${n}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // ----- rendering ---------------------------------------------------------------------------

  render() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => { this.renderQueued = false; this.renderNow(); });
  }

  renderNow() {
    // Not under a card being dragged: the drop renders.
    if (this.drag?.active) { this.renderAfterDrag = true; return; }
    // Not under a button being pressed: its release renders (or a second passes).
    if (this.pressedAt && Date.now() - this.pressedAt < 1000) {
      if (!this.renderAfterPress) { this.renderAfterPress = true; setTimeout(() => { if (this.renderAfterPress) { this.renderAfterPress = false; this.render(); } }, 1000); }
      return;
    }
    const before = this.table ? measure(this.root) : null;
    const active = /** @type {HTMLElement|null} */ (document.activeElement);
    const focusKey = active && active.dataset ? active.dataset.focus : undefined;
    /** @type {[number, number]|null} */
    let caret = null;
    if (active instanceof HTMLInputElement) { try { if (active.selectionStart != null) caret = [active.selectionStart, active.selectionEnd ?? active.selectionStart]; } catch { /* ignore */ } }
    const h = this.table?.hand;
    if (this.attention && !(h && h.onTurn === this.table?.you && h.phase !== 'over')) this.attention = null;
    const mark = this.attention ? `● ${t(this.attention)} — `
      : this.roundAttention != null ? `● ${t('t_round_ready_title', { n: this.roundAttention })} — ` : '';
    document.title = mark + (this.table ? `${t('app_title')} — ${t('table')} ${this.table.table}` : t('app_title'));
    const header = document.getElementById('header');
    // Replaced only when it changed: a press on one of its buttons must not lose its element to an
    // unrelated re-render (the click would then land on no button).
    const headerHtml = this.headerHtml();
    if (header && headerHtml !== this.lastHeaderHtml) { header.innerHTML = headerHtml; this.lastHeaderHtml = headerHtml; }
    let body;
    const tourPage = !!this.tour && (!this.table || this.tourOverTable);
    this.noteAddress(tourPage);
    const login = !this.name || !this.conn || this.changingName;
    document.body.dataset.view = login ? 'login' : tourPage ? 'tournament' : this.table ? 'table' : 'lobby';
    if (login) body = renderLogin(this);
    else if (tourPage) body = renderTournament(this);
    else if (this.table) body = renderTable(this);
    else if (this.lobbyTab === 'tournaments') body = renderTournamentsLobby(this);
    else body = renderLobby(this);
    // What did not change is not replaced (many events change nothing on screen): a press on a
    // button is not lost to a re-render that would put an identical button in its place.
    const html = body + this.messageHtml();
    if (html !== this.lastRootHtml) { this.root.innerHTML = html; this.lastRootHtml = html; }
    const overlay = document.getElementById('overlay');
    if (overlay) {
      // The table's dialogs wait while the tournament page is shown over it.
      // (A tournament table's replay, opened from the results, is the tournament page's own.)
      const own = this.overlay?.kind === 'howto' || (this.overlay?.kind === 'replay' && !!this.overlay.hands);
      const blocked = this.connState === 'taken_over' || this.connState === 'signed_out';
      const dialog = tourPage && !own && !blocked ? '' : renderOverlay(this);
      if (dialog !== this.lastOverlayHtml) { overlay.innerHTML = dialog; this.lastOverlayHtml = dialog; }
      overlay.hidden = !dialog;
    }
    if (focusKey) {
      const el = /** @type {HTMLElement|null} */ (document.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`));
      if (el) {
        // A re-render (the lobby refreshes itself) must not scroll the page back to the field
        // (a phone's reader may have scrolled away from it), nor move the caret of a field being typed in.
        el.focus({ preventScroll: true });
        if (caret && el instanceof HTMLInputElement) { try { el.setSelectionRange(caret[0], caret[1]); } catch { /* number inputs */ } }
      }
    }
    this.announce();
    this.fresh = null;
    this.fitTable();
    this.placeSidePanel();
    if (before && this.table) play(this.root, before, this.moves);
    this.moves = [];
    if (this.scrollToMeld != null) {
      const el = document.querySelector(`[data-testid=meld][data-meld-id="${this.scrollToMeld}"]`);
      this.scrollToMeld = null;
      if (el) el.scrollIntoView({ block: 'nearest' });
    }
    this.tickClocks();
  }

  /**
   * The address of what is on screen, as a history entry: a new view is a new entry (Back
   * comes back to the one before, inside the app); the same view keeps its entry.
   * @param {boolean} tourPage
   */
  noteAddress(tourPage) {
    if (!this.conn || !this.name) return;
    const want = tourPage && this.tour ? `#tournament/${this.tour.id}` : this.table ? `#table/${this.table.table}` : this.lobbyTab === 'tournaments' ? '#tournaments' : '';
    const now = location.hash;
    if (want === now || (want === '' && (now === '' || now === '#'))) return;
    const url = `${location.pathname}${location.search}${want}`;
    history.pushState(null, '', url || location.pathname);
  }

  /** Back or Forward: go where the address says, within what the session holds. */
  onAddress() {
    const at = parseAddress(location.hash);
    const st = this.table;
    const playing = !!st && !this.spectating && !!st.you && (st.status === 'playing' || st.status === 'between_hands');
    if (at?.kind === 'tournament') {
      if (this.tour?.id === at.id && (!this.table || this.tourOverTable)) return;
      if (this.table) this.tourOverTable = true;
      this.openTournament(at.id);
      return;
    }
    if (at?.kind === 'table' && st && st.table === at.id) {
      // Back from the tournament page to the table it was opened over.
      if (this.tourOverTable) { this.tourOverTable = false; this.tour = null; session.set('burraco.tourPage', null); }
      this.render();
      return;
    }
    // The lobby (or a table not this one).
    if (playing) {
      // Back from a match in play does not leave it unasked: the question, and the table stays.
      this.tourOverTable = false;
      this.overlay = { kind: 'confirm-leave' };
      history.pushState(null, '', `${location.pathname}${location.search}#table/${st.table}`);
      this.render();
      return;
    }
    if (this.tour && (!this.table || this.tourOverTable)) { this.tour = null; this.tourOverTable = false; session.set('burraco.tourPage', null); }
    if (st && (this.spectating || st.status === 'finished' || st.status === 'waiting')) this.leaveTable();
    this.lobbyTab = at?.kind === 'tournaments' ? 'tournaments' : 'tables';
    if (this.lobbyTab === 'tournaments') this.listTournaments(); else this.listTables();
    this.render();
  }

  /**
   * Says the table's newest log line (a turn, another's move) in the polite live region: a
   * screen reader hears the game go on, not only the toasts. Once per line.
   */
  announce() {
    const region = document.getElementById('announce');
    const st = this.table;
    if (!region || !st || !st.log.length) return;
    const line = st.log[st.log.length - 1];
    if (line === this.lastAnnounced && !this.turnSaid) return;
    const said = [line === this.lastAnnounced ? '' : logText(st, line), this.turnSaid ?? ''].filter(Boolean).join('. ');
    this.lastAnnounced = line;
    this.turnSaid = null;
    region.textContent = said;
  }

  /**
   * The table on one screen: when what the table shows does not fit the window (many melds on a
   * short or narrow screen), the view gets denser (smaller meld cards, less said around them), step
   * by step, until it fits. `again`: for a new window size, from the roomiest step.
   * @param {boolean} [again]
   */
  fitTable(again = false) {
    const view = /** @type {HTMLElement|null} */ (this.root.querySelector('.table-view'));
    if (!view || !view.querySelector('.felt:not(.waiting)')) return;
    if (again) view.classList.remove(...FIT_LEVELS);
    const grid = view.querySelector('.table-grid');
    const over = () => (grid && grid.scrollHeight > grid.clientHeight + 1)
      || [...view.children].some((c) => c.getBoundingClientRect().bottom > innerHeight + 1);
    for (const level of FIT_LEVELS) {
      if (!over()) return;
      view.classList.add(level);
    }
  }

  /**
   * On a phone the log and chat open over the table just under its top bar, which takes one line
   * or two (names, scores, clocks): a fixed offset put the panel over its own toggle.
   */
  placeSidePanel() {
    const panel = this.root.querySelector('.side-panel.side-open');
    const bar = this.root.querySelector('.table-view .topbar');
    if (panel instanceof HTMLElement && bar) panel.style.top = `${Math.ceil(bar.getBoundingClientRect().bottom) + 6}px`;
  }

  headerHtml() {
    const s = this.connState;
    const label = { connecting: t('conn_connecting'), online: t('conn_online'), reconnecting: t('conn_reconnecting'), offline: t('conn_offline'), taken_over: t('conn_taken_over'), signed_out: t('conn_signed_out') }[s];
    const lang = getLang();
    return `<div class="brand"><span class="logo" aria-hidden="true">♥♠</span><span>${t('app_title')}</span></div>
      <div class="header-right">
        ${this.name && this.conn ? `<span class="conn conn-${s}" role="status" data-testid="conn-state">${label}</span>` : ''}
        ${this.name && this.conn ? `<button type="button" class="who" data-action="change-name" data-testid="change-name" title="${t('change_name')}" aria-label="${escapeHtml(`${t('change_name')}: ${this.name}`)}">${escapeHtml(this.name)} <span aria-hidden="true">✎</span></button>` : ''}
        ${this.name && this.conn && this.accountId && this.myRating ? headerRatingHtml(this.myRating) : ''}
        <button type="button" class="mute" data-action="mute" data-testid="mute" aria-pressed="${isMuted()}" title="${isMuted() ? t('mute') : t('unmute')}" aria-label="${isMuted() ? t('mute') : t('unmute')}">${speakerSvg(isMuted())}</button>
        ${typeof Notification !== 'undefined' ? `<button type="button" class="mute" data-action="notify" data-testid="notify" aria-pressed="${this.notifying()}" title="${this.notifying() ? t('notify_off') : t('notify_on')}" aria-label="${this.notifying() ? t('notify_off') : t('notify_on')}">${bellSvg(this.notifying())}</button>` : ''}
        <button type="button" class="mute" data-action="how-to" data-testid="how-to" title="${t('how_to_play')}" aria-label="${t('how_to_play')}">?</button>
        <div class="lang" role="group" aria-label="${t('language')}">
          <button type="button" data-action="lang" data-lang="it" aria-pressed="${lang === 'it'}" data-focus="lang-it">IT</button>
          <button type="button" data-action="lang" data-lang="en" aria-pressed="${lang === 'en'}" data-focus="lang-en">EN</button>
        </div>
      </div>`;
  }

  messageHtml() {
    const m = this.message;
    if (!m) return '<div class="toast-region" role="alert" aria-live="assertive"></div>';
    return `<div class="toast-region" role="alert" aria-live="assertive"><div class="toast toast-${m.kind}" data-testid="message">
      <span>${escapeHtml(m.text)}</span><button type="button" class="toast-x" data-action="dismiss" aria-label="${t('close')}">×</button></div></div>`;
  }

  tickClocks() {
    const now = Date.now();
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-deadline]'))) {
      const deadline = Number(el.dataset.deadline);
      const grace = Number(el.dataset.grace || 0);
      const left = Math.max(0, deadline - now);
      el.textContent = clockText(left);
      el.classList.toggle('in-grace', grace > 0 && left <= grace);
      el.classList.toggle('low', left <= 10000);
    }
    // A clock a director's pause holds (`table_paused`): still.
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-held]'))) {
      el.textContent = clockText(Number(el.dataset.held));
    }
    // A tournament round's clock (`round_ends_ms`): h:mm:ss or m:ss.
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-round-ends]'))) {
      const left = Math.max(0, Number(el.dataset.roundEnds) - now);
      const s = Math.ceil(left / 1000);
      el.textContent = s >= 3600 ? `${Math.floor(s / 3600)}:${clockText((s % 3600) * 1000).padStart(5, '0')}` : clockText(left);
      el.classList.toggle('low', left <= 60000);
    }
  }
}

