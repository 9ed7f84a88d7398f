// Runs every end-to-end test against one real server, in headless Debian Chromium.
//   node e2e/run.mjs [test-name...]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, startStatic, startProxy, pageUrlFor, launchBrowser, REPO } from './lib/harness.mjs';

// `newcomer` first: it needs a server where nobody else plays yet. `clock-notice` runs in the
// background (its clocks run out while the others play) and is checked last.
const ALL = ['newcomer', 'clock-notice', 'full-hand', 'illegal-move', 'reconnect', 'spectator', 'verify-reload', 'tournament', 'tournament-teams',
  'director-forms', 'names', 'contrast', 'two-tabs', 'ghosts', 'screen-reader', 'addresses', 'accounts', 'player', 'leaderboard', 'season', 'levels', 'moderation', 'playban',
  'tournament-pause', 'tournament-calendar', 'bot-label', 'tournament-chat', 'tournament-round', 'tournament-account', 'arena',
  'tournament-chat-report', 'quick-play-move'];
const only = process.argv.slice(2);
const names = only.length ? only : ALL;
const shotsDir = process.env.SCREENSHOTS ?? join(REPO, 'docs/screenshots');
mkdirSync(shotsDir, { recursive: true });

const server = await startServer();
const stat = await startStatic(server.addr);
const proxy = await startProxy(server.addr);
const browser = await launchBrowser();
const pageUrl = await pageUrlFor(server.addr, stat.url);
const proxiedUrl = await pageUrlFor(proxy.addr, stat.url);
console.log(`server ${server.addr}; page ${pageUrl}`);
let failed = 0;
const tRun = Date.now();
const env = { browser, pageUrl, proxiedUrl, proxy, wsUrl: `ws://${server.addr}/ws`, shots: (f) => join(shotsDir, f) };
/** Background tests: `start` now, `run` (the checks) after the others. */
const later = [];
for (const n of names) {
  const mod = await import(`./${n}.mjs`);
  const t0 = Date.now();
  try {
    if (mod.start && names.length > 1) {
      later.push([n, mod, await mod.start(env)]);
      console.log(`...  ${n}: started in the background (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      continue;
    }
    await mod.run(env, mod.start ? await mod.start(env) : undefined);
    console.log(`ok   ${n}: ${mod.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed++;
    await report(n, mod, e);
  }
}
for (const [n, mod, handle] of later) {
  const t0 = Date.now();
  try {
    await mod.run(env, handle);
    console.log(`ok   ${n}: ${mod.name} (checked after ${((Date.now() - t0) / 1000).toFixed(1)} s more)`);
  } catch (e) {
    failed++;
    await report(n, mod, e);
  }
}
console.log(`e2e total ${((Date.now() - tRun) / 1000).toFixed(1)} s`);

async function report(n, mod, e) {
  {
    console.log(`FAIL ${n}: ${mod.name}\n${e && e.stack || e}`);
    let i = 0;
    for (const c of browser.contexts()) for (const p of c.pages()) {
      await p.screenshot({ path: `/tmp/e2e-fail-${n}-${i++}.png` }).catch(() => {});
      const frames = await p.evaluate(() => /** @type {any} */ (window).__burraco?.conn?.frames.slice(-12)).catch(() => null);
      if (frames) console.log('last frames:\n  ' + frames.map((f) => f.length > 300 ? f.slice(0, 300) + '…' : f).join('\n  '));
    }
    console.log(`failure screenshots: /tmp/e2e-fail-${n}-*.png`);
  }
}
await browser.close();
proxy.stop(); stat.stop(); await server.stop();
console.log(failed ? `${failed} failed` : 'all passed');
process.exit(failed ? 1 : 0);
