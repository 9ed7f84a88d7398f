// @ts-check
/**
 * The WebSocket connection: hello with the resume token, request ids and their single replies,
 * table events with sequence numbers, automatic reconnection with `sync` from the last seen seq.
 */

export const PROTOCOL_VERSION = '1.9';
const TOKEN_KEY = 'burraco.session';

/** @typedef {Record<string, any> & {type: string}} Message */
/** @typedef {'connecting'|'online'|'reconnecting'|'offline'|'taken_over'|'signed_out'} ConnState */

/** The WebSocket URL: `?server=ws://...` overrides; otherwise ws(s)://<this host>/ws. */
export function serverUrl() {
  const params = new URLSearchParams(location.search);
  const override = params.get('server');
  if (override) return override;
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/ws`;
}

/** The error codes the page acts on (docs/PROTOCOL.md section 8), named once. */
export const ErrorCode = Object.freeze({ IllegalAction: 'illegal_action', InvalidName: 'invalid_name', RepeatedCreate: 'repeated_create', RegistrationClosed: 'registration_closed' });
/** The rule codes of illegal moves the page acts on. */
export const RuleCode = Object.freeze({ WildPositionAmbiguous: 'wild_position_ambiguous' });
/** Close codes (PROTOCOL.md section 7): 4001, this session was resumed by another connection;
 * 4005, the browser session this connection signed in with ended (signed out, here or elsewhere). */
export const CloseCode = Object.freeze({ TakenOver: 4001, SignedOut: 4005 });

/** A request the server refused: `code`, `message`, and for illegal moves `rule`. */
export class ServerError extends Error {
  /** @param {Message} reply @param {number|null} [untilMs] a `playbanned` refusal's end (the `playban` before it) */
  constructor(reply, untilMs = null) {
    super(reply.message);
    this.code = /** @type {string} */ (reply.code);
    this.rule = /** @type {string|null} */ (reply.rule ?? null);
    /** When a playban ends (Unix ms): `playban` comes just before its `playbanned` error (protocol 1.5). */
    this.untilMs = untilMs;
  }
}

export class Connection {
  /**
   * @param {{url: string, name: string, onEvent: (m: Message) => void, onState: (s: ConnState) => void,
   *          onWelcome: (m: Message) => void, onNameRefused?: () => void, storage?: Storage}} opts
   */
  constructor(opts) {
    this.url = opts.url;
    this.name = opts.name;
    this.onEvent = opts.onEvent;
    this.onState = opts.onState;
    this.onWelcome = opts.onWelcome;
    this.onNameRefused = opts.onNameRefused ?? (() => {});
    /** The server refused the name (`invalid_name`): trying again with it would only be refused again. */
    this.nameRefused = false;
    this.storage = opts.storage ?? sessionStorage;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.nextId = 1;
    /** @type {Map<number, {resolve: (m: Message) => void, reject: (e: Error) => void}>} */
    this.pending = new Map();
    /** @type {ConnState} */
    this.state = 'connecting';
    this.attempt = 0;
    this.closedByUser = false;
    /** @type {any} */
    this.retryTimer = null;
    /** Every frame received, for tests and debugging (`window.__frames`). @type {string[]} */
    this.frames = [];
    /** The latest `playban`'s end (Unix ms): the `playbanned` error after it says until then. @type {number|null} */
    this.playbanUntil = null;
  }

  /** The resume token of this tab's session, if any. @returns {string|null} */
  getToken() {
    try { return this.storage.getItem(TOKEN_KEY); } catch { return null; }
  }

  /** @param {string} token */
  setToken(token) {
    try { this.storage.setItem(TOKEN_KEY, token); } catch { /* ignore */ }
  }

  connect() {
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: 'hello', version: PROTOCOL_VERSION, name: this.name, resume: this.getToken() }));
    };
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      this.frames.push(ev.data);
      /** @type {Message} */
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      this.dispatch(m);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pending.values()) p.reject(new Error('connection lost'));
      this.pending.clear();
      if (this.closedByUser || this.nameRefused) { this.setState('offline'); return; }
      // 4001: this session was resumed elsewhere (another tab). Resuming here would take it back,
      // and the other tab would do the same, for ever: stop and say so (PROTOCOL.md section 7).
      if (ev.code === CloseCode.TakenOver) { this.setState('taken_over'); return; }
      // 4005: signed out (in another tab, on another device, or the session ended): a reconnect
      // would come back as a guest under the account's name, refused. The page says so and reloads.
      if (ev.code === CloseCode.SignedOut) { this.setState('signed_out'); return; }
      this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleRetry() {
    this.setState('reconnecting');
    this.attempt++;
    const delay = Math.min(5000, 300 * 2 ** Math.min(this.attempt - 1, 4)) + Math.floor(Math.random() * 200);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** @param {ConnState} s */
  setState(s) {
    this.state = s;
    this.onState(s);
  }

  /** @param {Message} m */
  dispatch(m) {
    if (m.type === 'welcome') {
      this.setToken(m.session);
      this.attempt = 0;
      this.setState('online');
      this.onWelcome(m);
      return;
    }
    if (m.type === 'playban') {
      // Told just before the `playbanned` error it explains: kept for that error.
      this.playbanUntil = /** @type {number} */ (m.until_ms);
      return;
    }
    const isReply = 'id' in m && !('seq' in m) && m.type !== 'snapshot';
    if (isReply && m.id != null && this.pending.has(m.id)) {
      const p = /** @type {{resolve: (m: Message) => void, reject: (e: Error) => void}} */ (this.pending.get(m.id));
      this.pending.delete(m.id);
      if (m.type === 'error') p.reject(new ServerError(m, m.code === 'playbanned' ? this.playbanUntil : null));
      else p.resolve(m);
      return;
    }
    if (m.type === 'error' && m.id == null && m.code === ErrorCode.InvalidName) {
      // The hello's name: the server closes next. Not retried; the page asks for another name.
      this.nameRefused = true;
      this.onNameRefused();
      return;
    }
    if (m.type === 'goodbye') {
      // The server is going away: reconnect later with the session token.
      this.onEvent(m);
      return;
    }
    this.onEvent(m);
  }

  /**
   * Sends a request and resolves with its reply (rejects with ServerError on `error`).
   * @param {string} type @param {Record<string, any>} [fields] @returns {Promise<Message>}
   */
  request(type, fields = {}) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || this.state !== 'online') {
      return Promise.reject(new Error('not connected'));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ type, id, ...fields }));
    });
  }

  /**
   * Closes for good. `forget`: the resume token goes too (a new name needs a new session: a
   * resumed one keeps its name).
   * @param {{forget?: boolean}} [opts]
   */
  close({ forget = false } = {}) {
    this.closedByUser = true;
    clearTimeout(this.retryTimer);
    if (forget) { try { this.storage.removeItem(TOKEN_KEY); } catch { /* ignore */ } }
    if (this.ws) this.ws.close(1000, 'bye');
  }
}
