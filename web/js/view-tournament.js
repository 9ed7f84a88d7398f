// @ts-check
/**
 * Tournaments, as markup: the lobby's list and create form; a tournament's page (settings,
 * entrants, registration, my table and the round timer, standings, round results, the duplicate
 * comparison, the director's panel). Everything shown comes from the record (`GET
 * /api/tournaments/{id}`) and the server's `tournament_update` / `tournament_status`.
 */
import { t, localBotName, getLang } from './i18n.js';
import { escapeHtml } from './dom.js';
import { levelBadge } from './levels.js';
import { botBadge, lobbyTabsHtml, busyAttr } from './view-lobby.js';
import { KINDS, MOVEMENTS, SEATINGS, LINEUPS, entrantName, namesOf, myEntrant, duplicateGrid, movementOf, lineupIndex, lineupLabel } from './tournament.js';

/** @typedef {import('./app.js').App} App */

/** @param {string} s */
const tstatus = (s) => t(/** @type {any} */ (`tstatus_${s}`));
/** @param {string} k */
const kindLabel = (k) => t(/** @type {any} */ (`kind_${k}`));
/** @param {string} m */
const movementLabel = (m) => t(/** @type {any} */ (`mv_${m}`));
/** @param {number} n */
const signed = (n) => (n > 0 ? `+${n}` : String(n));

/**
 * @param {string} field @param {string} value @param {[string, string][]} options @param {string} [testid]
 */
function select(field, value, options, testid) {
  return `<select data-field="${field}" data-focus="f-${field}" ${testid ? `data-testid="${testid}"` : ''}>${options
    .map(([v, l]) => `<option value="${escapeHtml(v)}" ${v === value ? 'selected' : ''}>${escapeHtml(l)}</option>`).join('')}</select>`;
}

/** @param {string} field @param {boolean} checked @param {string} label @param {string} testid */
function checkbox(field, checked, label, testid) {
  return `<label class="check"><input type="checkbox" data-field="${field}" data-focus="f-${field}" data-testid="${testid}" ${checked ? 'checked' : ''}><span>${label}</span></label>`;
}

/**
 * A cell of a table that a phone shows as labelled lines (`table.labelled`): its column's name in
 * `data-label`, its content in one box. @param {string} label @param {string} html @param {string} [testid]
 */
function cell(label, html, testid) {
  return `<td data-label="${escapeHtml(label)}"${testid ? ` data-testid="${testid}"` : ''}><div class="cv">${html}</div></td>`;
}

/** The names of an entrant, with a bot badge when it registered as one. @param {any} record @param {number|null} n */
function entrantHtml(record, n) {
  if (n == null) return '—';
  const e = (record?.entrants ?? []).find((/** @type {any} */ x) => x.entrant === n);
  const names = escapeHtml(e ? namesOf(e).map((x) => localBotName(x)).join(' & ') : `#${n}`);
  return `${names}${e?.bot ? ` ${botBadge(t('server_bot'))}` : ''}`;
}

// ----- the lobby's tab ---------------------------------------------------------------------------

/** The tournaments this server serves (`GET /api/tournaments`). @param {App} app */
export function tournamentListHtml(app) {
  if (!app.tournaments.length) return `<p class="empty" data-testid="no-tournaments">${t('no_tournaments')}</p>`;
  const rows = app.tournaments.map((x) => `<tr data-testid="tournament-row" data-tournament="${escapeHtml(x.tournament)}">
      <td><b>${escapeHtml(x.name)}</b> <span class="muted small mono tid">${escapeHtml(x.tournament)}</span></td>
      <td class="kind">${kindLabel(x.kind)}</td>
      <td><span class="status tstatus-${escapeHtml(x.status)}">${tstatus(x.status)}</span></td>
      <td data-testid="tournament-entrants">${x.entrants}</td>
      <td class="rnd">${x.round}/${x.rounds}</td>
      <td class="go"><button class="btn small primary" data-action="open-tournament" data-tournament="${escapeHtml(x.tournament)}" data-testid="open-tournament"
        data-focus="open-${escapeHtml(x.tournament)}">${t('open_tournament')}</button></td></tr>`).join('');
  return `<div class="table-scroll"><table class="ttable" data-testid="tournaments">
    <thead><tr><th>${t('col_name')}</th><th class="kind">${t('col_kind')}</th><th>${t('col_status')}</th><th>${t('col_entrants')}</th><th class="rnd">${t('col_round')}</th><th></th></tr></thead>
    <tbody>${rows}</tbody></table></div>`;
}

/** The lobby with its tournaments tab: the list, and the create form. @param {App} app */
export function renderTournamentsLobby(app) {
  return `<section class="lobby">
    <div class="lobby-main panel">
      <div class="panel-head">${lobbyTabsHtml(app)}
        <button class="btn small ghost" data-action="refresh-tournaments" data-focus="refresh-tournaments">↻ ${t('refresh')}</button></div>
      ${calendarHtml(app)}
      ${tournamentListHtml(app)}
    </div>
    <div class="lobby-side">${createTournamentHtml(app)}</div>
  </section>`;
}

/** The create form: name, kind, rounds as movements, hands, preset, max entrants, duplicate, seating, Sit&Go. @param {App} app */
export function createTournamentHtml(app) {
  const f = app.lobbyForm;
  const count = Math.max(1, Math.min(20, Number(f.tRoundCount) || 1));
  const moves = MOVEMENTS.map((m) => /** @type {[string, string]} */ ([m, movementLabel(m)]));
  const roundSelects = Array.from({ length: count }, (_, i) => `<label class="field"><span>${t('t_round_n', { n: i + 1 })}</span>${select(`tMove${i}`, movementOf(f, i), moves, `t-move-${i}`)}</label>`).join('');
  return `<form class="panel" data-form="create-tournament" data-testid="create-tournament-form">
    <h2>${t('create_tournament')}</h2>
    <div class="grid2">
      <label class="field span2"><span>${t('t_name')}</span><input data-field="tName" data-focus="f-tName" maxlength="160" value="${escapeHtml(f.tName)}" placeholder="${t('t_name_placeholder')}" data-testid="t-name"></label>
      <label class="field"><span>${t('t_kind')}</span>${select('tKind', f.tKind, KINDS.map((k) => /** @type {[string, string]} */ ([k, kindLabel(k)])), 't-kind')}</label>
      <label class="field"><span>${t('preset')}</span>${select('tPreset', f.tPreset, [['fitab', t('preset_fitab')], ['feburit', t('preset_feburit')], ['fedibur', t('preset_fedibur')]], 't-preset')}</label>
      <label class="field"><span>${t('t_round_count')}</span><input type="number" min="1" max="20" data-field="tRoundCount" data-focus="f-tRoundCount" value="${escapeHtml(f.tRoundCount)}" data-testid="t-round-count"></label>
      <label class="field"><span>${t('t_hands')}</span><input type="number" min="1" max="8" data-field="tHands" data-focus="f-tHands" value="${escapeHtml(f.tHands)}" data-testid="t-hands"></label>
      ${roundSelects}
      <label class="field"><span>${t('t_max')}</span><input type="number" min="2" data-field="tMax" data-focus="f-tMax" value="${escapeHtml(f.tMax)}" placeholder="${t('t_max_none')}" data-testid="t-max"></label>
      <label class="field"><span>${t('t_seating')}</span>${select('tSeating', f.tSeating, SEATINGS.map((s) => /** @type {[string, string]} */ ([s, t(/** @type {any} */ (`seating_${s}`))])), 't-seating')}</label>
      <label class="field"><span>${t('clocks')}</span>${select('tClocks', f.tClocks, [['', t('clocks_default')], ['federation', t('clocks_federation')], ['relaxed', t('clocks_relaxed')], ['off', t('clocks_off')]], 't-clocks')}</label>
    </div>
    ${checkbox('tDup', f.tDup === true, t('t_duplicate'), 't-duplicate')}
    ${checkbox('tFull', f.tFull === true, t('t_start_full'), 't-start-full')}
    ${f.tFull === true ? `<label class="field"><span>${t('t_fill_bots')}</span><input type="number" min="0" max="86400" step="1" data-field="tBotsAfter" data-focus="f-tBotsAfter"
      value="${escapeHtml(f.tBotsAfter ?? '')}" placeholder="${t('t_fill_bots_none')}" data-testid="t-bots-after"></label>` : ''}
    <button class="btn primary wide" type="submit" data-testid="t-create" data-focus="t-create"${busyAttr(app, 't-create')}>${t('t_create')}</button>
  </form>`;
}

// ----- a tournament's page ------------------------------------------------------------------------

/** @param {App} app */
export function renderTournament(app) {
  const tour = /** @type {NonNullable<App['tour']>} */ (app.tour);
  const rec = tour.record;
  // Over the table this page sits at (a director who also plays): the way back to it.
  const back = app.table && app.tourOverTable ? `<button class="btn small primary" data-action="back-to-table" data-testid="back-to-table" data-focus="back-to-table">← ${t('back_to_table')}</button>` : '';
  const head = `<div class="panel-head">${back}<button class="btn small ghost" data-action="close-tournament" data-testid="all-tournaments" data-focus="all-tournaments">← ${t('all_tournaments')}</button>
    <button class="btn small ghost" data-action="refresh-tournament" data-focus="refresh-tournament">↻ ${t('refresh')}</button></div>`;
  if (!rec) {
    return `<section class="tournament" data-testid="tournament-page" data-tournament="${escapeHtml(tour.id)}"><div class="panel">${head}
      <p class="empty">${tour.error ? escapeHtml(tour.error) : '…'}</p></div></section>`;
  }
  const live = app.tourLive[tour.id] ?? {};
  const st = live.status ?? null;
  const paused = st ? st.paused : !!rec.paused;
  const regOpen = st ? st.registration_open : rec.status === 'registering' && !!rec.registration?.open;
  const round = rec.rounds.length;
  const total = live.update?.rounds ?? rec.settings.rounds.length;
  const s = rec.settings;
  const facts = [kindLabel(s.kind), String(s.preset).toUpperCase(), t('t_hands_n', { n: s.hands }),
    s.rounds.map((/** @type {string} */ m) => movementLabel(m)).join(' → '),
    s.duplicate ? t('t_duplicate_on') : '', s.max_entrants ? t('t_max_n', { n: s.max_entrants }) : '',
    s.start_when_full ? t('t_start_full_on') : '', t(/** @type {any} */ (`seating_${s.seating ?? 'registration'}`))].filter(Boolean);
  const reg = rec.registration ?? {};
  const regFacts = rec.status === 'registering' ? [regOpen ? t('t_reg_open') : t('t_reg_closed'), reg.invite_only ? t('t_invite_only') : '',
    reg.check_in ? t('t_check_in_required') : '', reg.bots_after_secs != null && s.start_when_full ? t('t_bots_after', { s: reg.bots_after_secs }) : ''].filter(Boolean) : [];
  const winner = rec.status === 'finished' && rec.standings?.length ? entrantName(rec, rec.knockout_winner ?? rec.standings[0].entrant) : '';
  return `<section class="tournament" data-testid="tournament-page" data-tournament="${escapeHtml(tour.id)}">
    <div class="tour-main">
      <div class="panel">
        ${head}
        <h2 data-testid="tournament-name">${escapeHtml(s.name)} <span class="muted small mono">${escapeHtml(rec.tournament)}</span></h2>
        <p class="tour-status">
          <span class="status tstatus-${escapeHtml(rec.status)}" data-testid="tournament-status" data-status="${escapeHtml(rec.status)}">${tstatus(rec.status)}</span>
          <span data-testid="tournament-round">${round ? t('t_round_of', { n: round, total }) : t('t_not_started')}</span>
          ${paused ? `<span class="status tstatus-paused" data-testid="tournament-paused">${t('t_paused')}</span>` : ''}
          ${winner ? `<b data-testid="tournament-winner">★ ${escapeHtml(t('t_winner', { name: winner }))}</b>` : ''}
        </p>
        <p class="muted small" data-testid="tournament-settings">${facts.map(escapeHtml).join(' · ')}</p>
        ${regFacts.length ? `<p class="small" data-testid="tournament-registration">${regFacts.map(escapeHtml).join(' · ')}</p>` : ''}
      </div>
      ${myPanelHtml(app, rec, st, regOpen)}
      ${standingsHtml(app, rec, live)}
      ${roundsHtml(app, rec)}
      ${duplicateHtml(app, rec)}
      ${adjustmentsHtml(rec)}
    </div>
    <div class="tour-side">
      ${app.directs(tour.id) ? directorHtml(app, rec, paused) : directorKeyHtml(app, rec)}
      ${entrantsHtml(app, rec)}
      ${tourChatHtml(app, rec)}
    </div>
  </section>`;
}

/** Registration, my entrant, my table and the round timer. @param {App} app @param {any} rec @param {any} st @param {boolean} regOpen */
function myPanelHtml(app, rec, st, regOpen) {
  const id = rec.tournament;
  const f = app.lobbyForm;
  const mine = myEntrant(rec, app.playerId);
  const live = app.tourLive[id] ?? {};
  const parts = [];
  if (mine) {
    parts.push(`<p data-testid="my-entrant" data-entrant="${mine.entrant}"><b>${t('t_registered')}</b> · ${escapeHtml(mine.names.join(' & '))}</p>`);
    const code = app.partnerCode(id);
    const needsPartner = (rec.settings.kind === 'pairs' && mine.names.length < 2) || (rec.settings.kind === 'teams' && mine.names.length < 4);
    if (code && needsPartner) parts.push(`<p>${t('t_give_partner')} <b class="mono invite-code" data-testid="partner-code">${escapeHtml(code)}</b>
      <button class="btn tiny" data-action="copy-code" data-code="${escapeHtml(code)}" data-testid="copy-partner-code">${t('copy')}</button></p>`);
    const warnings = st?.warnings ?? mine.warnings ?? 0;
    if (warnings) parts.push(`<p class="warn" data-testid="my-warnings">${t('t_warnings', { n: warnings })}</p>`);
    if (rec.status === 'registering' && rec.registration?.check_in) {
      const checked = st?.checked_in ?? mine.checked_in;
      parts.push(checked ? `<p class="ok" data-testid="checked-in">✓ ${t('t_checked_in')}</p>`
        : `<p>${t('t_check_in_needed')}</p><button class="btn primary" data-action="tour-check-in" data-testid="check-in">${t('t_check_in')}</button>`);
    }
    if (rec.status === 'registering') parts.push(`<button class="btn small" data-action="tour-unregister" data-testid="unregister">${t('t_unregister')}</button>`);
    // A team's pairs for its next match (set_lineup): any of its players chooses.
    if (rec.settings.kind === 'teams' && mine.names.length === 4 && rec.status !== 'finished') {
      const current = lineupIndex(mine.lineup);
      parts.push(`<div class="lineup" data-testid="lineup"><h3>${t('t_lineup')}</h3><p class="muted small">${t('t_lineup_hint')}</p><div class="row">${LINEUPS.map((order, i) =>
        `<button class="btn small${i === current ? ' primary' : ''}" data-action="tour-lineup" data-lineup="${i}" data-testid="lineup-${i}" aria-pressed="${i === current}">${escapeHtml(lineupLabel(mine.names, order))}</button>`).join('')}</div></div>`);
    }
  } else if (rec.status === 'registering') {
    const pairs = rec.settings.kind === 'pairs' || rec.settings.kind === 'teams';
    const invite = rec.registration?.invite_only;
    parts.push(`<form data-form="tour-register" class="row">
      ${invite ? `<label class="field"><span>${t('t_invite')}</span><input class="mono" data-field="tInvite" data-focus="f-tInvite" value="${escapeHtml(f.tInvite)}" autocomplete="off" data-testid="t-invite" placeholder="C4E81B07"></label>` : ''}
      ${pairs ? `<label class="field"><span>${t('t_partner_code')}</span><input class="mono" data-field="tPartner" data-focus="f-tPartner" value="${escapeHtml(f.tPartner)}" autocomplete="off" data-testid="t-partner" placeholder="7F3A91C2"></label>` : ''}
      <button class="btn primary" type="submit" data-testid="register" ${regOpen ? busyAttr(app, 'register') : 'disabled'}>${pairs && f.tPartner ? t('t_register_partner') : t('t_register')}</button>
    </form>${pairs ? `<p class="muted small">${t('t_partner_hint')}</p>` : ''}`);
  }
  const next = mine && rec.status === 'playing' ? live.update?.table ? { table: live.update.table, seat: live.update.seat, round: live.update.round } : app.tourNext[id] ?? null : null;
  if (next && next.table) {
    const here = app.table?.table === next.table;
    parts.push(`<div class="next-table" data-testid="next-table"><h3>${t('t_next_table')}</h3>
      <p>${escapeHtml(t('t_next_table_line', { round: next.round, table: next.table, seat: t(/** @type {any} */ (`seat_${next.seat}`)) }))}</p>
      ${here ? '' : `<button class="btn primary" data-action="tour-go" data-testid="go-to-table">${t('t_go_table')} ▶</button>`}</div>`);
  } else if (mine && rec.status === 'playing') {
    parts.push(`<p class="muted" data-testid="between-rounds">${t('t_between_rounds')}</p>`);
  }
  const ends = st?.round_ends_ms;
  if (ends && rec.status === 'playing') parts.push(`<p class="round-timer" data-testid="round-timer">${t('t_round_ends')} ${roundTimer(st)}</p>`);
  if (!parts.length) return '';
  return `<div class="panel my-tour" data-testid="my-tournament">${parts.join('')}</div>`;
}

/** Live standings: the last update's, else the record's. @param {App} app @param {any} rec @param {any} live */
function standingsHtml(app, rec, live) {
  const standings = live.update?.standings ?? rec.standings ?? [];
  const mine = myEntrant(rec, app.playerId);
  // Each player's level beside its name, as at the seats (none for a guest or a provisional rating).
  const levels = app.tourLevels[rec.tournament] ?? {};
  const body = standings.length ? `<div class="table-scroll"><table class="ttable standings" data-testid="standings">
    <thead><tr><th>${t('col_rank')}</th><th>${t('col_entrant')}</th><th title="${t('col_vp_title')}">${t('col_vp')}</th><th title="${t('col_mp_title')}">${t('col_mp')}</th><th>${t('col_burraco')}</th></tr></thead>
    <tbody>${standings.map((/** @type {any} */ s) => `<tr data-testid="standing-row" data-entrant="${s.entrant}" class="${mine?.entrant === s.entrant ? 'mine' : ''}">
      <td>${s.rank}</td><td data-testid="standing-names">${namesOf(s).map((x, i) => `${escapeHtml(localBotName(x))}${levelBadge(levels[s.entrant]?.[i])}`).join(' &amp; ')}${s.bot ? ` ${botBadge(t('server_bot'))}` : ''}${mine?.entrant === s.entrant ? ` <span class="muted small">(${t('you_entrant')})</span>` : ''}</td>
      <td data-testid="standing-vp"><b>${s.vp}</b></td><td data-testid="standing-mp">${signed(s.mp)}</td><td data-testid="standing-burraco">${s.burraco}</td></tr>`).join('')}</tbody></table></div>`
    : `<p class="muted">${t('t_standings_none')}</p>`;
  return `<div class="panel"><h2>${t('t_standings')}</h2>${body}</div>`;
}

/** Each round's tables and results (the record's rounds). @param {App} app @param {any} rec */
function roundsHtml(app, rec) {
  const s = rec.settings;
  if (!rec.rounds.length) return `<div class="panel"><h2>${t('t_results')}</h2><p class="muted">${t('t_no_rounds')}</p></div>`;
  const side = (/** @type {number|null} */ a, /** @type {number|null} */ b) => `${entrantHtml(rec, a)}${b != null ? ` & ${entrantHtml(rec, b)}` : ''}`;
  const rounds = [...rec.rounds].reverse().map((/** @type {any} */ r) => {
    const rows = r.tables.map((/** @type {any} */ tb) => {
      const res = tb.result;
      const pts = !res ? `<span class="muted">${t('t_in_play')}</span>` : !res.played ? `<span class="muted">${t('t_not_played')}</span>` : `${res.totals[0]} – ${res.totals[1]}`;
      const mine = app.table?.table === tb.table;
      // A table in play is watched from here as from the lobby (not over one's own table, and not
      // a duplicate board's: the server refuses spectators while others may be playing its deals).
      const watchable = !res && !mine && !s.duplicate && (!app.table || app.spectating);
      const watch = watchable ? `<button class="btn tiny" data-action="watch" data-table="${escapeHtml(tb.table)}" data-testid="tour-watch" data-focus="watch-${escapeHtml(tb.table)}">${t('watch')}</button> ` : '';
      return `<tr data-testid="result-row" data-round="${r.round}" data-table="${escapeHtml(tb.table)}" class="${mine ? 'mine' : ''}">
        ${cell(t('col_tnum'), String(tb.number))}${cell(t('col_ns'), side(tb.ns, tb.ns_partner ?? null))}${cell(t('col_ew'), side(tb.ew, tb.ew_partner ?? null))}
        ${cell(t('col_points'), `${pts}${tb.awarded ? ` <span class="muted small">(${t(/** @type {any} */ (`awarded_${tb.awarded}`))})</span>` : ''}`, 'result-totals')}
        ${cell(t('col_vp'), res ? `${res.vp[0]} – ${res.vp[1]}` : '', 'result-vp')}
        ${cell(t('col_mp'), res ? `${signed(res.mp[0])} / ${signed(res.mp[1])}` : '', 'result-mp')}
        ${cell(t('col_hands'), res ? String(res.hands) : '')}
        ${cell('', `${watch}${res ? `<button class="btn tiny" data-action="tour-replay" data-url="${escapeHtml(tb.hand_records)}" data-table="${escapeHtml(tb.table)}" data-testid="tour-replay">${t('replay')}</button> ` : ''}<a href="${escapeHtml(tb.hand_records)}" target="_blank" rel="noopener" class="small muted" title="${t('t_hand_records')}">JSON</a>`)}</tr>`;
    }).join('');
    // A teams event: each match is two tables on the same deals, scored together.
    const matches = (r.matches ?? []).map((/** @type {any} */ mt) => `<tr data-testid="match-row" data-round="${r.round}">
        <td>${mt.tables.join(' + ')}</td><td>${entrantHtml(rec, mt.ns)}</td><td>${entrantHtml(rec, mt.ew)}</td>
        <td>${mt.totals[0]} – ${mt.totals[1]}</td><td>${mt.vp[0]} – ${mt.vp[1]}</td><td>${signed(mt.mp[0])} / ${signed(mt.mp[1])}</td></tr>`).join('');
    const teams = matches ? `<h4>${t('t_team_matches')}</h4><div class="table-scroll"><table class="ttable" data-testid="team-matches"><thead><tr><th>${t('col_tnum')}</th>
      <th>${t('col_ns')}</th><th>${t('col_ew')}</th><th>${t('col_points')}</th><th>${t('col_vp')}</th><th>${t('col_mp')}</th></tr></thead><tbody>${matches}</tbody></table></div>` : '';
    const bye = r.bye != null ? `<p class="small" data-testid="result-bye">${escapeHtml(t('t_bye', { name: entrantName(rec, r.bye), vp: rec.bye_score?.vp ?? '' }))}</p>` : '';
    return `<section class="round" data-testid="round-results" data-round="${r.round}"><h3>${t('t_round_title', { n: r.round, movement: movementLabel(r.movement) })}</h3>
      <div class="table-scroll"><table class="ttable labelled"><thead><tr><th>${t('col_tnum')}</th><th>${t('col_ns')}</th><th>${t('col_ew')}</th><th>${t('col_points')}</th><th>${t('col_vp')}</th><th>${t('col_mp')}</th><th>${t('col_hands')}</th><th></th></tr></thead>
      <tbody>${rows}</tbody></table></div>${teams}${bye}</section>`;
  }).join('');
  return `<div class="panel"><h2>${t('t_results')}</h2>${rounds}</div>`;
}

/** The duplicate comparison: per round, tables × boards. @param {App} app @param {any} rec */
function duplicateHtml(app, rec) {
  if (!rec.settings.duplicate || !rec.rounds.length) return '';
  const rounds = [...rec.rounds].reverse().filter((/** @type {any} */ r) => r.boards).map((/** @type {any} */ r) => {
    const grid = duplicateGrid(r, app.tourHands, rec.settings.kind);
    const head = grid.boards.map((b) => `<th>${t('t_board_n', { n: b.hand })}${b.revealed ? '' : `<br><span class="muted small">${t('t_board_hidden')}</span>`}</th>`).join('');
    const rows = grid.rows.map((row) => {
      const res = r.tables.find((/** @type {any} */ x) => x.table === row.table)?.result;
      const cells = row.cells.map((c, i) => {
        // A revealed board whose record is on its way; a board not revealed, or a table that did not play.
        const board = t('t_board_n', { n: grid.boards[i].hand });
        if (!c) return `<td class="muted" data-label="${escapeHtml(board)}"><div class="cv">${grid.boards[i].revealed && res?.played !== false ? '…' : '—'}</div></td>`;
        return `<td data-testid="dup-cell" data-board="${grid.boards[i].hand}" data-label="${escapeHtml(board)}"><div class="cv"><span data-testid="dup-score">${c.ns} – ${c.ew}</span> <span class="muted small">(${signed(c.diff)})</span><br><span class="small" data-testid="dup-mp">${c.mpNs} ${t('mp_unit')}</span></div></td>`;
      }).join('');
      return `<tr data-testid="dup-row" data-table="${escapeHtml(row.table)}"><th scope="row" data-label="${escapeHtml(t('col_tnum'))}"><div class="cv">${row.number}</div></th>
        ${cell(t('col_ns'), `${entrantHtml(rec, row.ns)}${row.nsPartner != null ? ` & ${entrantHtml(rec, row.nsPartner)}` : ''}`)}
        ${cell(t('col_ew'), `${entrantHtml(rec, row.ew)}${row.ewPartner != null ? ` & ${entrantHtml(rec, row.ewPartner)}` : ''}`)}
        ${cells}${cell(t('col_points'), res?.played ? `${res.totals[0]} – ${res.totals[1]}` : '—', 'dup-totals')}
        ${cell(t('col_mps'), res?.matchpoints ? `${res.matchpoints[0]} / ${res.matchpoints[1]}` : '—', 'dup-matchpoints')}</tr>`;
    }).join('');
    return `<section data-testid="dup-round" data-round="${r.round}"><h3>${t('t_round_title', { n: r.round, movement: movementLabel(r.movement) })}</h3>
      <div class="table-scroll"><table class="ttable dup labelled" data-testid="dup-grid"><thead><tr><th>${t('col_tnum')}</th><th>${t('col_ns')}</th><th>${t('col_ew')}</th>${head}<th>${t('col_points')}</th><th>${t('col_mps')}</th></tr></thead>
      <tbody>${rows}</tbody></table></div></section>`;
  }).join('');
  return `<div class="panel" data-testid="duplicate"><h2>${t('t_dup')}</h2><p class="muted small">${t('t_dup_hint')}</p>${rounds}</div>`;
}

/** The director's adjustments and the warnings, with their reasons. @param {any} rec */
function adjustmentsHtml(rec) {
  const adj = rec.adjustments ?? [];
  const warns = rec.warnings ?? [];
  if (!adj.length && !warns.length) return '';
  const line = (/** @type {any} */ a, /** @type {string} */ what, /** @type {string} */ testid) => `<li data-testid="${testid}" data-entrant="${a.entrant}">${escapeHtml(t('t_log_line', { name: entrantName(rec, a.entrant), what, reason: a.reason }))}</li>`;
  return `<div class="panel" data-testid="adjustments">
    ${adj.length ? `<h2>${t('t_adjustments')}</h2><ul class="tour-log">${adj.map((/** @type {any} */ a) => line(a, `${signed(a.vp)} ${t('col_vp')}`, 'adjustment')).join('')}</ul>` : ''}
    ${warns.length ? `<h2>${t('t_warnings_list')}</h2><ul class="tour-log">${warns.map((/** @type {any} */ w) => line(w, t('dir_warn'), 'warning')).join('')}</ul>` : ''}</div>`;
}

/** The entry list. @param {App} app @param {any} rec */
function entrantsHtml(app, rec) {
  const list = (rec.entrants ?? []).filter((/** @type {any} */ e) => !e.unregistered);
  const mine = myEntrant(rec, app.playerId);
  const items = list.map((/** @type {any} */ e) => {
    const marks = [e.no_show ? t('t_no_show') : '', e.withdrawn ? t('t_withdrawn') : '', e.disqualified ? t('t_disqualified') : '',
      rec.registration?.check_in && e.checked_in ? '✓' : '', e.warnings ? t('t_warnings', { n: e.warnings }) : ''].filter(Boolean);
    const levels = (app.tourLevels[rec.tournament]?.[e.entrant] ?? []).map((l) => levelBadge(l)).join('');
    return `<li data-testid="entrant" data-entrant="${e.entrant}" class="${mine?.entrant === e.entrant ? 'mine' : ''}"><span class="muted small">#${e.entrant}</span> ${entrantHtml(rec, e.entrant)}${levels}
      ${marks.length ? `<span class="muted small">${escapeHtml(marks.join(' · '))}</span>` : ''}</li>`;
  }).join('');
  return `<div class="panel"><h2>${t('t_entrants', { n: list.length })}</h2>${list.length ? `<ul class="entrants">${items}</ul>` : `<p class="muted">${t('t_no_entrants')}</p>`}</div>`;
}

/** Unix ms as a `datetime-local` input's value (local time), or '' for none. @param {number|null|undefined} ms */
function localInput(ms) {
  if (ms == null) return '';
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60000);
  return d.toISOString().slice(0, 16);
}

/** Without a director key here: a place to paste one (the creator's, from another device). @param {App} app @param {any} rec */
function directorKeyHtml(app, rec) {
  if (rec.status === 'finished') return '';
  const f = app.lobbyForm;
  // Opened by a button and kept open in the page's state: a re-render keeps what is typed.
  if (!f.dKeyOpen) {
    return `<div class="panel" data-testid="dir-key-entry"><button class="btn small ghost" data-action="dir-key-open" data-testid="dir-key-open">${t('dir_i_direct')}</button></div>`;
  }
  return `<div class="panel" data-testid="dir-key-entry"><h3>${t('dir_i_direct')}</h3>
    <div class="row">
      <label class="field grow"><span>${t('dir_key_field')}</span><input class="mono" autocomplete="off" spellcheck="false" maxlength="64" data-field="dKeyPaste" data-focus="f-dKeyPaste" value="${escapeHtml(f.dKeyPaste ?? '')}" data-testid="dir-key-field"></label>
      <button class="btn small primary" data-action="dir-use-key" data-testid="dir-use-key">${t('dir_use_key')}</button>
    </div></div>`;
}

/** A yes / no before a director's action that cannot be undone. @param {App} app @param {string} action */
function confirmHtml(app, action) {
  if (app.dirConfirm !== action) return '';
  // Before the first round, ending the event is cancelling it.
  const end = app.tour?.record?.status === 'registering' ? 'dir_cancel_event' : 'dir_end';
  const what = t(/** @type {any} */ ({ 'dir-end': end, 'dir-withdraw': 'dir_withdraw', 'dir-excuse': 'dir_excuse', 'dir-disqualify': 'dir_disqualify' })[action]);
  return `<div class="banner stallo-warn row" data-testid="dir-confirm" role="alertdialog"><span>${escapeHtml(t('dir_confirm', { what }))}</span>
    <button class="btn small primary" data-action="${action}" data-confirmed="1" data-testid="dir-confirm-yes">${t('dir_yes')}</button>
    <button class="btn small" data-action="dir-confirm-cancel" data-testid="dir-confirm-no">${t('dir_no')}</button></div>`;
}

/** The director's panel (this tab holds the director token). @param {App} app @param {any} rec @param {boolean} paused */
function directorHtml(app, rec, paused) {
  const f = app.lobbyForm;
  const entrants = (rec.entrants ?? []).filter((/** @type {any} */ e) => !e.unregistered);
  const opts = /** @type {[string, string][]} */ ([['', '—'], ...entrants.map((/** @type {any} */ e) => [String(e.entrant), `#${e.entrant} ${e.names.join(' & ')}`])]);
  const over = rec.status === 'finished';
  const before = rec.status === 'registering';
  const reg = rec.registration ?? {};
  const invite = app.dirInvite[rec.tournament];
  return `<div class="panel director" data-testid="director-panel">
    <h2>${t('dir_panel')}</h2>
    ${app.directorToken(rec.tournament) ? `<p class="muted small">${t('dir_hint')}</p>
    <p class="small">${t('dir_key')}: <code class="mono" data-testid="dir-key">${escapeHtml(app.directorToken(rec.tournament) ?? '')}</code>
      <button class="btn small ghost" data-action="dir-copy-key" data-testid="dir-copy-key">${t('dir_copy')}</button>
      <button class="btn small ghost" data-action="dir-forget-key" data-testid="dir-forget-key">${t('dir_forget_key')}</button></p>
    <p class="muted small">${t('dir_key_hint')}</p>` : `<p class="muted small" data-testid="dir-as-account">${t('dir_as_account')}</p>`}
    <div class="row">
      <button class="btn primary" data-action="dir-start" data-testid="dir-start" ${over ? 'disabled' : ''}>${t('dir_start')}</button>
      ${paused ? `<button class="btn" data-action="dir-resume" data-testid="dir-resume" ${over ? 'disabled' : ''}>${t('dir_resume')}</button>`
        : `<button class="btn" data-action="dir-pause" data-testid="dir-pause" ${over ? 'disabled' : ''}>${t('dir_pause')}</button>`}
      <button class="btn" data-action="dir-end" data-testid="dir-end" ${over ? 'disabled' : ''}>${before ? t('dir_cancel_event') : t('dir_end')}</button>
    </div>
    ${confirmHtml(app, 'dir-end')}
    <h3>${t('dir_adjust')}</h3>
    <div class="grid2">
      <label class="field"><span>${t('dir_entrant')}</span>${select('dEntrant', f.dEntrant, opts, 'dir-entrant')}</label>
      <label class="field"><span>${t('dir_vp')}</span><input type="number" step="1" data-field="dVp" data-focus="f-dVp" value="${escapeHtml(f.dVp)}" data-testid="dir-vp"></label>
      <label class="field span2"><span>${t('dir_reason')}</span><input maxlength="200" data-field="dReason" data-focus="f-dReason" value="${escapeHtml(f.dReason)}" data-testid="dir-reason"></label>
    </div>
    <div class="row dir-actions">
      <button class="btn small primary" data-action="dir-adjust" data-testid="dir-adjust">${t('dir_adjust')}</button>
      <button class="btn small" data-action="dir-warn" data-testid="dir-warn" ${over ? 'disabled' : ''}>${t('dir_warn')}</button>
      <button class="btn small" data-action="dir-withdraw" data-testid="dir-withdraw" ${over ? 'disabled' : ''}>${t('dir_withdraw')}</button>
      <button class="btn small" data-action="dir-excuse" data-testid="dir-excuse" ${over ? 'disabled' : ''} title="${t('dir_excuse_hint')}">${t('dir_excuse')}</button>
      <button class="btn small" data-action="dir-disqualify" data-testid="dir-disqualify" ${over ? 'disabled' : ''}>${t('dir_disqualify')}</button>
    </div>
    ${confirmHtml(app, 'dir-withdraw')}${confirmHtml(app, 'dir-excuse')}${confirmHtml(app, 'dir-disqualify')}
    <h3>${t('dir_forbid')}</h3>
    <div class="row">
      <label class="field grow">${select('dEntrant2', f.dEntrant2, opts, 'dir-entrant-2')}</label><span>${t('dir_forbid_with')}</span>
      <label class="field grow">${select('dEntrant3', f.dEntrant3, opts, 'dir-entrant-3')}</label>
      <button class="btn small" data-action="dir-forbid" data-testid="dir-forbid" ${over ? 'disabled' : ''}>${t('dir_forbid')}</button>
    </div>
    <h3>${t('dir_round_time')}</h3>
    <div class="row">
      <label class="field grow"><input type="number" min="1" max="240" data-field="dRoundMin" data-focus="f-dRoundMin" value="${escapeHtml(f.dRoundMin)}" data-testid="dir-round-min"></label>
      <button class="btn small" data-action="dir-round-time" data-testid="dir-round-time" ${over ? 'disabled' : ''}>${t('dir_set_time')}</button>
      <button class="btn small ghost" data-action="dir-round-time-preset" ${over ? 'disabled' : ''}>${t('dir_preset_time')}</button>
    </div>
    ${before ? `<h3>${t('dir_registration')}</h3>
    <div class="dir-checks">
      ${checkbox('dOpen', f.dOpen == null ? !!reg.open : f.dOpen === true, t('dir_reg_open'), 'dir-open')}
      ${checkbox('dInviteOnly', f.dInviteOnly == null ? !!reg.invite_only : f.dInviteOnly === true, t('dir_invite_only'), 'dir-invite-only')}
      ${checkbox('dCheckIn', f.dCheckIn == null ? !!reg.check_in : f.dCheckIn === true, t('dir_check_in'), 'dir-check-in')}
    </div>
    <div class="grid2">
      <label class="field"><span>${t('dir_closes')}</span><input type="datetime-local" data-field="dCloses" data-focus="f-dCloses"
        value="${escapeHtml(f.dCloses == null ? localInput(reg.closes_ms) : f.dCloses)}" data-testid="dir-closes"></label>
      <label class="field"><span>${t('dir_starts')}</span><input type="datetime-local" data-field="dStarts" data-focus="f-dStarts"
        value="${escapeHtml(f.dStarts == null ? localInput(reg.starts_ms) : f.dStarts)}" data-testid="dir-starts"></label>
    </div>
    <div class="row">
      ${rec.settings?.start_when_full ? `<label class="field grow"><span>${t('dir_bots_after')}</span><input type="number" min="0" max="86400" step="1" data-field="dBotsAfter" data-focus="f-dBotsAfter"
        value="${escapeHtml(f.dBotsAfter == null ? String(reg.bots_after_secs ?? '') : f.dBotsAfter)}" data-testid="dir-bots-after"></label>`
        : `<p class="muted small grow" data-testid="dir-bots-sitgo-only">${t('dir_bots_sitgo_only')}</p>`}
      <button class="btn small primary" data-action="dir-configure" data-testid="dir-configure">${t('dir_configure')}</button>
    </div>
    ${rec.settings?.seating === 'director' ? `<div class="row">
      <label class="field grow"><span>${t('dir_order')}</span><input data-field="dOrder" data-focus="f-dOrder"
        value="${escapeHtml(f.dOrder == null ? (rec.first_round_order ?? []).join(', ') : f.dOrder)}" data-testid="dir-order"></label>
      <button class="btn small" data-action="dir-seat" data-testid="dir-seat">${t('dir_seat')}</button>
    </div>` : ''}
    ${invite ? `<p data-testid="dir-invite">${t('dir_invite_code', { code: `<b class="mono">${escapeHtml(invite)}</b>` })}
      <button class="btn tiny" data-action="copy-code" data-code="${escapeHtml(invite)}" data-testid="copy-invite-code">${t('copy')}</button></p>` : ''}` : ''}
  </div>`;
}

/**
 * The strip over a tournament's table: its name, the round, the round timer, the way back to its page.
 * @param {App} app @param {string} id
 */
export function tournamentStripHtml(app, id) {
  const live = app.tourLive[id] ?? {};
  const rec = app.tourRecords[id] ?? null;
  const name = rec?.settings?.name ?? id;
  const u = live.update;
  const ends = live.status?.round_ends_ms;
  const warned = app.tourWarning && app.tourWarning.id === id
    ? `<div class="banner stallo-warn row" data-testid="tour-warning" role="alert"><span>${escapeHtml(t('t_warned', { reason: app.tourWarning.reason }))}</span>
      <button class="btn tiny" data-action="warning-seen" data-testid="warning-seen">${t('close')}</button></div>` : '';
  return `${warned}<div class="banner info tour-strip" data-testid="tour-strip"><span>${escapeHtml(t('tour_banner', { name, n: u?.round ?? rec?.rounds?.length ?? 0, total: u?.rounds ?? rec?.settings?.rounds?.length ?? 0 }))}</span>
    ${ends && u?.status === 'playing' ? `<span>${t('t_round_ends')} ${roundTimer(live.status)}</span>` : ''}
    <button class="btn tiny" data-action="tour-back" data-tournament="${escapeHtml(id)}" data-testid="tour-back">${t('tour_page')}</button></div>`;
}

/**
 * The round in play's clock from a `tournament_status`: counting down to `round_ends_ms`, or, while
 * the director has paused the event, held still at what was left when the status came (`held_ms`,
 * noted by the controller): the tables' clocks stand still too (`table_paused`).
 * @param {any} status
 */
function roundTimer(status) {
  if (status.paused && status.held_ms != null) return `<b data-held="${status.held_ms}" data-testid="round-timer-held"></b>`;
  return `<b data-round-ends="${status.round_ends_ms}"></b>`;
}

/** A date and time in the page's language. @param {number} ms */
function when(ms) {
  return new Date(ms).toLocaleString(getLang() === 'it' ? 'it-IT' : 'en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** The calendar of upcoming events: each scheduled one by its start time, soonest first. @param {App} app */
function calendarHtml(app) {
  const rows = app.calendar.map((c) => `<li data-testid="calendar-entry" data-tournament="${escapeHtml(c.id)}">
      <time datetime="${new Date(c.starts).toISOString()}" data-testid="calendar-date">${escapeHtml(when(c.starts))}</time>
      <span class="cal-name"><b>${escapeHtml(c.name)}</b> <span class="muted small">${kindLabel(c.kind)}${c.closes != null ? ` · ${escapeHtml(t('t_calendar_closes', { date: when(c.closes) }))}` : ''}</span></span>
      <button class="btn tiny" data-action="open-tournament" data-tournament="${escapeHtml(c.id)}" data-testid="calendar-open" data-focus="cal-${escapeHtml(c.id)}">${t('open_tournament')}</button></li>`).join('');
  return `<section class="calendar" data-testid="calendar"><h3>${t('t_calendar')}</h3>
    ${rows ? `<ol class="calendar-list">${rows}</ol>` : `<p class="muted small" data-testid="calendar-none">${t('t_calendar_none')}</p>`}</section>`;
}

/**
 * A line's report control (protocol 1.8 `tournament_report`): a small button, once reported a
 * note saying so; open, the reason and an optional note for the moderators.
 * @param {App} app @param {string} id @param {any} l
 */
function tourReportHtml(app, id, l) {
  const key = `${id}:${l.line}`;
  if (app.tourReported.has(key)) return ` <span class="muted small" data-testid="tour-chat-reported">${t('t_reported')}</span>`;
  const open = app.tourReport === key;
  const button = `<button type="button" class="btn tiny report-line" data-action="tour-report" data-line="${l.line}" data-testid="tour-chat-report"
    aria-expanded="${open}" aria-label="${escapeHtml(t('t_report_line', { name: l.name }))}" data-focus="t-report-${l.line}">${t('t_report')}</button>`;
  if (!open) return ` ${button}`;
  // Kept in the form's state: a line heard meanwhile re-renders the page.
  const chosen = app.lobbyForm.tReportReason ?? 'abuse';
  const reasons = /** @type {const} */ ([['abuse', 't_report_abuse'], ['spam', 't_report_spam'], ['cheating', 't_report_cheating'], ['other', 't_report_other']])
    .map(([r, key]) => `<option value="${r}"${r === chosen ? ' selected' : ''}>${t(key)}</option>`).join('');
  return ` ${button}<form class="report-form" data-form="tour-report" data-line="${l.line}" data-testid="tour-report-form">
      <label>${t('t_report_reason')} <select name="reason" data-field="tReportReason" data-testid="tour-report-reason">${reasons}</select></label>
      <label>${t('t_report_note')} <input name="note" maxlength="1000" autocomplete="off" data-field="tReportNote" data-focus="t-report-note"
        value="${escapeHtml(app.lobbyForm.tReportNote ?? '')}" data-testid="tour-report-note"></label>
      <span class="report-buttons"><button class="btn small" type="submit" data-testid="tour-report-send">${t('t_report_send')}</button>
      <button class="btn small ghost" type="button" data-action="tour-report-cancel" data-testid="tour-report-cancel">${t('cancel')}</button></span></form>`;
}

/**
 * The tournament's chat (protocol 1.7): its recent lines, the director's marked; the form for an
 * entrant or the director (the others read). @param {App} app @param {any} rec
 */
function tourChatHtml(app, rec) {
  const id = rec.tournament;
  const lines = (app.tourChat[id] ?? []).slice(-50);
  const speaker = (/** @type {any} */ l) => l.director ? `${escapeHtml(l.name)} <span class="badge director-badge" data-testid="chat-director">${t('t_chat_director')}</span>`
    : escapeHtml(localBotName(l.name));
  const mine = myEntrant(rec, app.playerId);
  const myName = mine ? (mine.names ?? [])[(mine.players ?? []).indexOf(app.playerId)] : null;
  // Others' lines only (the server refuses one's own too), for a signed-in account (1.8).
  const ownLine = (/** @type {any} */ l) => l.director ? !!app.directorToken(id) : !!mine && l.entrant === mine.entrant && l.name === myName;
  const reports = app.identity === 'player';
  const items = lines.map((/** @type {any} */ l) => `<li data-testid="tour-chat-line" data-line="${l.line}"${l.director ? ' class="from-director"' : ''}><b>${speaker(l)}:</b> <span class="chat-text">${escapeHtml(l.text)}</span>${reports && !ownLine(l) ? tourReportHtml(app, id, l) : ''}</li>`).join('');
  const writes = !!mine || !!app.directorToken(id);
  const form = writes ? `<form class="chat-form" data-form="tour-chat"><input name="text" maxlength="400" autocomplete="off" data-field="tChat" data-focus="t-chat-input"
      data-testid="t-chat-input" value="${escapeHtml(app.lobbyForm.tChat ?? '')}" placeholder="${t('t_chat_placeholder')}" aria-label="${t('t_chat')}">
      <button class="btn small" type="submit" data-testid="t-chat-send">${t('send')}</button></form>`
    : `<p class="muted small">${t('t_chat_readonly')}</p>`;
  return `<div class="panel tour-chat" data-testid="tour-chat"><h2>${t('t_chat')}</h2>
    ${lines.length ? `<ul class="chat" aria-live="polite">${items}</ul>` : `<p class="muted">${t('t_chat_none')}</p>`}${form}</div>`;
}
