#!/usr/bin/env python3
"""A Burraco bot in plain Python (standard library only), speaking the JSON protocol 1.0.

It takes a seat by quick play, plays one whole match and exits 0 when the match ends.
Strategy: draw every turn and discard the least useful card (never a wild, the highest value
first). It never melds, so every discard it makes is legal; a refusal is still handled by
trying the next card.

It follows the whole recipe of docs/BOTS.md: it applies table events strictly in `seq` order
(a gap: `sync` from the last one applied; a `snapshot` replaces what it knew), says `ready`
after each hand's record (the next hand is dealt when every player has), and when the
connection drops it reconnects with its resume token (backing off up to 5 s) and syncs.
`--drop-after N` cuts its own connection once, after its N-th discard, to exercise that path.

    python3 examples/python/protocol_only_bot.py --url ws://127.0.0.1:8080/ws --name py --preset fitab
"""

import argparse
import base64
import json
import os
import socket
import struct
import sys
import time
import urllib.parse

# The error codes this bot acts on (docs/PROTOCOL.md section 8), named once.
TABLE_STARTED = "table_started"

# ----- a minimal WebSocket client (RFC 6455): text frames, masked, no extensions ---------------


class WebSocket:
    def __init__(self, url, timeout=120):
        u = urllib.parse.urlparse(url)
        if u.scheme != "ws":
            raise ValueError("only ws:// URLs")
        self.sock = socket.create_connection((u.hostname, u.port or 80), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        path = u.path or "/"
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("handshake failed")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.decode(errors="replace"))

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def recv(self):
        """The next text message (fragments joined); answers pings; None when closed."""
        message = b""
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(n)
            if opcode == 0x8:
                return None
            if opcode == 0x9:  # ping: answer with a pong carrying the same payload
                mask = os.urandom(4)
                self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask +
                                  bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
                continue
            if opcode in (0x1, 0x0):
                message += payload
                if b0 & 0x80:
                    return message.decode()


# ----- cards ---------------------------------------------------------------------------------

def points(card):
    if card == "JK":
        return 30
    rank = card[:-1]
    if rank == "2":
        return 20
    if rank == "A":
        return 15
    if rank in ("K", "Q", "J", "10", "9", "8"):
        return 10
    return 5


def is_wild(card):
    return card == "JK" or card[:-1] == "2"


def discard_order(hand):
    """Cards to try, best discard first: no wilds unless forced; lone cards, highest value first."""
    ranks = {}
    for c in hand:
        ranks[c[:-1]] = ranks.get(c[:-1], 0) + 1

    def key(c):
        return (is_wild(c), ranks.get(c[:-1], 0) > 1, -points(c), c)

    return sorted(set(hand), key=key)


# ----- the bot -------------------------------------------------------------------------------

def connect(url, attempts=8):
    """A WebSocket to the server, retrying with exponential backoff (0.2 s doubling, at most 5 s)."""
    delay = 0.2
    for attempt in range(attempts):
        try:
            return WebSocket(url)
        except OSError as e:
            if attempt + 1 == attempts:
                raise
            print(f"connect failed ({e}); retrying in {delay:.1f} s", file=sys.stderr)
            time.sleep(delay)
            delay = min(delay * 2, 5.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="ws://127.0.0.1:8080/ws")
    ap.add_argument("--name", default="py")
    ap.add_argument("--preset", default="fitab")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--drop-after", type=int, default=0,
                    help="cut the connection once after this many discards (0: never)")
    args = ap.parse_args()

    ws = None
    next_id = [0]

    def send(msg):
        """Sends a message (numbering its id); a broken connection is noticed by the next read."""
        if "id" in msg:
            next_id[0] += 1
            msg["id"] = next_id[0]
        try:
            ws.send(json.dumps(msg))
        except OSError:
            pass
        return msg.get("id")

    session = None      # the resume token, from the first welcome
    table, me, hand = None, None, []
    last_seq = 0        # the last table event applied
    sync_id = None      # the sync on its way: events past a gap wait for it
    phase = None        # our turn: "take" (draw next), "play" (discard next), None (not ours)
    pending = None      # the id of our draw or discard on its way
    ready_id = None     # the id of our ready between hands on its way
    tried = []          # discards refused this turn
    discards = 0
    hands_played = 0

    def act():
        """Our next move on our turn, unless one is on its way."""
        nonlocal pending
        if pending is not None or phase is None:
            return
        if phase == "take":
            pending = send({"type": "draw", "id": 0, "table": table})
            return
        for card in discard_order(hand):
            if card not in tried:
                tried.append(card)
                pending = send({"type": "discard", "id": 0, "table": table, "card": card})
                return

    def sync():
        nonlocal sync_id
        sync_id = send({"type": "sync", "id": 0, "table": table, "last_seq": last_seq})

    def ready_between_hands():
        """The next hand is dealt once every player is ready: say so (once per wait)."""
        nonlocal ready_id
        if ready_id is None:
            ready_id = send({"type": "ready", "id": 0, "table": table})

    def hello():
        nonlocal ws, pending, ready_id
        ws = connect(args.url)
        pending = None  # its reply went to the old connection: the sync tells what happened
        ready_id = None
        send({"type": "hello", "version": "1.0", "name": args.name, "resume": session})

    hello()
    while True:
        try:
            text = ws.recv() if ws else None
        except OSError:
            text = None
        if text is None:
            # Dropped (or cut on purpose): the seat waits for us through the disconnect grace.
            print("connection lost: resuming", file=sys.stderr)
            hello()
            continue
        m = json.loads(text)
        t = m["type"]
        if "seq" in m and m.get("table") == table and t != "snapshot":
            # Table events in order: skip what was applied, sync over a gap.
            if m["seq"] <= last_seq:
                continue
            if m["seq"] > last_seq + 1:
                if sync_id is None:
                    sync()
                continue
            last_seq = m["seq"]
        if t == "welcome":
            session = m["session"]
            if table is None:
                send({"type": "quick_play", "id": 0, "preset": args.preset, "players": args.players})
            elif any(s["table"] == table for s in m["seats"]):
                sync()
            else:
                print("the seat is gone", file=sys.stderr)
                return 1
        elif t in ("seated", "table_created"):
            table, me = m["table"], m["seat"]
            send({"type": "ready", "id": 0, "table": table})
        elif t == "snapshot" and m.get("table") == table:
            last_seq = m["seq"]
            view = m["view"].get("hand")
            if view:
                hand = list(view["hand"] or [])
                mine = view["on_turn"] == me and view["phase"] in ("take", "play")
                phase = view["phase"] if mine else None
                tried.clear()
            # Back between hands without the hand's record: the ready we would have said.
            if m["view"]["status"] == "between_hands" and any(
                    s["seat"] == me and not s["ready"] for s in m["view"]["seats"]):
                ready_between_hands()
        elif t == "ok" and m["id"] == sync_id:
            sync_id = None  # caught up (by replay or snapshot): go on from there
            act()
        elif t == "dealt":
            hand = list(m["cards"])
        elif t == "turn_started":
            phase = "take" if m["seat"] == me else None
            tried.clear()
            act()
        elif t == "drew_card" and m["seat"] == me:
            hand.append(m["card"])
            phase = "play"
            act()
        elif t in ("picked_up", "pozzetto_cards") and m["seat"] == me:
            hand = hand + m["cards"] if t == "picked_up" else list(m["cards"])
        elif t in ("opened", "attached", "discarded") and m["seat"] == me:
            for c in (m["cards"] if "cards" in m else [m["card"]]):
                if c in hand:
                    hand.remove(c)
            if t == "discarded":
                phase = None
                discards += 1
                if discards == args.drop_after:
                    print(f"cutting the connection after {discards} discards", file=sys.stderr)
                    ws.sock.close()
                    ws = None
        elif t in ("ok", "error") and ready_id is not None and m.get("id") == ready_id:
            ready_id = None
            # Refused with table_started when the match ended with that hand, or the next hand
            # was dealt first: expected, nothing to do.
            if t == "error" and m["code"] != TABLE_STARTED:
                print(f"error: {m['code']}: {m['message']}", file=sys.stderr)
        elif t in ("ok", "error") and m.get("id") == pending:
            pending = None
            if t == "error":
                print(f"error: {m['code']}: {m['message']}", file=sys.stderr)
                if phase != "play":
                    sync()  # a draw refused: what we believe is wrong, learn what is
                    continue
            act()  # after a draw, the discard; after a refused discard, the next card
        elif t == "error":
            print(f"error: {m['code']}: {m['message']}", file=sys.stderr)
        elif t == "hand_ended":
            hands_played += 1
            phase = None
            print(f"hand {m['hand']} ended ({m['end']}): " +
                  ", ".join(f"{s['side']} {s['total']}" for s in m["score"]))
        elif t == "hand_record":
            ready_between_hands()
        elif t == "match_ended":
            print(f"match over after {hands_played} hands: {m['sides']} {m['totals']} winner {m['winner']}")
            return 0


if __name__ == "__main__":
    sys.exit(main())
