// The moderators' page (moderation.html) on a server of the test's own, whose data dir the
// operator's command `burraco-server admin grant-moderator` is run on (docs/ACCOUNTS.md,
// "Reports and moderation"). Rocco and Paola are accounts at a table (protocol bots with their
// session cookies); Rocco insults Paola in the chat of the ready check and Paola reports the line
// over `POST /api/reports`. Checked: a player who is no moderator is told the page is not for
// them; the moderator (1366x768, English) finds the report in the queue with the context the
// server kept (the table, the line, the chat around it, the note), mutes Rocco with a reason, and
// Rocco's record shows the mute with its reason; Rocco's chat (free text and phrase) is then
// refused `muted`, `GET /api/moderation/me` says until when, and his account page's activity (his
// audit log) shows the mute with its reason; a second report (of the player,
// for spam) is handled on a phone (390x844, Italian): a warning, and the record, looked up by
// name, lists both actions in Italian. Every text at WCAG AA; the phone never scrolls sideways.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, serverBin } from './lib/harness.mjs';
import { clientFromDisk, signUp } from './lib/disk-client.mjs';
import { assertContrast } from './lib/contrast.mjs';
import { Bot } from './lib/bot.mjs';

export const name = 'moderators\' page: a reported chat line in the queue with its context, a mute with a reason, the chat refused, the record (EN desktop, IT phone)';

/** A bot seated as `token`'s account. @param {string} wsUrl @param {string} user @param {string} token */
async function accountBot(wsUrl, user, token) {
  const bot = new Bot(wsUrl, user, { delay: 20, version: '1.5', headers: { cookie: `burraco_session=${token}` } });
  await bot.connect();
  return bot;
}

/** Waits until `check()` is true (a frame the server sends by itself). @param {() => boolean} check @param {string} what */
async function until(check, what) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** @param {string} base @param {string} token @param {any} body */
async function report(base, token, body) {
  const res = await fetch(`${base}/api/reports`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: `burraco_session=${token}` }, body: JSON.stringify(body),
  });
  assert.equal(res.status, 201, `the report is taken: ${await res.clone().text()}`);
  return /** @type {string} */ ((await res.json()).id);
}

/**
 * A page of `token`'s account at moderation.html.
 * @param {import('playwright-core').Browser} browser @param {string} base @param {string} token
 * @param {{width: number, height: number}} viewport @param {string} locale @param {string[]} errors
 */
async function moderationPage(browser, base, token, viewport, locale, errors) {
  const phone = viewport.width < 700;
  const ctx = await browser.newContext({ viewport, locale, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
  await ctx.addCookies([{ name: 'burraco_session', value: token, domain: 'localhost', path: '/' }]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/moderation.html`);
  return { ctx, page };
}

export async function run({ browser, shots }) {
  const server = await startServer();
  const client = await clientFromDisk(server.addr);
  const base = client.base;
  const wsUrl = `ws://${server.addr}/ws`;
  /** @type {string[]} */
  const errors = [];
  /** @type {Bot[]} */
  const bots = [];
  try {
    const stamp = Date.now().toString(36);
    const roccoName = `rocco_${stamp}`, paolaName = `paola_${stamp}`, modName = `mod_${stamp}`;
    const rocco = await signUp(base, roccoName);
    const paola = await signUp(base, paolaName);
    const mod = await signUp(base, modName);
    // The operator's command, on the running server's data (SQLite's WAL lets both use it).
    execFileSync(serverBin(), ['--data', server.data, 'admin', 'grant-moderator', modName], { stdio: 'pipe' });

    // Rocco and Paola at a table; Rocco's insult in the ready check's chat.
    const r = await accountBot(wsUrl, roccoName, rocco.token);
    const p = await accountBot(wsUrl, paolaName, paola.token);
    bots.push(r, p);
    const created = await r.request('create_table', { settings: { preset: 'fitab', players: 2, hands: 1 }, private: false, bots: null });
    const table = created.table;
    r.table = table;
    await p.join({ table });
    await r.request('chat', { table, text: 'ciao Paola', phrase: null });
    const insult = 'you play like a donkey';
    await r.request('chat', { table, text: insult, phrase: null });
    await until(() => p.frames.some((f) => f.type === 'chat_message' && f.text === insult), 'the insult at Paola');
    const line = p.frames.find((f) => f.type === 'chat_message' && f.text === insult);
    const chatReport = await report(base, paola.token, { kind: 'chat', table, seq: line.seq, reason: 'abuse', note: 'insults at the ready check' });

    // Not a moderator: told so.
    const other = await moderationPage(browser, base, paola.token, { width: 1366, height: 768 }, 'en-GB', errors);
    await other.page.waitForSelector('[data-testid=refused]:has-text("This page is for moderators.")');
    await other.ctx.close();

    // The moderator, desktop, English: the report with its context; a mute with a reason.
    const d = await moderationPage(browser, base, mod.token, { width: 1366, height: 768 }, 'en-GB', errors);
    const card = `[data-testid=report][data-report="${chatReport}"]`;
    await d.page.waitForSelector(card);
    const text = await d.page.textContent(card) ?? '';
    for (const want of [roccoName, 'chat, abuse', `reported by ${paola.id}`, '“insults at the ready check”', `Table ${table}`, 'The line', insult, 'Chat around it', 'ciao Paola']) {
      assert.ok(text.includes(want), `the report shows "${want}": ${text}`);
    }
    await assertContrast(d.page, 'the moderators\' queue (1366x768, English)');
    await d.page.screenshot({ path: shots('moderation-desktop-en.png'), fullPage: true });
    await d.page.selectOption(`${card} select[name=action]`, 'mute');
    await d.page.fill(`${card} input[name=minutes]`, '30');
    await d.page.fill(`${card} input[name=reason]`, 'insults in the chat');
    const t0 = Date.now();
    await d.page.click(`${card} button[type=submit]`);
    await d.page.waitForSelector(`${card} [data-testid=done]:has-text("Done: Mute.")`);
    await d.page.waitForSelector(`[data-testid=record] h2:has-text("Record of ${roccoName}")`);
    const muteRow = '[data-testid=record-action][data-kind=mute]';
    await d.page.waitForSelector(`${muteRow}:has-text("Muted")`);
    assert.ok((await d.page.textContent(muteRow) ?? '').includes('“insults in the chat”'), 'the record shows the reason');
    assert.ok((await d.page.textContent(muteRow) ?? '').includes(`by ${mod.id}`), 'the record shows the moderator');
    await d.page.waitForSelector('[data-testid=record-standing]:has-text("Muted until")');
    await assertContrast(d.page, 'a record after a mute (1366x768, English)');
    await d.page.screenshot({ path: shots('moderation-record-desktop-en.png'), fullPage: true });

    // Rocco's chat is refused, text and phrase alike, and he is told until when.
    await assert.rejects(r.request('chat', { table, text: 'sorry', phrase: null }), (/** @type {any} */ e) => e.code === 'muted');
    await assert.rejects(r.request('chat', { table, text: null, phrase: 'hello' }), (/** @type {any} */ e) => e.code === 'muted');
    const me = await (await fetch(`${base}/api/moderation/me`, { headers: { cookie: `burraco_session=${rocco.token}` } })).json();
    assert.ok(me.muted_until_ms >= t0 + 29 * 60_000 && me.muted_until_ms <= Date.now() + 30 * 60_000 + 1000, `muted for 30 minutes: ${JSON.stringify(me)}`);
    await d.ctx.close();
    // Rocco's own audit log (his account page's recent activity) says so, with the reason.
    const own = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB' });
    await own.addCookies([{ name: 'burraco_session', value: rocco.token, domain: 'localhost', path: '/' }]);
    const op = await own.newPage();
    op.on('pageerror', (e) => errors.push(e.message));
    await op.goto(`${base}/account.html`);
    await op.waitForSelector('[data-testid=activity-list] li:has-text("Muted by a moderator: insults in the chat")');
    await own.close();

    // A second report, of the player; the moderator on a phone, in Italian: a warning.
    const playerReport = await report(base, paola.token, { kind: 'player', table, player: roccoName, reason: 'spam' });
    const m = await moderationPage(browser, base, mod.token, { width: 390, height: 844 }, 'it-IT', errors);
    const card2 = `[data-testid=report][data-report="${playerReport}"]`;
    await m.page.waitForSelector(`${card2}:has-text("segnalato da ${paola.id}")`);
    assert.equal(await m.page.$(`[data-testid=report][data-report="${chatReport}"]`), null, 'the muted report is closed');
    await m.page.waitForSelector(`${card2}:has-text("Tavolo ${table}")`);
    await m.page.selectOption(`${card2} select[name=action]`, 'warn');
    await m.page.fill(`${card2} input[name=reason]`, 'pubblicità in chat');
    await m.page.click(`${card2} button[type=submit]`);
    await m.page.waitForSelector(`${card2} [data-testid=done]:has-text("Fatto: Ammonisci.")`);
    // The record, looked up by name (any spelling of it).
    await m.page.fill('[data-testid=record-name]', roccoName.toUpperCase());
    await m.page.click('[data-testid=record-form] button[type=submit]');
    await m.page.waitForSelector('[data-testid=record-action][data-kind=warn]:has-text("Ammonito")');
    await m.page.waitForSelector('[data-testid=record-action][data-kind=mute]:has-text("Silenziato")');
    await m.page.waitForSelector('[data-testid=record-standing]:has-text("Ammonizioni: 1")');
    await m.page.waitForSelector('[data-testid=record-standing]:has-text("Silenziato fino a")');
    const kinds = await m.page.$$eval('[data-testid=record-action]', (els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.kind));
    assert.deepEqual(kinds.slice(0, 2), ['warn', 'mute'], 'newest first');
    assert.equal(await m.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1), false, 'the page does not scroll sideways on a phone');
    await assertContrast(m.page, 'the moderators\' page (390x844, Italian)');
    await m.page.screenshot({ path: shots('moderation-phone-it.png'), fullPage: true });
    await m.ctx.close();
    assert.deepEqual(errors, [], 'no page errors');
  } finally {
    for (const b of bots) b.ws?.close();
    client.stop();
    await server.stop();
  }
}
