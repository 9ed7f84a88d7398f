// A small bot over the JSON protocol (Node `ws`), to fill seats while the server has no bots of its
// own: draws, opens any three-card meld it holds, attaches what fits, discards its highest natural card.
// With `version: '1.2'` it can also register in tournaments (as a bot entrant, or a pair's partner).
import WebSocket from 'ws';
import { isMeld, isWildish, normaKey } from '../../js/cards.js';
import { removeCards } from '../../js/state.js';

export class Bot {
  /** `headers`: the upgrade's own (a signed-in account's session cookie and its page's origin). */
  constructor(url, name, { delay = 60, version = '1.0', headers = undefined } = {}) {
    this.url = url; this.name = name; this.delay = delay; this.version = version; this.headers = headers;
    this.nextId = 1; this.pending = new Map();
    this.table = null; this.seat = null; this.hand = []; this.melds = []; this.side = null; this.single = null;
    this.frames = []; this.ended = false; this.busy = false;
  }

  /** Connects and says hello; with `resume`, with the session token of its last welcome. */
  async connect({ resume = false } = {}) {
    this.ws = new WebSocket(this.url, this.headers ? { headers: this.headers } : undefined);
    await new Promise((res, rej) => { this.ws.once('open', res); this.ws.once('error', rej); });
    this.ws.on('message', (d) => this.onMessage(JSON.parse(String(d))));
    const welcome = new Promise((res) => { this.onWelcome = res; });
    this.ws.send(JSON.stringify({ type: 'hello', version: this.version, name: this.name, resume: resume ? this.session : null }));
    await welcome;
  }

  request(type, fields = {}) {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ type, id, ...fields }));
    return new Promise((res, rej) => this.pending.set(id, { res, rej }));
  }

  async join({ table, invite }) {
    const r = await this.request('join', invite ? { invite } : { table });
    this.table = r.table; this.seat = r.seat;
    return r;
  }

  ready() { return this.request('ready', { table: this.table }); }

  /**
   * Registers in a tournament (a 1.1 hello or later): as a bot entrant unless `bot` is false; with
   * a pair's `partner_code` to join that entrant; with `invite` on an invite-only list (1.2).
   */
  registerTournament(tournament, { partner_code = null, invite = null, bot = true } = {}) {
    return invite
      ? this.request('register_invited', { tournament, invite, partner_code, bot })
      : this.request('register_tournament', { tournament, partner_code, bot });
  }

  onMessage(m) {
    this.frames.push(m);
    if (m.type === 'welcome') { this.session = m.session; this.onWelcome?.(m); return; }
    if (m.id != null && this.pending.has(m.id) && m.seq === undefined) {
      const p = this.pending.get(m.id); this.pending.delete(m.id);
      if (m.type === 'error') p.rej(Object.assign(new Error(m.message), { code: m.code, rule: m.rule })); else p.res(m);
      return;
    }
    switch (m.type) {
      case 'snapshot': {
        const h = m.view.hand;
        if (h) { this.hand = h.hand ?? []; this.melds = h.melds; }
        this.side = m.view.you ? sideOf(m.view.you, m.view.settings.players) : null;
        if (h && h.on_turn === this.seat && h.phase !== 'over') this.kick(h.phase);
        break;
      }
      case 'dealt': this.hand = [...m.cards]; this.melds = []; break;
      case 'hand_started': this.melds = []; this.hand = []; break;
      case 'drew_card': this.hand.push(m.card); break;
      case 'picked_up': if (m.seat === this.seat) this.hand.push(...m.cards); break;
      case 'opened': case 'attached': {
        const i = this.melds.findIndex((x) => x.id === m.meld.id);
        if (i >= 0) this.melds[i] = m.meld; else this.melds.push(m.meld);
        if (m.seat === this.seat) this.hand = removeCards(this.hand, m.cards);
        break;
      }
      case 'pozzetto_cards': this.hand = [...m.cards]; break;
      case 'pozzetto_taken': if (m.seat === this.seat) this.hand = []; break;
      case 'discarded': if (m.seat === this.seat) this.hand = removeCards(this.hand, [m.card]); break;
      case 'turn_started': if (m.seat === this.seat) this.kick('take'); break;
      case 'hand_ended': this.ended = true; break;
      default: break;
    }
  }

  kick(phase) {
    if (this.busy) return;
    this.busy = true;
    setTimeout(() => this.play(phase).catch(() => {}).finally(() => { this.busy = false; }), this.delay);
  }

  async play(phase) {
    const table = this.table;
    if (phase === 'take') await this.request('draw', { table });
    // Open three-card melds while plenty of cards remain.
    for (let again = true; again && this.hand.length > 5;) {
      again = false;
      const h = this.hand;
      outer: for (let i = 0; i < h.length; i++) for (let j = i + 1; j < h.length; j++) for (let k = j + 1; k < h.length; k++) {
        const cards = [h[i], h[j], h[k]];
        if (isMeld(cards)) {
          try { await this.request('open', { table, cards, wild_at: null }); again = true; } catch { /* refused: fine */ }
          break outer;
        }
      }
    }
    // Attach naturals that fit one of the side's melds.
    for (const card of [...this.hand]) {
      if (this.hand.length <= 3 || isWildish(card)) continue;
      const m = this.melds.find((x) => x.side === this.side && isMeld([...x.cards, card]));
      if (m) { try { await this.request('attach', { table, meld: m.id, cards: [card], wild_at: null }); } catch { /* fine */ } }
    }
    const naturals = this.hand.filter((c) => !isWildish(c));
    const pool = naturals.length ? naturals : this.hand;
    const sorted = [...pool].sort((a, b) => normaKey(b) - normaKey(a));
    for (const card of sorted) {
      try { await this.request('discard', { table, card }); return; } catch { /* try the next */ }
    }
  }

  close() { try { this.ws.close(); } catch { /* ignore */ } }
}

function sideOf(seat, players) {
  if (players === 2) return seat;
  return seat === 'N' || seat === 'S' ? 'NS' : 'EW';
}
