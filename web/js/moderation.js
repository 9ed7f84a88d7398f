// @ts-check
/**
 * The moderators' page (moderation.html): the open reports with the context the server kept
 * (the table, the hand, the chat lines around a reported line), and an action for each, with a
 * reason (docs/ACCOUNTS.md, "Reports and moderation"). Moderators only: anyone else is told so.
 * English and Italian, as the game's language setting; refusals show by their code.
 */
import { escapeHtml } from './dom.js';
import { getLang, setLang } from './i18n.js';

const words = {
  en: {
    title: 'Reports', back: '← Back to the game', none: 'No open reports.', loading: 'Loading…',
    not_moderator: 'This page is for moderators.', not_signed_in: 'Sign in first (your account page).',
    reported_by: 'reported by {who}', server: 'the server', guest: 'guest',
    table: 'Table {table}, hand {hand}, {status}', line: 'The line', chat: 'Chat around it',
    action: 'Action', minutes: 'Minutes', reason: 'Reason', act: 'Apply', done: 'Done: {action}.',
    dismiss: 'Dismiss', warn: 'Warn', mute: 'Mute', timeout: 'Time out', disable: 'Disable',
    error: 'Refused: {code}',
  },
  it: {
    title: 'Segnalazioni', back: '← Torna al gioco', none: 'Nessuna segnalazione aperta.', loading: 'Caricamento…',
    not_moderator: 'Questa pagina è per i moderatori.', not_signed_in: 'Prima accedi (pagina del tuo account).',
    reported_by: 'segnalato da {who}', server: 'il server', guest: 'ospite',
    table: 'Tavolo {table}, mano {hand}, {status}', line: 'La frase', chat: 'La chat intorno',
    action: 'Azione', minutes: 'Minuti', reason: 'Motivo', act: 'Applica', done: 'Fatto: {action}.',
    dismiss: 'Archivia', warn: 'Ammonisci', mute: 'Silenzia', timeout: 'Sospendi', disable: 'Disattiva',
    error: 'Rifiutato: {code}',
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
      ${c.detail ? `<p>${escapeHtml(c.detail)}</p>` : ''}
      ${c.table ? `<p>${tm('table', { table: c.table, hand: c.hand ?? '—', status: c.status ?? '' })}</p>` : ''}
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
  root.innerHTML = `<h1>${tm('title')}</h1>${reports.length ? reports.map(reportHtml).join('') : `<p>${tm('none')}</p>`}`;
  root.querySelectorAll('[data-report]').forEach((section) => {
    const form = /** @type {HTMLFormElement} */ (section.querySelector('form'));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const f = Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
      const body = { action: f.action, report: /** @type {HTMLElement} */ (section).dataset.report, reason: f.reason };
      if (f.action === 'mute' || f.action === 'timeout') Object.assign(body, { minutes: Number(f.minutes) });
      const error = /** @type {HTMLElement} */ (form.querySelector('.field-error'));
      try {
        await api('POST', '/api/moderation/actions', body);
        section.innerHTML = `<p>${tm('done', { action: tm(/** @type {any} */ (f.action)) })}</p>`;
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
