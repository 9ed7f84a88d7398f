// @ts-check
/**
 * The moderators' page (moderation.html): the open reports with the context the server kept
 * (the table, the hand, the chat lines around a reported line), and an action for each, with a
 * reason (docs/ACCOUNTS.md, "Reports and moderation"), and an account's record: its standing
 * and the actions taken on it, newest first (`GET /api/moderation/accounts/{name}`; an action
 * just applied shows its subject's). Moderators only: anyone else is told so.
 * English and Italian, as the game's language setting; refusals show by their code.
 */
import { escapeHtml } from './dom.js';
import { getLang, setLang } from './i18n.js';

const words = {
  en: {
    title: 'Reports', back: '← Back to the game', none: 'No open reports.', loading: 'Loading…',
    not_moderator: 'This page is for moderators.', not_signed_in: 'Sign in first (your account page).',
    reported_by: 'reported by {who}', server: 'the server', guest: 'guest',
    found: 'Found {n} times, the latest on {last} (shown below).',
    table: 'Table {table}, hand {hand}, {status}', line: 'The line', chat: 'Chat around it',
    tournament: 'Tournament {tournament}, its chat, round {round}', tournament_early: 'Tournament {tournament}, its chat, before the first round',
    action: 'Action', minutes: 'Minutes', reason: 'Reason', act: 'Apply', done: 'Done: {action}.',
    dismiss: 'Dismiss', warn: 'Warn', mute: 'Mute', timeout: 'Time out', disable: 'Disable',
    error: 'Refused: {code}',
    record: 'Account', record_name: 'Account name', record_show: 'Show', record_of: 'Record of {name}',
    record_none: 'No actions on this account.', record_muted: 'Muted until {until}', record_timed_out: 'Timed out until {until}',
    record_warnings: 'Warnings: {n}', record_disabled: 'Disabled', record_by: 'by {who}',
    k_dismiss: 'Dismissed', k_warn: 'Warned', k_mute: 'Muted', k_unmute: 'Unmuted', k_timeout: 'Timed out', k_disable: 'Disabled', k_enable: 'Enabled',
  },
  it: {
    title: 'Segnalazioni', back: '← Torna al gioco', none: 'Nessuna segnalazione aperta.', loading: 'Caricamento…',
    not_moderator: 'Questa pagina è per i moderatori.', not_signed_in: 'Prima accedi (pagina del tuo account).',
    reported_by: 'segnalato da {who}', server: 'il server', guest: 'ospite',
    found: 'Rilevato {n} volte, l\'ultima il {last} (qui sotto).',
    table: 'Tavolo {table}, mano {hand}, {status}', line: 'La frase', chat: 'La chat intorno',
    tournament: 'Torneo {tournament}, la sua chat, turno {round}', tournament_early: 'Torneo {tournament}, la sua chat, prima del primo turno',
    action: 'Azione', minutes: 'Minuti', reason: 'Motivo', act: 'Applica', done: 'Fatto: {action}.',
    dismiss: 'Archivia', warn: 'Ammonisci', mute: 'Silenzia', timeout: 'Sospendi', disable: 'Disattiva',
    error: 'Rifiutato: {code}',
    record: 'Account', record_name: 'Nome dell\'account', record_show: 'Mostra', record_of: 'Scheda di {name}',
    record_none: 'Nessuna azione su questo account.', record_muted: 'Silenziato fino a {until}', record_timed_out: 'Sospeso fino a {until}',
    record_warnings: 'Ammonizioni: {n}', record_disabled: 'Disattivato', record_by: 'da {who}',
    k_dismiss: 'Archiviata', k_warn: 'Ammonito', k_mute: 'Silenziato', k_unmute: 'Non più silenziato', k_timeout: 'Sospeso', k_disable: 'Disattivato', k_enable: 'Riattivato',
  },
};

/** @param {keyof typeof words.en} key @param {Record<string, string|number>} [params] */
function tm(key, params = {}) {
  const s = (getLang() === 'it' ? words.it : words.en)[key];
  return s.replace(/\{(\w+)\}/g, (_, k) => escapeHtml(String(params[k] ?? '')));
}

const root = /** @type {HTMLElement} */ (document.getElementById('moderation'));

/** @param {string} method @param {string} path @param {any} [body] */
async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(json?.code ?? `http_${res.status}`);
  return json;
}

/** @param {any} line */
function lineHtml(line) {
  return `<li><b>${escapeHtml(line.name)}</b>${line.seat ? ` (${escapeHtml(line.seat)})` : ''}: ${escapeHtml(line.text)}</li>`;
}

/** @param {any} r */
function reportHtml(r) {
  const c = r.context ?? {};
  const who = r.reporter ?? (getLang() === 'it' ? words.it.server : words.en.server);
  const subject = `${escapeHtml(r.subject_name)}${r.subject ? '' : ` (${tm('guest')})`}`;
  const actions = ['dismiss', 'warn', 'mute', 'timeout', 'disable']
    .map((a) => `<option value="${a}">${tm(/** @type {any} */ (a))}</option>`).join('');
  return `
    <section class="panel account-card" data-testid="report" data-report="${escapeHtml(r.id)}">
      <h2>${subject} — ${escapeHtml(r.kind)}, ${escapeHtml(r.reason)}</h2>
      <p>${tm('reported_by', { who })} · ${new Date(r.created_ms).toLocaleString(getLang() === 'it' ? 'it-IT' : 'en-GB')}</p>
      ${r.note ? `<p>“${escapeHtml(r.note)}”</p>` : ''}
      ${c.count > 1 ? `<p data-testid="report-count">${tm('found', { n: c.count, last: when(c.last_ms) })}</p>` : ''}
      ${c.detail ? `<p>${escapeHtml(c.detail)}</p>` : ''}
      ${c.table ? `<p>${tm('table', { table: c.table, hand: c.hand ?? '—', status: c.status ?? '' })}</p>` : ''}
      ${c.tournament ? `<p data-testid="report-tournament">${c.round ? tm('tournament', { tournament: c.tournament, round: c.round }) : tm('tournament_early', { tournament: c.tournament })}</p>` : ''}
      ${c.line ? `<h3>${tm('line')}</h3><ul>${lineHtml(c.line)}</ul>` : ''}
      ${c.chat?.length ? `<h3>${tm('chat')}</h3><ul>${c.chat.map(lineHtml).join('')}</ul>` : ''}
      <form class="account-form" data-testid="act-form">
        <label>${tm('action')} <select name="action">${actions}</select></label>
        <label>${tm('minutes')} <input name="minutes" type="number" min="1" max="43200" value="60"></label>
        <label>${tm('reason')} <input name="reason" required maxlength="500"></label>
        <button type="submit">${tm('act')}</button>
        <p class="field-error" role="alert"></p>
      </form>
    </section>`;
}

/** A time in the page's language. @param {number} ms */
function when(ms) {
  return new Date(ms).toLocaleString(getLang() === 'it' ? 'it-IT' : 'en-GB');
}

/** The account looked up last (shown again after a language change). @type {string|null} */
let recordName = null;

/**
 * An account's record, from `GET /api/moderation/accounts/{name}`: its standing now and the
 * actions taken on it, newest first, each with its reason and moderator.
 * @param {any} view
 */
function recordHtml(view) {
  const st = view.standing ?? {};
  const standing = [
    st.disabled ? tm('record_disabled') : '',
    st.muted_until_ms ? tm('record_muted', { until: when(st.muted_until_ms) }) : '',
    st.timed_out_until_ms ? tm('record_timed_out', { until: when(st.timed_out_until_ms) }) : '',
    tm('record_warnings', { n: st.warnings ?? 0 }),
  ].filter(Boolean).join(' · ');
  const actions = (view.actions ?? []).map((/** @type {any} */ a) => {
    const key = /** @type {any} */ (`k_${a.kind}`);
    const kind = key in words.en ? tm(key) : escapeHtml(a.kind);
    return `<li data-testid="record-action" data-kind="${escapeHtml(a.kind)}"><b>${kind}</b> · “${escapeHtml(a.reason)}” · ${tm('record_by', { who: a.moderator })} · ${when(a.at_ms)}${a.until_ms ? ` → ${when(a.until_ms)}` : ''}</li>`;
  }).join('');
  return `<h2>${tm('record_of', { name: view.username })}</h2>
    <p data-testid="record-standing">${standing}</p>
    ${actions ? `<ul>${actions}</ul>` : `<p>${tm('record_none')}</p>`}`;
}

/** Shows `name`'s record in the record panel. @param {string} name */
async function showRecord(name) {
  recordName = name;
  const out = /** @type {HTMLElement|null} */ (document.querySelector('[data-testid=record]'));
  if (!out) return;
  try {
    out.innerHTML = recordHtml(await api('GET', `/api/moderation/accounts/${encodeURIComponent(name)}`));
  } catch (e) {
    out.innerHTML = `<p role="alert">${tm('error', { code: /** @type {Error} */ (e).message })}</p>`;
  }
}

/** The record panel: a name to look up, and the record shown. */
function recordPanelHtml() {
  return `<section class="panel account-card">
      <form class="account-form" data-testid="record-form">
        <label>${tm('record_name')} <input name="name" required maxlength="64" autocomplete="off" data-testid="record-name" value="${escapeHtml(recordName ?? '')}"></label>
        <button type="submit">${tm('record_show')}</button>
      </form>
      <div data-testid="record" aria-live="polite"></div>
    </section>`;
}

async function render() {
  document.title = `Burraco — ${tm('title')}`;
  const back = document.querySelector('.account-back');
  if (back) back.textContent = tm('back');
  root.innerHTML = `<p>${tm('loading')}</p>`;
  let reports;
  try {
    reports = (await api('GET', '/api/moderation/reports')).reports;
  } catch (e) {
    const code = /** @type {Error} */ (e).message;
    root.innerHTML = `<p data-testid="refused">${code === 'not_moderator' ? tm('not_moderator') : code === 'not_signed_in' ? tm('not_signed_in') : tm('error', { code })}</p>`;
    return;
  }
  root.innerHTML = `<h1>${tm('title')}</h1>${reports.length ? reports.map(reportHtml).join('') : `<p>${tm('none')}</p>`}
    <h1>${tm('record')}</h1>${recordPanelHtml()}`;
  const recordForm = /** @type {HTMLFormElement} */ (root.querySelector('[data-testid=record-form]'));
  recordForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = String(new FormData(recordForm).get('name') ?? '').trim();
    if (name) showRecord(name);
  });
  if (recordName) showRecord(recordName);
  root.querySelectorAll('[data-report]').forEach((section) => {
    const form = /** @type {HTMLFormElement} */ (section.querySelector('form'));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const f = Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
      const body = { action: f.action, report: /** @type {HTMLElement} */ (section).dataset.report, reason: f.reason };
      if (f.action === 'mute' || f.action === 'timeout') Object.assign(body, { minutes: Number(f.minutes) });
      const error = /** @type {HTMLElement} */ (form.querySelector('.field-error'));
      try {
        const done = await api('POST', '/api/moderation/actions', body);
        section.innerHTML = `<p data-testid="done">${tm('done', { action: tm(/** @type {any} */ (f.action)) })}</p>`;
        // The record of the account acted on, with this action on top.
        const subject = reports.find((/** @type {any} */ r) => r.id === body.report)?.subject_name;
        if (subject && done?.action?.account) showRecord(subject);
      } catch (e) {
        error.textContent = tm('error', { code: /** @type {Error} */ (e).message });
      }
    });
  });
}

document.querySelectorAll('.lang button').forEach((b) => b.addEventListener('click', () => {
  setLang(/** @type {'en'|'it'} */ (/** @type {HTMLElement} */ (b).dataset.lang));
  render();
}));
document.documentElement.lang = getLang();
render();
