// @ts-check
/** The name form and the lobby: open tables, quick play, create (preset + overrides), join by invite. */
import { t, localBotName } from './i18n.js';
import { escapeHtml } from './dom.js';
import { cardHtml } from './cards.js';
import { isServerBotName } from './state.js';
import { levelBadge, levelOf } from './levels.js';

/** @param {import('./app.js').App} app */
export function renderLogin(app) {
  const error = app.nameError;
  // No maxlength: the page's check says why a name is too long (a maxlength would cut it, and
  // counts an emoji as two).
  return `<section class="login">
    <div class="login-card">
      <div class="hero-cards" aria-hidden="true">${['AH', 'KS', 'JK', '2D', 'QC'].map((c) => cardHtml(c)).join('')}</div>
      <h1>${app.changingName ? t('change_name_title') : t('app_title')}</h1>
      <p class="tagline">${app.changingName ? t('change_name_hint') : t('tagline')}</p>
      <form data-form="login" class="row" novalidate>
        <label class="field grow"><span>${t('your_name')}</span>
          <input name="name" autocomplete="nickname" required placeholder="${t('name_placeholder')}" value="${escapeHtml(app.name)}" data-testid="name-input" data-focus="name" autofocus
            ${error ? 'aria-invalid="true" aria-describedby="name-error"' : ''}></label>
        <button class="btn primary" type="submit" data-testid="enter">${app.changingName ? t('change_name') : t('enter')}</button>
        ${app.changingName ? `<button class="btn" type="button" data-action="change-name-cancel" data-testid="change-name-cancel">${t('cancel')}</button>` : ''}
      </form>
      ${error ? `<p class="field-error" id="name-error" role="alert" data-testid="name-error">${escapeHtml(error)}</p>` : ''}
      ${app.changingName ? '' : `<p class="muted"><a href="account.html" data-testid="account-link">${t('account_link')}</a> · <a href="player.html" data-testid="games-link">${t('games_link')}</a> · <a href="leaderboard.html" data-testid="leaderboard-link">${t('leaderboard_link')}</a> · <a href="season.html" data-testid="season-link">${t('season_link')}</a> · <a href="arena.html" data-testid="arena-link">${t('arena_link')}</a></p>`}
    </div>
  </section>`;
}

/**
 * The "Rated" checkbox (one field for quick play and create): only for a signed-in account, as
 * the server refuses rated play to a guest (`account_required`).
 * @param {import('./app.js').App} app @param {string} testid
 */
function ratedBox(app, testid) {
  if (app.identity === 'guest') return '';
  return `<label class="check" title="${escapeHtml(t('rated_hint'))}"><input type="checkbox" data-field="rated" data-focus="${testid}" data-testid="${testid}"${app.lobbyForm.rated ? ' checked' : ''}><span>${t('rated')}</span></label>`;
}

/** ` disabled aria-busy="true"` while the creating request `key` is in flight. @param {import('./app.js').App} app @param {string} key */
export function busyAttr(app, key) {
  return app.inFlight.has(key) ? ' disabled aria-busy="true"' : '';
}

/** A robot's head, drawn in the text colour. */
const ROBOT = '<svg class="robot" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false"><g fill="currentColor">'
  + '<circle cx="8" cy="1.6" r="1.2"/><rect x="7.4" y="2" width="1.2" height="2.2"/><rect x="0.6" y="7" width="1.6" height="3.4" rx=".6"/>'
  + '<rect x="13.8" y="7" width="1.6" height="3.4" rx=".6"/><path fill-rule="evenodd" d="M4.5 4h7a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2h-7a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z'
  + 'M6 6.9a1.3 1.3 0 1 0 0 2.6a1.3 1.3 0 1 0 0-2.6zM10 6.9a1.3 1.3 0 1 0 0 2.6a1.3 1.3 0 1 0 0-2.6zM5.5 11h5v1.2h-5z"/></g></svg>';

/**
 * The badge of a seat a server bot plays: a robot and "Bot".
 * @param {string} title what the badge means here (a server bot, or a bot standing in for a player)
 */
export function botBadge(title) {
  return `<span class="bot-badge" title="${escapeHtml(title)}" data-testid="bot-badge">${ROBOT}<span>${t('bot')}</span></span>`;
}

/** @param {string} s */
function statusLabel(s) {
  const k = /** @type {any} */ (`status_${s}`);
  return t(k);
}

/** @param {string} p */
function presetLabel(p) {
  return t(/** @type {any} */ (`preset_${p}`)).replace(' (default)', '').replace(' (predefinito)', '');
}

/**
 * @param {string} field @param {string} value @param {[string, string][]} options @param {string} [testid]
 */
function select(field, value, options, testid) {
  return `<select data-field="${field}" data-focus="f-${field}" ${testid ? `data-testid="${testid}"` : ''}>${options
    .map(([v, l]) => `<option value="${v}" ${v === value ? 'selected' : ''}>${l}</option>`).join('')}</select>`;
}

/** The lobby's two lists: open tables and tournaments. @param {import('./app.js').App} app */
export function lobbyTabsHtml(app) {
  const tab = (/** @type {string} */ id, /** @type {string} */ label) => `<button type="button" role="tab" class="tab" aria-selected="${app.lobbyTab === id}"
    data-action="lobby-tab" data-tab="${id}" data-testid="tab-${id}" data-focus="tab-${id}">${label}</button>`;
  return `<h2 class="tabs" role="tablist">${tab('tables', t('open_tables'))}${tab('tournaments', t('tab_tournaments'))}</h2>`;
}

/** @param {import('./app.js').App} app */
export function renderLobby(app) {
  const f = app.lobbyForm;
  const rows = app.tables.map((tb) => {
    const seated = tb.seats.filter((/** @type {any} */ s) => s.name).length;
    const names = tb.seats.map((/** @type {any} */ s) => {
      const where = t(/** @type {any} */ ('seat_' + s.seat));
      if (!s.name) return `<span class="seat-chip free" title="${where}">${s.seat}: —</span>`;
      if (!s.bot) return `<span class="seat-chip" title="${where}">${s.seat}: ${escapeHtml(s.name)}${levelBadge(levelOf(tb.levels, s.seat))}</span>`;
      // A server bot's own seat, or a player's seat a bot plays while they are away.
      const title = isServerBotName(s.name) ? t('server_bot') : t('stand_in', { name: s.name });
      return `<span class="seat-chip bot" data-testid="bot-seat" title="${where} · ${escapeHtml(title)}">${s.seat}: ${ROBOT} ${escapeHtml(localBotName(s.name))}</span>`;
    }).join(' ');
    // On a phone the names column is hidden: the levels go beside the seat count, by seat.
    const narrowLevels = (tb.levels ?? []).map((/** @type {any} */ l) => `<span class="row-level">${escapeHtml(l.seat)}${levelBadge(l.level)}</span>`).join('');
    const canJoin = tb.status === 'waiting' && seated < tb.players;
    return `<tr data-testid="table-row" data-table="${escapeHtml(tb.table)}">
      <td class="mono">${escapeHtml(tb.table)}${tourLabel(app, tb.table)}</td>
      <td>${presetLabel(tb.preset)}</td>
      <td>${seated}/${tb.players}${narrowLevels ? `<span class="row-levels">${narrowLevels}</span>` : ''}</td>
      <td class="names">${names}</td>
      <td><span class="status status-${tb.status}">${statusLabel(tb.status)}</span>${tb.rated ? ` <span class="rated-chip" data-testid="rated-chip">${t('rated')}</span>` : ''}${tb.spectators ? ` <span class="muted small">${t('spectators', { n: tb.spectators })}</span>` : ''}</td>
      <td class="actions">
        ${canJoin ? `<button class="btn small primary" data-action="join" data-table="${escapeHtml(tb.table)}" data-focus="join-${escapeHtml(tb.table)}">${t('join')}</button>` : ''}
        <button class="btn small" data-action="watch" data-table="${escapeHtml(tb.table)}" data-focus="watch-${escapeHtml(tb.table)}">${t('watch')}</button>
      </td></tr>`;
  }).join('');
  const presetOpts = /** @type {[string,string][]} */ ([['fitab', t('preset_fitab')], ['feburit', t('preset_feburit')], ['fedibur', t('preset_fedibur')]]);
  const playersOpts = /** @type {[string,string][]} */ ([['4', t('players_4')], ['2', t('players_2')]]);
  const onOff = /** @type {[string,string][]} */ ([['', t('opt_default')], ['on', t('opt_on')], ['off', t('opt_off')]]);
  return `<section class="lobby">
    <div class="lobby-main panel">
      <div class="panel-head">${lobbyTabsHtml(app)}
        <button class="btn small ghost" data-action="refresh" data-focus="refresh">↻ ${t('refresh')}</button></div>
      ${app.tables.length ? `<div class="table-scroll"><table class="tables" data-testid="tables">
        <thead><tr><th>${t('col_table')}</th><th>${t('col_preset')}</th><th>${t('col_seats')}</th><th>${t('col_players')}</th><th>${t('col_status')}</th><th></th></tr></thead>
        <tbody>${rows}</tbody></table></div>` : `<p class="empty">${t('no_tables')}</p>`}
    </div>
    <div class="lobby-side">
      <div class="panel">
        <h2>${t('quick_play')}</h2>
        <p class="muted">${t('quick_play_hint')}</p>
        <div class="row">
          <label class="field"><span>${t('preset')}</span>${select('preset', f.preset, presetOpts)}</label>
          <label class="field"><span>${t('players')}</span>${select('players', f.players, playersOpts)}</label>
        </div>
        ${ratedBox(app, 'quick-rated')}
        <button class="btn primary wide" data-action="quick" data-testid="quick-play" data-focus="quick"${busyAttr(app, 'quick')}>${t('quick_play')} ▶</button>
      </div>
      <form class="panel" data-form="create">
        <h2>${t('create_table')}</h2>
        <div class="grid2">
          <label class="field"><span>${t('preset')}</span>${select('preset', f.preset, presetOpts, 'create-preset')}</label>
          <label class="field"><span>${t('players')}</span>${select('players', f.players, playersOpts, 'create-players')}</label>
          <label class="field"><span>${t('match_length')}</span>${select('length', f.length, [['default', t('match_default')], ['hands', t('match_hands')], ['target', t('match_target')]], 'create-length')}</label>
          ${f.length === 'hands' ? `<label class="field"><span>${t('hands_n')}</span><input type="number" min="1" max="8" data-field="hands" value="${escapeHtml(f.hands)}" data-testid="create-hands"></label>` : ''}
          ${f.length === 'target' ? `<label class="field"><span>${t('target_points')}</span><input type="number" min="100" step="5" data-field="target" value="${escapeHtml(f.target)}"></label>` : ''}
          <label class="field"><span>${t('clocks')}</span>${select('clocks', f.clocks, [['', t('clocks_default')], ['federation', t('clocks_federation')], ['relaxed', t('clocks_relaxed')], ['off', t('clocks_off')]], 'create-clocks')}</label>
          <label class="field"><span>${t('semipulito')}</span>${select('semipulito', f.semipulito, onOff)}</label>
          <label class="field"><span>${t('close_pulito')}</span>${select('pulito', f.pulito, onOff)}</label>
          ${f.rated && app.identity !== 'guest' ? '' : `<label class="field"><span>${t('bots_label')}</span>${select('bots', f.bots, [['', t('bots_none')], ['random', t('bots_random')], ['greedy', t('bots_greedy')], ['expert', t('bots_expert')], ['search', t('bots_search')]], 'create-bots')}</label>`}
          <label class="field"><span>${t('visibility')}</span>${select('private', f.private, [['public', t('public')], ['private', t('private')]], 'create-visibility')}</label>
        </div>
        ${ratedBox(app, 'create-rated')}
        <button class="btn primary wide" type="submit" data-testid="create" data-focus="create"${busyAttr(app, 'create')}>${t('create')}</button>
      </form>
      <form class="panel" data-form="invite">
        <h2>${t('join_by_invite')}</h2>
        <div class="row">
          <label class="field grow"><span>${t('invite_code')}</span><input name="invite" autocomplete="off" class="mono" data-testid="invite-input" data-field="invite" data-focus="invite" value="${escapeHtml(f.invite)}" placeholder="A1B2C3D4"></label>
          <button class="btn" type="submit" data-testid="invite-join"${busyAttr(app, 'invite')}>${t('join')}</button>
        </div>
      </form>
    </div>
  </section>`;
}

/**
 * A tournament's table in the lobby: the event's name (a table is only ever in one).
 * @param {import('./app.js').App} app @param {string} table
 */
function tourLabel(app, table) {
  const tour = app.tourOfTable[table];
  return tour ? `<span class="tour-label" data-testid="tour-label" data-tournament="${escapeHtml(tour.id)}" title="${t('tab_tournaments')}">${escapeHtml(tour.name)}</span>` : '';
}
