// @ts-check
/**
 * The account pages (account.html): sign in (password or passkey), sign up, and one's account
 * (password, sessions, passkeys, personal tokens, recent activity). Routes are the hash:
 * `#signin`, `#signup`, `#account`; without one, the account when signed in, else sign in.
 * Every call is the server's /api (docs/ACCOUNTS.md); refusals show by their code.
 */
import { escapeHtml } from './dom.js';
import { getLang, setLang } from './i18n.js';
import { ta, hasAccountKey } from './account-i18n.js';
import { creationOptions, requestOptions, registrationJson, assertionJson, passkeysSupported } from './webauthn.js';

/** A refusal of the API. */
class ApiError extends Error {
  /** @param {string} code @param {number} status @param {number} retryAfter */
  constructor(code, status, retryAfter) { super(code); this.code = code; this.status = status; this.retryAfter = retryAfter; }
}

/**
 * Calls the API; resolves with the JSON body (null for 204), rejects with an ApiError.
 * @param {string} method @param {string} path @param {any} [body]
 */
async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('network', 0, 0);
  }
  if (res.status === 204) return null;
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(json?.code ?? `http_${res.status}`, res.status, Number(res.headers.get('retry-after') ?? 0));
  return json;
}

/** A refusal in words. @param {any} e */
function errorText(e) {
  const code = e instanceof ApiError ? e.code : e?.name === 'NotAllowedError' ? 'passkey_cancelled' : 'generic';
  const key = `err_${code}`;
  return hasAccountKey(key) ? ta(key, { s: e?.retryAfter ?? 0 }) : ta('err_generic', { code });
}

/** @param {number} ms */
function when(ms) {
  return new Date(ms).toLocaleString(getLang() === 'it' ? 'it-IT' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

const root = /** @type {HTMLElement} */ (document.getElementById('account'));

/** The form's named field values. @param {HTMLFormElement} form */
function fields(form) {
  return Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
}

/** Runs `work` for a form: disables its buttons meanwhile, shows a refusal in its error line. @param {HTMLElement} el @param {() => Promise<void>} work */
async function busy(el, work) {
  const buttons = [...el.querySelectorAll('button')];
  const error = el.querySelector('.field-error');
  if (error) error.textContent = '';
  buttons.forEach((b) => { b.disabled = true; });
  try {
    await work();
  } catch (e) {
    if (error) error.textContent = errorText(e);
    else throw e;
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
}

function signinView() {
  root.innerHTML = `
    <section class="panel account-card" aria-labelledby="signin-title">
      <h1 id="signin-title">${ta('signin_title')}</h1>
      <form data-testid="signin-form" class="account-form">
        <label class="field">${ta('username')}<input name="username" autocomplete="username webauthn" required data-testid="signin-username"></label>
        <label class="field">${ta('password')}<input name="password" type="password" autocomplete="current-password" required data-testid="signin-password"></label>
        <p class="field-error" role="alert" data-testid="signin-error"></p>
        <button class="btn primary wide" data-testid="signin-submit">${ta('signin')}</button>
      </form>
      ${passkeysSupported() ? `<button type="button" class="btn wide" data-testid="signin-passkey">${ta('signin_passkey')}</button>` : ''}
      <p class="muted">${ta('no_account')} <a href="#signup" data-testid="go-signup">${ta('go_signup')}</a></p>
      <p class="muted small">${ta('guests_note')}</p>
    </section>`;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('form'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(form, async () => {
      const { username, password } = fields(form);
      await api('POST', '/api/login', { username, password });
      go('#account');
    });
  });
  root.querySelector('[data-testid=signin-passkey]')?.addEventListener('click', () => busy(form, signInWithPasskey));
}

async function signInWithPasskey() {
  const { ceremony, options } = await api('POST', '/api/passkeys/login/start');
  const cred = await navigator.credentials.get({ publicKey: /** @type {any} */ (requestOptions(options.publicKey)) });
  await api('POST', '/api/passkeys/login/finish', { ceremony, credential: assertionJson(cred) });
  go('#account');
}

function signupView() {
  root.innerHTML = `
    <section class="panel account-card" aria-labelledby="signup-title">
      <h1 id="signup-title">${ta('signup_title')}</h1>
      <form data-testid="signup-form" class="account-form">
        <label class="field">${ta('username')}<input name="username" autocomplete="username" required minlength="3" maxlength="24" data-testid="signup-username"></label>
        <label class="field">${ta('password')}<input name="password" type="password" autocomplete="new-password" required minlength="8" data-testid="signup-password"></label>
        <p class="muted small">${ta('password_hint')}</p>
        <p class="field-error" role="alert" data-testid="signup-error"></p>
        <button class="btn primary wide" data-testid="signup-submit">${ta('signup')}</button>
      </form>
      <p class="muted">${ta('have_account')} <a href="#signin" data-testid="go-signin">${ta('go_signin')}</a></p>
    </section>`;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('form'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(form, async () => {
      const { username, password } = fields(form);
      await api('POST', '/api/signup', { username, password });
      go('#account');
    });
  });
}

const SCOPES = /** @type {const} */ (['play', 'create_tables', 'join_tournaments', 'read_account']);

/** @param {any} me */
async function accountView(me) {
  root.innerHTML = `
    <section class="panel account-top">
      <h1 data-testid="account-name">${escapeHtml(ta('hello', { name: me.username }))}</h1>
      <div class="row">
        <button type="button" class="btn" data-testid="signout">${ta('signout')}</button>
        <button type="button" class="btn" data-testid="signout-everywhere">${ta('signout_everywhere')}</button>
        <a class="btn" href="player.html?name=${encodeURIComponent(me.id)}" data-testid="player-page-link">${ta('player_page')}</a>
      </div>
      <p class="field-error" role="alert"></p>
    </section>
    <div class="account-grid">
      <section class="panel" aria-labelledby="pw-title">
        <h2 id="pw-title">${ta('change_password')}</h2>
        <form data-testid="password-form" class="account-form">
          <label class="field">${ta('current_password')}<input name="current" type="password" autocomplete="current-password" required data-testid="password-current"></label>
          <label class="field">${ta('new_password')}<input name="new" type="password" autocomplete="new-password" required minlength="8" data-testid="password-new"></label>
          <p class="field-error" role="alert" data-testid="password-error"></p>
          <p class="ok" role="status" data-testid="password-ok"></p>
          <button class="btn primary" data-testid="password-submit">${ta('save')}</button>
        </form>
      </section>
      <section class="panel" aria-labelledby="sessions-title" data-testid="sessions">
        <h2 id="sessions-title">${ta('sessions')}</h2>
        <ul class="account-list" data-testid="session-list"></ul>
        <p class="field-error" role="alert"></p>
      </section>
      <section class="panel" aria-labelledby="passkeys-title" data-testid="passkeys">
        <h2 id="passkeys-title">${ta('passkeys')}</h2>
        <ul class="account-list" data-testid="passkey-list"></ul>
        ${passkeysSupported() ? `
        <form data-testid="passkey-form" class="row">
          <label class="field grow">${ta('passkey_name')}<input name="name" required maxlength="64" placeholder="${escapeHtml(ta('passkey_name_placeholder'))}" data-testid="passkey-name"></label>
          <button class="btn primary" data-testid="passkey-add">${ta('add_passkey')}</button>
          <p class="field-error" role="alert" data-testid="passkey-error"></p>
        </form>` : `<p class="muted">${ta('passkeys_unsupported')}</p>`}
      </section>
      <!-- Personal tokens (bot accounts): GET/POST/DELETE /api/tokens, docs/ACCOUNTS.md. -->
      <section class="panel" aria-labelledby="tokens-title" data-testid="tokens">
        <h2 id="tokens-title">${ta('tokens')}</h2>
        <p class="muted small">${ta('tokens_hint')}</p>
        <div data-testid="token-body"></div>
      </section>
      <section class="panel" aria-labelledby="activity-title" data-testid="activity">
        <h2 id="activity-title">${ta('activity')}</h2>
        <ul class="account-list" data-testid="activity-list"></ul>
      </section>
    </div>`;
  const top = /** @type {HTMLElement} */ (root.querySelector('.account-top'));
  top.querySelector('[data-testid=signout]')?.addEventListener('click', () => busy(top, async () => {
    await api('POST', '/api/logout');
    go('#signin');
  }));
  top.querySelector('[data-testid=signout-everywhere]')?.addEventListener('click', () => busy(top, async () => {
    await api('POST', '/api/logout/everywhere');
    go('#signin');
  }));
  const pw = /** @type {HTMLFormElement} */ (root.querySelector('[data-testid=password-form]'));
  pw.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const ok = /** @type {HTMLElement} */ (pw.querySelector('.ok'));
    ok.textContent = '';
    busy(pw, async () => {
      await api('POST', '/api/password', fields(pw));
      pw.reset();
      ok.textContent = ta('password_changed');
      await Promise.all([renderSessions(), renderActivity()]);
    });
  });
  const pk = /** @type {HTMLFormElement|null} */ (root.querySelector('[data-testid=passkey-form]'));
  pk?.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(pk, async () => {
      const { ceremony, options } = await api('POST', '/api/passkeys/register/start', { name: fields(pk).name });
      const cred = await navigator.credentials.create({ publicKey: /** @type {any} */ (creationOptions(options.publicKey)) });
      await api('POST', '/api/passkeys/register/finish', { ceremony, credential: registrationJson(cred) });
      pk.reset();
      await Promise.all([renderPasskeys(), renderActivity()]);
    });
  });
  await Promise.all([renderSessions(), renderPasskeys(), renderTokens(), renderActivity()]);
}

/** A list's rows, each with an optional action button. @param {string} testid @param {{html: string, action?: string, id?: string, testid?: string}[]} rows @param {string} empty */
function fillList(testid, rows, empty) {
  const ul = /** @type {HTMLElement} */ (root.querySelector(`[data-testid=${testid}]`));
  ul.innerHTML = rows.length === 0 ? `<li class="muted">${empty}</li>` : rows.map((r) => `
    <li class="account-row" ${r.testid ? `data-testid="${r.testid}"` : ''}>
      <span class="account-row-text">${r.html}</span>
      ${r.action ? `<button type="button" class="btn small" data-id="${escapeHtml(r.id ?? '')}">${r.action}</button>` : ''}
    </li>`).join('');
  return ul;
}

async function renderSessions() {
  /** @type {any[]} */
  const list = await api('GET', '/api/sessions');
  const ul = fillList('session-list', list.map((s) => ({
    testid: s.current ? 'session-current' : 'session-other',
    html: `<b>${escapeHtml(s.user_agent || '?')}</b> <span class="muted">${escapeHtml(ta('session_since', { date: when(s.created_ms) }))}</span>${s.current ? ` <em>(${ta('session_current')})</em>` : ''}`,
    action: s.current ? undefined : ta('revoke'),
    id: s.id,
  })), '');
  ul.querySelectorAll('button[data-id]').forEach((b) => b.addEventListener('click', () => busy(/** @type {HTMLElement} */ (ul.parentElement), async () => {
    await api('DELETE', `/api/sessions/${encodeURIComponent(/** @type {HTMLElement} */ (b).dataset.id ?? '')}`);
    await renderSessions();
  })));
}

async function renderPasskeys() {
  const { passkeys } = await api('GET', '/api/passkeys').catch((e) => {
    if (e instanceof ApiError && e.code === 'passkeys_unavailable') return { passkeys: [] };
    throw e;
  });
  const ul = fillList('passkey-list', passkeys.map((/** @type {any} */ p) => ({
    testid: 'passkey-row',
    html: `<b>${escapeHtml(p.name)}</b> <span class="muted">${escapeHtml(p.last_used_ms ? ta('passkey_last_used', { date: when(p.last_used_ms) }) : ta('passkey_never_used'))}</span>`,
    action: ta('remove'),
    id: p.id,
  })), ta('passkeys_none'));
  ul.querySelectorAll('button[data-id]').forEach((b) => b.addEventListener('click', () => busy(/** @type {HTMLElement} */ (ul.parentElement), async () => {
    await api('DELETE', `/api/passkeys/${encodeURIComponent(/** @type {HTMLElement} */ (b).dataset.id ?? '')}`);
    await Promise.all([renderPasskeys(), renderActivity()]);
  })));
}

/** Personal tokens: listed, created (shown once), deleted; a server without /api/tokens says so. */
async function renderTokens() {
  const body = /** @type {HTMLElement} */ (root.querySelector('[data-testid=token-body]'));
  /** @type {any[]} */
  let tokens;
  try {
    tokens = await api('GET', '/api/tokens');
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 405)) {
      body.innerHTML = `<p class="muted" data-testid="tokens-unavailable">${ta('tokens_unavailable')}</p>`;
      return;
    }
    throw e;
  }
  body.innerHTML = `
    <ul class="account-list" data-testid="token-list"></ul>
    <form data-testid="token-form" class="account-form">
      <label class="field">${ta('token_name')}<input name="label" required maxlength="100" data-testid="token-name"></label>
      <fieldset class="token-scopes"><legend>${ta('token_scopes')}</legend>
        ${SCOPES.map((s) => `<label><input type="checkbox" name="scope" value="${s}" ${s === 'play' ? 'checked' : ''}> ${ta(`scope_${s}`)}</label>`).join('')}
      </fieldset>
      <label class="field">${ta('token_expires')}<input name="days" type="number" min="1" max="366" value="365" data-testid="token-days"></label>
      <p class="field-error" role="alert"></p>
      <p class="token-secret" data-testid="token-secret" hidden></p>
      <button class="btn primary" data-testid="token-create">${ta('create_token')}</button>
    </form>`;
  const ul = fillList('token-list', tokens.map((/** @type {any} */ k) => ({
    testid: 'token-row',
    html: `<b>${escapeHtml(k.label)}</b> <span class="muted">${escapeHtml(k.scopes.join(', '))} · ${escapeHtml(ta('token_expiry', { date: when(k.expires_ms) }))} · ${escapeHtml(k.last_used_ms ? ta('token_last_used', { date: when(k.last_used_ms), from: k.last_address ?? '?' }) : ta('token_never_used'))}</span>`,
    action: ta('remove'),
    id: k.id,
  })), ta('tokens_none'));
  ul.querySelectorAll('button[data-id]').forEach((b) => b.addEventListener('click', () => busy(body, async () => {
    await api('DELETE', `/api/tokens/${encodeURIComponent(/** @type {HTMLElement} */ (b).dataset.id ?? '')}`);
    await renderTokens();
  })));
  const form = /** @type {HTMLFormElement} */ (body.querySelector('form'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(form, async () => {
      const data = new FormData(form);
      const created = await api('POST', '/api/tokens', {
        label: String(data.get('label')),
        scopes: data.getAll('scope').map(String),
        expires_days: Number(data.get('days')),
      });
      await renderTokens();
      const secret = /** @type {HTMLElement} */ (root.querySelector('[data-testid=token-secret]'));
      secret.hidden = false;
      secret.innerHTML = `${ta('token_created')} <code>${escapeHtml(created.token)}</code>`;
    });
  });
}

async function renderActivity() {
  const { entries } = await api('GET', '/api/account/audit');
  fillList('activity-list', entries.slice(0, 20).map((/** @type {any} */ e) => {
    const key = `audit_${e.kind}`;
    const text = hasAccountKey(key) ? ta(key, { detail: e.detail }) : e.kind;
    return { html: `${escapeHtml(text)} <span class="muted">${escapeHtml(when(e.at_ms))}${e.address ? ` · ${escapeHtml(e.address)}` : ''}</span>` };
  }), ta('activity_none'));
}

/** @param {string} hash */
function go(hash) {
  if (location.hash === hash) route(); else location.hash = hash;
}

let routing = 0;
async function route() {
  const n = ++routing;
  document.title = `Burraco — ${ta('page_title')}`;
  const back = document.querySelector('[data-testid=back-to-game]');
  if (back) back.textContent = ta('back_to_game');
  document.querySelectorAll('.lang button').forEach((b) => b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.lang === getLang())));
  const hash = location.hash;
  if (hash === '#signup') { signupView(); return; }
  const me = await api('GET', '/api/me').catch(() => null);
  if (n !== routing) return;
  if (me && hash !== '#signin') await accountView(me).catch((e) => { root.textContent = errorText(e); });
  else if (!me && hash === '#account') go('#signin');
  else signinView();
}

document.querySelectorAll('.lang button').forEach((b) => b.addEventListener('click', () => {
  setLang(/** @type {'en'|'it'} */ (/** @type {HTMLElement} */ (b).dataset.lang));
  route();
}));
document.documentElement.lang = getLang();
window.addEventListener('hashchange', route);
route();
