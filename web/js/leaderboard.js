// @ts-check
/**
 * The leaderboards page (leaderboard.html): the boards of `GET /api/leaderboards/{two|four|pair}`
 * (docs/ACCOUNTS.md, "Ratings and leaderboards"), all time or this week, people's or bots'. The
 * board shown is in the address (`?cat=pair&period=week&bots=true`), so it can be shared.
 */
import { escapeHtml } from './dom.js';
import { getLang, setLang } from './i18n.js';
import { tl, hasLeaderboardKey } from './leaderboard-i18n.js';
import { CATEGORIES, boardFromSearch, boardPath, boardSearch, boardHtml } from './leaderboard-view.js';

const root = /** @type {HTMLElement} */ (document.getElementById('leaderboard'));
let board = boardFromSearch(location.search);

/** @param {any} code */
function errorText(code) {
  const key = `err_${code}`;
  return hasLeaderboardKey(key) ? tl(key) : tl('err_generic', { code: String(code) });
}

/** The tabs and toggles, then the board once fetched. */
let loading = 0;
async function render() {
  const n = ++loading;
  document.title = `Burraco — ${tl('page_title')}`;
  document.documentElement.lang = getLang();
  const back = document.querySelector('[data-testid=back-to-game]');
  if (back) back.textContent = tl('back_to_game');
  document.querySelectorAll('.lang button').forEach((b) => b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.lang === getLang())));
  const tabs = CATEGORIES.map((c) => `<button type="button" class="btn small${board.cat === c ? ' primary' : ''}" data-cat="${c}" data-testid="tab-${c}" aria-pressed="${board.cat === c}">${tl(`cat_${c}`)}</button>`).join('');
  root.innerHTML = `<section class="panel player-card leaderboard-card">
    <h1>${tl('page_title')}</h1>
    <div class="leaderboard-tabs" role="group" aria-label="${escapeHtml(tl('page_title'))}">${tabs}</div>
    <div class="leaderboard-toggles">
      <label class="check"><input type="checkbox" data-toggle="week" data-testid="toggle-week"${board.week ? ' checked' : ''}><span>${tl('this_week')}</span></label>
      <label class="check"><input type="checkbox" data-toggle="bots" data-testid="toggle-bots"${board.bots ? ' checked' : ''}><span>${tl('bots')}</span></label>
    </div>
    <p class="muted small">${tl(board.week ? 'note_week' : 'note')}</p>
    <div data-testid="leaderboard-board" aria-live="polite"></div>
    <p><a href="season.html" data-testid="season-link">${tl('season_link')}</a> · <a href="arena.html" data-testid="arena-link">${tl('arena_link')}</a></p>
  </section>`;
  const out = /** @type {HTMLElement} */ (root.querySelector('[data-testid=leaderboard-board]'));
  let html;
  try {
    const res = await fetch(boardPath(board), { credentials: 'same-origin' });
    const json = await res.json().catch(() => null);
    html = res.ok ? boardHtml(json) : `<p class="field-error" role="alert" data-testid="leaderboard-error">${escapeHtml(errorText(json?.code ?? `http_${res.status}`))}</p>`;
  } catch {
    html = `<p class="field-error" role="alert" data-testid="leaderboard-error">${escapeHtml(errorText('network'))}</p>`;
  }
  if (n === loading) out.innerHTML = html;
}

/** Shows `next`, keeping it in the address. @param {typeof board} next */
function show(next) {
  board = next;
  history.replaceState(null, '', boardSearch(board));
  render();
}

root.addEventListener('click', (ev) => {
  const cat = /** @type {HTMLElement} */ (ev.target).closest('[data-cat]')?.getAttribute('data-cat');
  if (cat) show({ ...board, cat: /** @type {any} */ (cat) });
});
root.addEventListener('change', (ev) => {
  const el = /** @type {HTMLInputElement} */ (ev.target);
  if (el.dataset.toggle === 'week') show({ ...board, week: el.checked });
  if (el.dataset.toggle === 'bots') show({ ...board, bots: el.checked });
});
document.querySelectorAll('.lang button').forEach((b) => b.addEventListener('click', () => {
  setLang(/** @type {'en'|'it'} */ (/** @type {HTMLElement} */ (b).dataset.lang));
  render();
}));
render();
