// @ts-check
/**
 * Passkeys in the browser: the server's WebAuthn options (JSON, binary fields as base64url) to
 * what `navigator.credentials` takes, and its answer back to JSON for the server
 * (docs/ACCOUNTS.md, "Passkeys").
 */

/** @param {string} s base64url, with or without padding @returns {ArrayBuffer} */
export function fromBase64url(s) {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes.buffer;
}

/** @param {ArrayBuffer|ArrayBufferView|null|undefined} buf @returns {string} base64url without padding */
export function toBase64url(buf) {
  if (!buf) return '';
  const bytes = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** @param {any[]|undefined} list */
function descriptors(list) {
  return list?.map((c) => ({ ...c, id: fromBase64url(c.id) }));
}

/** The server's `options.publicKey` for a new passkey, as `navigator.credentials.create` takes it. @param {any} publicKey */
export function creationOptions(publicKey) {
  return {
    ...publicKey,
    challenge: fromBase64url(publicKey.challenge),
    user: { ...publicKey.user, id: fromBase64url(publicKey.user.id) },
    excludeCredentials: descriptors(publicKey.excludeCredentials) ?? [],
  };
}

/** The server's `options.publicKey` for a sign-in, as `navigator.credentials.get` takes it. @param {any} publicKey */
export function requestOptions(publicKey) {
  return {
    ...publicKey,
    challenge: fromBase64url(publicKey.challenge),
    allowCredentials: descriptors(publicKey.allowCredentials) ?? [],
  };
}

/** A new passkey's credential as the server reads it. @param {any} cred a PublicKeyCredential */
export function registrationJson(cred) {
  return {
    id: cred.id,
    rawId: toBase64url(cred.rawId),
    type: cred.type,
    response: {
      attestationObject: toBase64url(cred.response.attestationObject),
      clientDataJSON: toBase64url(cred.response.clientDataJSON),
      transports: typeof cred.response.getTransports === 'function' ? cred.response.getTransports() : undefined,
    },
    extensions: {},
  };
}

/** A sign-in's assertion as the server reads it. @param {any} cred a PublicKeyCredential */
export function assertionJson(cred) {
  return {
    id: cred.id,
    rawId: toBase64url(cred.rawId),
    type: cred.type,
    response: {
      authenticatorData: toBase64url(cred.response.authenticatorData),
      clientDataJSON: toBase64url(cred.response.clientDataJSON),
      signature: toBase64url(cred.response.signature),
      userHandle: cred.response.userHandle ? toBase64url(cred.response.userHandle) : undefined,
    },
    extensions: {},
  };
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported() {
  return typeof window !== 'undefined' && 'PublicKeyCredential' in window && !!navigator.credentials;
}
