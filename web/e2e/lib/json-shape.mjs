// The shape of a JSON value, to hold a fixture to the server's answer: a fixture captured from the
// server once must still have the shape the server sends now, so a page's test never reads a shape
// the server no longer sends. Objects must have the same keys; arrays' items the shape of the
// first item of each side; `null` stands for any value (a level is null while provisional).

/**
 * Where `fixture` and `live` differ in shape, as readable paths ([] when they agree).
 * @param {any} fixture @param {any} live @param {string} [at]
 * @returns {string[]}
 */
export function shapeDifferences(fixture, live, at = '$') {
  if (fixture === null || live === null) return [];
  const kind = (/** @type {any} */ v) => (Array.isArray(v) ? 'array' : typeof v);
  if (kind(fixture) !== kind(live)) return [`${at}: ${kind(fixture)} in the fixture, ${kind(live)} from the server`];
  if (Array.isArray(fixture)) {
    if (!fixture.length || !live.length) return [];
    return shapeDifferences(fixture[0], live[0], `${at}[0]`);
  }
  if (kind(fixture) !== 'object') return [];
  const out = [];
  for (const k of Object.keys(fixture)) if (!(k in live)) out.push(`${at}.${k}: in the fixture, not sent by the server`);
  for (const k of Object.keys(live)) if (!(k in fixture)) out.push(`${at}.${k}: sent by the server, not in the fixture`);
  for (const k of Object.keys(fixture)) if (k in live) out.push(...shapeDifferences(fixture[k], live[k], `${at}.${k}`));
  return out;
}
