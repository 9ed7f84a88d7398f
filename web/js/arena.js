// @ts-check
/**
 * The bot arena's page (arena.html): `GET /api/arena/leaderboard` shown by `arena-view.js`
 * (docs/BOTS.md, "The arena"); its words in English and Italian, the game's language.
 */
import { escapeHtml } from './dom.js';
import { getLang, setLang } from './i18n.js';
import { arenaHtml, ta } from './arena-view.js';

const root = /** @type {HTMLElement} */ (document.getElementById('arena'));

async function render() {
  document.title = `Burraco — ${ta('page_title')}`;
  document.documentElement.lang = getLang();
  const back = document.querySelector('[data-testid=back-to-game]');
  if (back) back.textContent = ta('back_to_game');
  document.querySelectorAll('.lang button').forEach((b) => b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.lang === getLang())));
  root.innerHTML = `<section class="panel player-card leaderboard-card">
    <h1>${escapeHtml(ta('page_title'))}</h1>
    <p class="muted small">${escapeHtml(ta('note'))}</p>
    <div data-testid="arena-board" aria-live="polite"></div>
    <p><a href="leaderboard.html?cat=two&amp;bots=true" data-testid="boards-link">${escapeHtml(ta('boards_link'))}</a></p>
  </section>`;
  const out = /** @type {HTMLElement} */ (root.querySelector('[data-testid=arena-board]'));
  try {
    const res = await fetch('/api/arena/leaderboard', { credentials: 'same-origin' });
    const json = await res.json().catch(() => null);
    out.innerHTML = res.ok ? arenaHtml(json)
      : `<p class="field-error" role="alert" data-testid="arena-error">${escapeHtml(ta('err_generic', { code: String(json?.code ?? res.status) }))}</p>`;
  } catch {
    out.innerHTML = `<p class="field-error" role="alert" data-testid="arena-error">${escapeHtml(ta('err_generic', { code: 'network' }))}</p>`;
  }
}

document.querySelectorAll('.lang button').forEach((b) => b.addEventListener('click', () => {
  setLang(/** @type {'en'|'it'} */ ((/** @type {HTMLElement} */ (b).dataset.lang) ?? 'en'));
  render();
}));
render();
