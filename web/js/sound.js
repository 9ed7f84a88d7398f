// @ts-check
/**
 * Notices for the player's attention: a short WebAudio beep (no sound files) and a mark in the
 * tab's title, for "your turn" and "your clock is in its grace". Muted by the header's switch
 * (kept in localStorage).
 */

const MUTE_KEY = 'burraco.mute';
/** @type {AudioContext|null} */
let ctx = null;

export function isMuted() {
  try { return localStorage.getItem(MUTE_KEY) === '1'; } catch { return false; }
}

/** @param {boolean} m */
export function setMuted(m) {
  try { localStorage.setItem(MUTE_KEY, m ? '1' : '0'); } catch { /* ignore */ }
}

/**
 * Beeps `count` times (a browser plays sound only after the page had a click or key press).
 * @param {number} [count] @param {number} [freq]
 */
export function beep(count = 1, freq = 880) {
  /** @type {any} */ (window).__burracoBeeps = (/** @type {any} */ (window).__burracoBeeps ?? 0) + 1;
  if (isMuted()) return;
  try {
    const AC = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!AC) return;
    ctx = ctx ?? new AC();
    const c = /** @type {AudioContext} */ (ctx);
    for (let i = 0; i < count; i++) {
      const t0 = c.currentTime + i * 0.22;
      const osc = c.createOscillator();
      const gain = c.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(0.2, t0 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.16);
      osc.connect(gain).connect(c.destination);
      osc.start(t0);
      osc.stop(t0 + 0.18);
    }
  } catch { /* no audio: the title notice remains */ }
}
