// The account pages' words and the passkey JSON helpers.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ACCOUNT_DICTIONARIES, ta } from '../js/account-i18n.js';
import { setLang } from '../js/i18n.js';
import { fromBase64url, toBase64url, creationOptions, requestOptions } from '../js/webauthn.js';

test('the account pages have the same keys in English and Italian, and the same {params}', () => {
  const { en, it } = ACCOUNT_DICTIONARIES;
  assert.deepEqual(Object.keys(it).sort(), Object.keys(en).sort());
  const params = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const k of Object.keys(en)) {
    assert.deepEqual(params(/** @type {any} */ (it)[k]), params(/** @type {any} */ (en)[k]), k);
    assert.notEqual(/** @type {any} */ (it)[k].trim(), '', k);
  }
  setLang('it');
  assert.equal(ta('hello', { name: 'Anna' }), 'Connesso come Anna');
  setLang('en');
  assert.equal(ta('err_too_many_attempts', { s: 4 }), 'Too many wrong passwords: try again in 4 seconds.');
});

test('base64url round trips any bytes, with or without padding', () => {
  for (let n = 0; n < 40; n++) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n * 11) & 255);
    const text = toBase64url(bytes);
    assert.doesNotMatch(text, /[+/=]/);
    assert.deepEqual(new Uint8Array(fromBase64url(text)), bytes);
    assert.deepEqual(new Uint8Array(fromBase64url(text + '='.repeat((4 - (text.length % 4)) % 4))), bytes);
  }
  assert.equal(toBase64url(Uint8Array.from([251, 255])), '-_8');
});

test("the server's options become what navigator.credentials takes", () => {
  const created = creationOptions({
    rp: { id: 'localhost', name: 'Burraco' }, challenge: 'AAEC', user: { id: 'AwQ', name: 'anna', displayName: 'anna' },
    excludeCredentials: [{ type: 'public-key', id: 'BQY' }],
  });
  assert.deepEqual(new Uint8Array(created.challenge), Uint8Array.from([0, 1, 2]));
  assert.deepEqual(new Uint8Array(created.user.id), Uint8Array.from([3, 4]));
  assert.deepEqual(new Uint8Array(created.excludeCredentials[0].id), Uint8Array.from([5, 6]));
  assert.equal(created.rp.id, 'localhost');
  const requested = requestOptions({ challenge: 'Bw', rpId: 'localhost' });
  assert.deepEqual(new Uint8Array(requested.challenge), Uint8Array.from([7]));
  assert.deepEqual(requested.allowCredentials, []);
});
