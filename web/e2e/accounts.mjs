// The account pages (account.html) on the real server: from the game's first screen, sign up;
// add a passkey with a virtual authenticator (the DevTools WebAuthn domain), sign out, sign in
// with the passkey, remove it; personal tokens on the server's API; revoke another device's session (its token is refused at once); change the password;
// sign in with it on a 390x844 phone in Italian, where nothing overflows sideways.
// The page is opened at http://localhost:<port>: the server's default --public-origin, the
// origin passkeys are bound to (an IP address cannot be a WebAuthn relying party).
import assert from 'node:assert/strict';
import { until } from './lib/harness.mjs';
import { fillField } from './lib/page.mjs';

export const name = 'accounts: sign up, passkey (virtual authenticator), tokens, sessions, password, phone in Italian';

/** @param {string} addr host:port of the server */
function accountUrl(addr) {
  const port = addr.slice(addr.lastIndexOf(':') + 1);
  return `http://localhost:${port}/account.html`;
}

export async function run({ browser, wsUrl, shots }) {
  const addr = new URL(wsUrl).host;
  const url = accountUrl(addr);
  const errors = [];
  const user = `e2e_${Date.now().toString(36)}`;
  const password = 'correct horse battery';
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));

  // From the game's first screen to the sign-up form.
  await page.goto(url.replace('account.html', ''));
  await page.click('[data-testid=account-link]');
  await page.waitForSelector('[data-testid=signin-form]');
  await page.click('[data-testid=go-signup]');
  await page.waitForSelector('[data-testid=signup-form]');
  await fillField(page, '[data-testid=signup-username]', user);
  await fillField(page, '[data-testid=signup-password]', password);
  await page.click('[data-testid=signup-submit]');
  await page.waitForSelector(`[data-testid=account-name]:has-text("${user}")`);

  // A passkey, made by a virtual authenticator that keeps resident keys and verifies the user.
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
      isUserVerified: true, automaticPresenceSimulation: true },
  });
  await fillField(page, '[data-testid=passkey-name]', 'Test laptop');
  await page.click('[data-testid=passkey-add]');
  await page.waitForSelector('[data-testid=passkey-row]:has-text("Test laptop")');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  assert.equal(credentials.length, 1, 'the authenticator holds one credential');
  assert.equal(credentials[0].isResidentCredential, true, 'a discoverable credential (sign-in without a name)');
  await page.screenshot({ path: shots('account-desktop-en.png'), fullPage: true });

  // Sign out, then back in with the passkey alone.
  await page.click('[data-testid=signout]');
  await page.waitForSelector('[data-testid=signin-form]');
  await page.click('[data-testid=signin-passkey]');
  await page.waitForSelector(`[data-testid=account-name]:has-text("${user}")`);
  await page.waitForSelector('[data-testid=passkey-row]:has-text("last used")');
  await page.waitForSelector('[data-testid=activity-list] li:has-text("Signed in (passkey)")');

  // Remove it: the list is empty, and the server no longer knows it.
  await page.click('[data-testid=passkey-row] button');
  await page.waitForSelector('[data-testid=passkey-list] li:has-text("No passkeys yet.")');
  const gone = await page.evaluate(async () => (await (await fetch('/api/passkeys')).json()).passkeys.length);
  assert.equal(gone, 0);
  await page.click('[data-testid=signout]');
  await page.click('[data-testid=signin-passkey]');
  await page.waitForSelector('[data-testid=signin-error]:has-text("not accepted")');

  // Sign in with the password.
  await fillField(page, '[data-testid=signin-username]', user.toUpperCase());
  await fillField(page, '[data-testid=signin-password]', password);
  await page.click('[data-testid=signin-submit]');
  await page.waitForSelector(`[data-testid=account-name]:has-text("${user}")`);

  // Personal tokens, on the server's own API (docs/ACCOUNTS.md): create one (its secret shown
  // once, in the `brc_` format), list it, use it (`GET /api/account` with its bearer), delete it
  // (then refused), and the secret is not shown again.
  await page.reload();
  await page.waitForSelector('[data-testid=token-list] li:has-text("No tokens.")');
  await fillField(page, '[data-testid=token-name]', 'my bot');
  await page.check('[data-testid=token-form] input[value=read_account]');
  await fillField(page, '[data-testid=token-days]', '30');
  await page.click('[data-testid=token-create]');
  const secret = (await page.textContent('[data-testid=token-secret] code')) ?? '';
  assert.match(secret, /^brc_[0-9A-Za-z]{49}$/, 'the token is shown once, in its format');
  await page.waitForSelector('[data-testid=token-row]:has-text("my bot")');
  const asBot = async () => (await fetch(`http://${addr}/api/account`, { headers: { authorization: `Bearer ${secret}` } })).status;
  assert.equal(await asBot(), 200, 'the new token reads the account');
  await page.click('[data-testid=token-row] button');
  await page.waitForSelector('[data-testid=token-list] li:has-text("No tokens.")');
  assert.equal(await asBot(), 401, 'a deleted token is refused');
  assert.equal(await page.$('[data-testid=token-secret]:not([hidden])'), null, 'the secret is not shown again');

  // Another device signs in; the page lists it; revoking it ends it at once.
  const other = await fetch(`http://${addr}/api/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'E2E other device' },
    body: JSON.stringify({ username: user, password }),
  });
  assert.equal(other.status, 200);
  const otherCookie = (other.headers.get('set-cookie') ?? '').split(';')[0];
  const otherMe = () => fetch(`http://${addr}/api/me`, { headers: { cookie: otherCookie } }).then((r) => r.status);
  assert.equal(await otherMe(), 200);
  await page.reload();
  await page.waitForSelector('[data-testid=session-other]:has-text("E2E other device")');
  await page.click('[data-testid=session-other] button');
  await until(async () => (await page.$('[data-testid=session-other]')) === null, { timeout: 5000, what: 'the revoked session gone from the list' });
  assert.equal(await otherMe(), 401, 'the revoked session is refused');

  // Change the password: the wrong current one is refused, the right one works.
  const newPassword = 'battery staple horse';
  await fillField(page, '[data-testid=password-current]', 'not the password');
  await fillField(page, '[data-testid=password-new]', newPassword);
  await page.click('[data-testid=password-submit]');
  await page.waitForSelector('[data-testid=password-error]:has-text("Wrong username or password")');
  await fillField(page, '[data-testid=password-current]', password);
  await fillField(page, '[data-testid=password-new]', newPassword);
  await page.click('[data-testid=password-submit]');
  await page.waitForSelector('[data-testid=password-ok]:has-text("Password changed")');
  await page.click('[data-testid=signout]');
  await fillField(page, '[data-testid=signin-username]', user);
  await fillField(page, '[data-testid=signin-password]', password);
  await page.click('[data-testid=signin-submit]');
  await page.waitForSelector('[data-testid=signin-error]:has-text("Wrong username or password")');
  await ctx.close();

  // A phone in Italian: sign in with the new password; the account fits the screen.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'it-IT', isMobile: true, hasTouch: true });
  const p2 = await phone.newPage();
  p2.on('pageerror', (e) => errors.push(e.message));
  await p2.goto(`${url}#signin`);
  await p2.waitForSelector('#signin-title:has-text("Accedi")');
  await fillField(p2, '[data-testid=signin-username]', user);
  await fillField(p2, '[data-testid=signin-password]', newPassword);
  await p2.click('[data-testid=signin-submit]');
  await p2.waitForSelector(`[data-testid=account-name]:has-text("Connesso come ${user}")`);
  await p2.waitForSelector('[data-testid=activity-list] li:has-text("Password cambiata")');
  const overflow = await p2.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `nothing overflows sideways (${overflow} px)`);
  await p2.screenshot({ path: shots('account-phone-it.png'), fullPage: true });
  await phone.close();
  assert.deepEqual(errors, [], 'no page errors');
}
