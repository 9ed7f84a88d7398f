#!/usr/bin/env python3
"""A burst against the accounts' limits of a Burraco server on this machine (loopback only).

    signin_burst.py --base http://127.0.0.1:PORT --kind account|address|signup
                    [--count 200] [--source 127.0.1.1]

`account`: signs up a fresh account (from its own source address), then sends `--count`
sign-ins for it with a wrong password, all at once from `--source`: every connection opened
first, then every request written, then every answer read. `address`: `--count` sign-ins at
once from `--source`, each naming another unknown name. `signup`: `--count` sign-ups at once
from `--source`. Prints JSON: the answers by status, the latency of each (its request written
to its answer read in full) as percentiles, overall and by status, the burst's wall time, and
how many Argon2id checks ran (from /metrics: `burraco_account_signins_total` with results `ok`
and `bad_credentials`, one check each; `throttled` ran none; a sign-up is one hash).

Standard library only. Used by scripts/signin-burst.sh, which starts the server and repeats.
"""

import argparse
import asyncio
import json
import random
import re
import sys
import time
import urllib.parse


def loopback(base):
    url = urllib.parse.urlsplit(base)
    if url.hostname not in ("127.0.0.1", "localhost"):
        sys.exit(f"{base}: loopback only")
    return url.hostname, url.port or 80


def request(host, port, method, path, body):
    data = json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close",
            f"Content-Length: {len(data)}", "Content-Type: application/json"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + data


def status_of(raw):
    try:
        return int(raw.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


async def one(host, port, raw, source):
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    writer.write(raw)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return status_of(answer)


async def signins_counted(host, port):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /metrics HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
    text = (await reader.read()).decode("latin-1")
    writer.close()
    counts = {}
    for result in ("ok", "bad_credentials", "throttled"):
        m = re.search(r'burraco_account_signins_total\{result="%s"\} (\d+)' % result, text)
        counts[result] = int(m.group(1)) if m else 0
    return counts


def percentiles(ms):
    if not ms:
        return {"count": 0}
    s = sorted(ms)

    def at(q):
        return round(s[min(len(s) - 1, int(q * len(s)))], 1)

    return {"count": len(s), "p50": at(0.50), "p99": at(0.99), "max": round(s[-1], 1)}


async def burst(args):
    host, port = loopback(args.base)
    tag = "%05x" % random.getrandbits(20)
    if args.kind == "account":
        name = f"burst{tag}"
        # A source of its own for the sign-up: the burst's address starts uncounted.
        made = await one(host, port, request(host, port, "POST", "/api/signup",
                                             {"username": name, "password": "right horse"}),
                         args.source.rsplit(".", 1)[0] + ".250")
        if made != 201:
            sys.exit(f"signup {name}: {made}")
        bodies = [("/api/login", {"username": name, "password": "wrong horse"})] * args.count
    elif args.kind == "address":
        bodies = [("/api/login", {"username": f"nobody{tag}{i}", "password": "wrong horse"})
                  for i in range(args.count)]
    else:
        bodies = [("/api/signup", {"username": f"b{tag}{i}", "password": "right horse"})
                  for i in range(args.count)]
    before = await signins_counted(host, port)
    # Every connection first, then every request at once, then the answers.
    conns = [await asyncio.open_connection(host, port, local_addr=(args.source, 0))
             for _ in bodies]
    sent = []
    started = time.monotonic()
    for (reader, writer), (path, body) in zip(conns, bodies):
        writer.write(request(host, port, "POST", path, body))
        sent.append(time.monotonic())

    async def answer(i):
        reader, writer = conns[i]
        raw = await reader.read()
        writer.close()
        return status_of(raw), (time.monotonic() - sent[i]) * 1000

    answers = await asyncio.gather(*(answer(i) for i in range(len(conns))))
    wall = (time.monotonic() - started) * 1000
    after = await signins_counted(host, port)
    delta = {k: after[k] - before[k] for k in after}
    by_status = {}
    for status, ms in answers:
        by_status.setdefault(status, []).append(ms)
    print(json.dumps({
        "kind": args.kind, "count": args.count, "wall_ms": round(wall, 1),
        "answers": {str(s): len(v) for s, v in sorted(by_status.items())},
        "latency_ms": percentiles([ms for _, ms in answers]),
        "latency_by_status_ms": {str(s): percentiles(v) for s, v in sorted(by_status.items())},
        "argon2_checks": (delta["ok"] + delta["bad_credentials"]) if args.kind != "signup"
        else by_status.get(201, []).__len__(),
        "signins_counted": delta,
    }))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", required=True, help="http://127.0.0.1:PORT (loopback only)")
    p.add_argument("--kind", choices=["account", "address", "signup"], required=True)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--source", default="127.0.1.1", help="the burst's loopback source address")
    args = p.parse_args()
    loopback(args.base)
    if not (1 <= args.count <= 1000) or not args.source.startswith("127."):
        sys.exit("bounds: --count 1..1000, --source a loopback address")
    asyncio.run(burst(args))


if __name__ == "__main__":
    main()
