#!/usr/bin/env python3
"""Sign-in storm and hello cost against a Burraco server on this machine (loopback only).

    signin_storm.py setup  --base http://127.0.0.1:PORT --state FILE [--accounts 16]
    signin_storm.py storm  --base ... --state FILE [--duration 20] [--concurrency 8] [--max 20000]
    signin_storm.py hellos --base ... --state FILE [--rounds 5] [--per-round 100]

`setup` signs up accounts (from several loopback source addresses: the server lets one address
make 5) and makes one personal token each; it writes their names, password, cookies and tokens
to FILE. `storm` signs those accounts in again and again, `--concurrency` requests in flight,
for `--duration` seconds or `--max` sign-ins, and prints JSON: sign-ins per second and their
latency percentiles (send to full answer, a new connection each, as a browser's first request).
`hellos` times WebSocket hellos one at a time, from TCP connect to the server's `identity`
frame: a guest's `hello`, a `hello_token` with a personal token, and an upgrade carrying a
session cookie, alternated in rounds (the machine may be busy), and prints each kind's median
and p99 and the median of the per-round medians.

Standard library only (the WebSocket client is the few lines a hello needs). Used by
scripts/signin-storm.sh, which starts the server, the load and this in turn.
"""

import argparse
import asyncio
import base64
import json
import os
import random
import statistics
import sys
import time
import urllib.parse

PASSWORD = "storm-password-1"


def loopback(base):
    url = urllib.parse.urlsplit(base)
    if url.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit(f"{base}: loopback only")
    return url.hostname, url.port or 80


async def http(base, method, path, body=None, cookie=None, source=None):
    """One request on a new connection; returns (status, headers, body)."""
    host, port = loopback(base)
    local = (source, 0) if source else None
    reader, writer = await asyncio.open_connection(host, port, local_addr=local)
    data = json.dumps(body).encode() if body is not None else b""
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close",
            f"Content-Length: {len(data)}"]
    if body is not None:
        head.append("Content-Type: application/json")
    if cookie:
        head.append(f"Cookie: burraco_session={cookie}")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    header, _, payload = raw.partition(b"\r\n\r\n")
    lines = header.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers.setdefault(k.strip().lower(), []).append(v.strip())
    return status, headers, payload


def session_cookie(headers):
    for c in headers.get("set-cookie", []):
        if c.startswith("burraco_session="):
            return c.split(";")[0].split("=", 1)[1]
    return None


async def setup(args):
    tag = "%04x" % random.getrandbits(16)
    accounts = []
    for i in range(args.accounts):
        name = f"storm{tag}{i}"
        source = f"127.0.0.{10 + i // 4}"  # 4 sign-ups per address, under the server's 5
        status, headers, payload = await http(
            args.base, "POST", "/api/signup", {"username": name, "password": PASSWORD},
            source=source)
        if status != 201:
            sys.exit(f"signup {name}: {status} {payload[:200]!r}")
        cookie = session_cookie(headers)
        status, _, payload = await http(
            args.base, "POST", "/api/tokens", {"label": "storm", "scopes": ["play"]}, cookie=cookie)
        if status != 201:
            sys.exit(f"token for {name}: {status} {payload[:200]!r}")
        accounts.append({"name": name, "cookie": cookie, "token": json.loads(payload)["token"]})
    json.dump({"password": PASSWORD, "accounts": accounts}, open(args.state, "w"))
    print(f"{len(accounts)} accounts, each with a token, in {args.state}")


def percentiles(ms):
    if not ms:
        return {"count": 0}
    s = sorted(ms)

    def at(q):
        return round(s[min(len(s) - 1, int(q * len(s)))], 2)

    return {"count": len(s), "p50": at(0.50), "p90": at(0.90), "p99": at(0.99), "max": round(s[-1], 2)}


async def storm(args):
    state = json.load(open(args.state))
    accounts = state["accounts"]
    latencies, codes = [], {}
    deadline = time.monotonic() + args.duration
    started = time.monotonic()

    async def worker(w):
        i = w
        while time.monotonic() < deadline and len(latencies) < args.max:
            a = accounts[i % len(accounts)]
            i += args.concurrency
            t = time.monotonic()
            try:
                status, _, _ = await http(args.base, "POST", "/api/login",
                                          {"username": a["name"], "password": state["password"]})
            except OSError as e:
                status = type(e).__name__
            codes[status] = codes.get(status, 0) + 1
            if status == 200:
                latencies.append((time.monotonic() - t) * 1000)

    await asyncio.gather(*(worker(w) for w in range(args.concurrency)))
    elapsed = time.monotonic() - started
    print(json.dumps({
        "signins": len(latencies), "seconds": round(elapsed, 2),
        "signins_per_s": round(len(latencies) / elapsed, 1), "concurrency": args.concurrency,
        "latency_ms": percentiles(latencies), "answers": {str(k): v for k, v in codes.items()},
    }))


async def ws_hello(base, kind, account, n):
    """Connect, say hello as `kind`, wait for `identity`; returns the milliseconds taken."""
    host, port = loopback(base)
    t = time.monotonic()
    reader, writer = await asyncio.open_connection(host, port)
    key = base64.b64encode(os.urandom(16)).decode()
    head = ["GET /ws HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket",
            "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if kind == "cookie":
        head += [f"Origin: http://{host}:{port}", f"Cookie: burraco_session={account['cookie']}"]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
    response = await reader.readuntil(b"\r\n\r\n")
    if not response.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(f"{kind} upgrade: {response[:100]!r}")
    if kind == "token":
        hello = {"type": "hello_token", "version": "1.4", "name": "x", "resume": None,
                 "token": account["token"]}
    else:
        hello = {"type": "hello", "version": "1.4", "name": f"g{random.getrandbits(40):x}{n}",
                 "resume": None}
    send_text(writer, json.dumps(hello).encode())
    while True:
        opcode, payload = await read_frame(reader)
        if opcode == 8:
            raise RuntimeError(f"{kind}: closed {payload[:100]!r}")
        if opcode == 1 and b'"identity"' in payload:
            if kind != "guest" and b'"player"' not in payload:
                raise RuntimeError(f"{kind}: not signed in: {payload[:200]!r}")
            break
    elapsed = (time.monotonic() - t) * 1000
    send_close(writer)
    try:  # the server's close answers ours; then the token's connection count is down again
        while (await read_frame(reader))[0] != 8:
            pass
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    writer.close()
    return elapsed


def send_frame(writer, opcode, payload):
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    writer.write(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def send_text(writer, payload):
    send_frame(writer, 1, payload)


def send_close(writer):
    send_frame(writer, 8, (1000).to_bytes(2, "big"))


async def read_frame(reader):
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = int.from_bytes(await reader.readexactly(2), "big")
    elif n == 127:
        n = int.from_bytes(await reader.readexactly(8), "big")
    return b0 & 0x0F, await reader.readexactly(n)


async def hellos(args):
    state = json.load(open(args.state))
    accounts = state["accounts"]
    kinds = ("guest", "token", "cookie")
    all_ms = {k: [] for k in kinds}
    round_medians = {k: [] for k in kinds}
    n = 0
    for r in range(args.rounds):
        for kind in (kinds if r % 2 == 0 else tuple(reversed(kinds))):
            ms = []
            for _ in range(args.per_round):
                n += 1
                ms.append(await ws_hello(args.base, kind, accounts[n % len(accounts)], n))
            all_ms[kind] += ms
            round_medians[kind].append(statistics.median(ms))
    out = {k: {"all_ms": percentiles(all_ms[k]),
               "median_of_round_medians_ms": round(statistics.median(round_medians[k]), 3),
               "round_medians_ms": [round(m, 3) for m in round_medians[k]]} for k in kinds}
    print(json.dumps({"rounds": args.rounds, "per_round": args.per_round, "hellos": out}))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("command", choices=["setup", "storm", "hellos"])
    p.add_argument("--base", required=True, help="http://127.0.0.1:PORT (loopback only)")
    p.add_argument("--state", required=True, help="the accounts file setup writes")
    p.add_argument("--accounts", type=int, default=16)
    p.add_argument("--duration", type=float, default=20)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--max", type=int, default=20000, help="stop after this many sign-ins")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--per-round", type=int, default=100)
    args = p.parse_args()
    loopback(args.base)
    if not (1 <= args.accounts <= 200 and 0 < args.duration <= 600 and 1 <= args.concurrency <= 256
            and args.rounds * args.per_round <= 20000):
        sys.exit("bounds: --accounts 1..200, --duration up to 600 s, --concurrency 1..256, "
                 "--rounds x --per-round up to 20000")
    asyncio.run({"setup": setup, "storm": storm, "hellos": hellos}[args.command](args))


if __name__ == "__main__":
    main()
