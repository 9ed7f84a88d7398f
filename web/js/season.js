// @ts-check
/**
 * The season page (season.html): a season's points ladders from `GET /api/seasons/{id}/{category}`
 * (docs/ACCOUNTS.md, "Seasons"), people's or bots', with a selector of the current and past seasons
 * (`GET /api/seasons`). The ladder shown is in the address (`?season=2026-q3&cat=pair&bots=true`),
 * so it can be shared; "More" asks for the next page.
 */
import { escapeHtml } from './dom.js';
import { getLang, setLang } from './i18n.js';
import { ts, hasSeasonKey } from './season-i18n.js';
import { CATEGORIES, PAGE, ladderFromSearch, ladderPath, ladderSearch, ladderHtml, rowsHtml, selectorHtml } from './season-view.js';

const root = /** @type {HTMLElement} */ (document.getElementById('season'));
let ladder = ladderFromSearch(location.search);
/** `GET /api/seasons`'s JSON, once fetched. @type {any} */
let seasons = null;

/** @param {any} code */
function errorText(code) {
  const key = `err_${code}`;
  return hasSeasonKey(key) ? ts(key) : ts('err_generic', { code: String(code) });
}

/** @param {any} code */
const errorHtml = (code) => `<p class="field-error" role="alert" data-testid="season-error">${escapeHtml(errorText(code))}</p>`;

/** The JSON of `path`, or the refusal's code. @param {string} path @returns {Promise<{ok: boolean, json: any}>} */
async function getJson(path) {
  try {
    const res = await fetch(path, { credentials: 'same-origin' });
    const json = await res.json().catch(() => null);
    return res.ok ? { ok: true, json } : { ok: false, json: json?.code ?? `http_${res.status}` };
  } catch {
    return { ok: false, json: 'network' };
  }
}

/** Rows shown so far (for "More"). */
let shown = 0;
let loading = 0;
async function render() {
  const n = ++loading;
  document.title = `Burraco — ${ts('page_title')}`;
  document.documentElement.lang = getLang();
  const back = document.querySelector('[data-testid=back-to-game]');
  if (back) back.textContent = ts('back_to_game');
  document.querySelectorAll('.lang button').forEach((b) => b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.lang === getLang())));
  if (!seasons) {
    const got = await getJson('/api/seasons');
    if (n !== loading) return;
    if (got.ok) seasons = got.json;
  }
  const tabs = CATEGORIES.map((c) => `<button type="button" class="btn small${ladder.cat === c ? ' primary' : ''}" data-cat="${c}" data-testid="tab-${c}" aria-pressed="${ladder.cat === c}">${ts(`cat_${c}`)}</button>`).join('');
  root.innerHTML = `<section class="panel player-card leaderboard-card">
    <h1>${ts('page_title')}</h1>
    <p class="season-pick">${seasons ? selectorHtml(seasons, ladder.season) : ''}</p>
    <div class="leaderboard-tabs" role="group" aria-label="${escapeHtml(ts('page_title'))}">${tabs}</div>
    <div class="leaderboard-toggles">
      <label class="check"><input type="checkbox" data-toggle="bots" data-testid="toggle-bots"${ladder.bots ? ' checked' : ''}><span>${ts('bots')}</span></label>
    </div>
    <p class="muted small">${ts('note')}</p>
    <div data-testid="season-ladder" aria-live="polite"></div>
    <p><a href="leaderboard.html" data-testid="leaderboards-link">${ts('leaderboards_link')}</a></p>
  </section>`;
  const out = /** @type {HTMLElement} */ (root.querySelector('[data-testid=season-ladder]'));
  const got = await getJson(ladderPath(ladder));
  if (n !== loading) return;
  shown = got.ok && Array.isArray(got.json?.rows) ? got.json.rows.length : 0;
  out.innerHTML = (got.ok ? ladderHtml(got.json) : errorHtml(got.json)) + moreHtml();
}

/** "More" while the last page was full. */
const moreHtml = () => (shown && shown % PAGE === 0 ? `<button type="button" class="btn small" data-testid="season-more">${ts('more')}</button>` : '');

/** Appends the next page of the ladder. */
async function more() {
  const n = loading;
  const got = await getJson(ladderPath(ladder, shown));
  if (n !== loading) return;
  const body = root.querySelector('[data-testid=season-table] tbody');
  const button = root.querySelector('[data-testid=season-more]');
  if (!got.ok || !body) { if (button) button.outerHTML = errorHtml(got.json); return; }
  const rows = Array.isArray(got.json?.rows) ? got.json.rows : [];
  body.insertAdjacentHTML('beforeend', rowsHtml(rows));
  shown += rows.length;
  if (button) button.outerHTML = rows.length === PAGE ? moreHtml() : '';
}

/** Shows `next`, keeping it in the address. @param {typeof ladder} next */
function show(next) {
  ladder = next;
  history.replaceState(null, '', ladderSearch(ladder));
  render();
}

root.addEventListener('click', (ev) => {
  const target = /** @type {HTMLElement} */ (ev.target);
  const cat = target.closest('[data-cat]')?.getAttribute('data-cat');
  if (cat) show({ ...ladder, cat: /** @type {any} */ (cat) });
  if (target.closest('[data-testid=season-more]')) more();
});
root.addEventListener('change', (ev) => {
  const el = /** @type {HTMLInputElement} */ (ev.target);
  if (el.dataset.toggle === 'bots') show({ ...ladder, bots: el.checked });
  if (el.dataset.testid === 'season-select') show({ ...ladder, season: el.value === seasons?.current ? 'current' : el.value });
});
document.querySelectorAll('.lang button').forEach((b) => b.addEventListener('click', () => {
  setLang(/** @type {'en'|'it'} */ (/** @type {HTMLElement} */ (b).dataset.lang));
  render();
}));
render();
