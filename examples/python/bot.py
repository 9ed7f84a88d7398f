#!/usr/bin/env python3
"""The Python SDK's demo bot (sdk/python): plays one whole match and exits 0 when it ends.

    pip install ./sdk/python                  # once, from the repository's root
    python3 examples/python/bot.py --url ws://127.0.0.1:8080/ws --name py --bots expert

It takes a seat by quick play (or at a table you name) and says what it waits for. A quick-play
table needs four players (two with --players 2): alone, it waits for people or other bots to
join. --bots LEVEL fills the seats still free (after --bots-after seconds) with the server's own
bots (random, greedy, expert, search), so one command plays a match. Its strategy is the SDK's
GreedyStrategy: the biggest meld it can lay, the pile when it has three cards or more, its
least useful card to the discard. --drop-after N cuts its connection once after its N-th
discard, to show the resume (the SDK reconnects with its session token and syncs).

The same protocol without the SDK, standard library only: examples/python/protocol_only_bot.py.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

try:
    import burraco
except ImportError:
    # Not installed: the SDK's source in this tree works too, if `websockets` is installed.
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "sdk/python/src"))
    try:
        import burraco
    except ImportError as e:
        sys.exit(f"this demo uses the Python SDK ({e}): run `pip install ./sdk/python` from the "
                 "repository's root (it needs only `websockets`)")

from burraco import LEVELS, Bot, CreateTable, GreedyStrategy, JoinTable, QuickPlay, SeatRequest


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", default="ws://127.0.0.1:8080/ws")
    ap.add_argument("--name", default="py")
    ap.add_argument("--preset", default="fitab", choices=["fitab", "feburit", "fedibur"])
    ap.add_argument("--players", type=int, default=4, choices=[4, 2])
    ap.add_argument("--bots", choices=LEVELS, default=None,
                    help="fill the free seats with server bots of this level")
    ap.add_argument("--bots-after", type=float, default=0.0, metavar="SECONDS",
                    help="with --bots: wait this long for people first (default 0)")
    ap.add_argument("--hands", type=int, default=None,
                    help="create a table of this many hands instead of quick play")
    ap.add_argument("--table", default=None, help="join this public table")
    ap.add_argument("--invite", default=None, help="join the private table of this invite code")
    ap.add_argument("--drop-after", type=int, default=None, metavar="N",
                    help="cut the connection once after N discards, to show the resume")
    return ap.parse_args()


async def main() -> int:
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stdout)
    request: SeatRequest
    if args.table or args.invite:
        request = JoinTable(table=args.table, invite=args.invite)
    elif args.hands is not None:
        request = CreateTable(preset=args.preset, players=args.players, hands=args.hands)
    else:
        request = QuickPlay(args.preset, args.players)
    if args.bots is None:
        print(f"no --bots: this bot waits for {args.players - 1} more players to join its table "
              f"(people in the browser, or other bots); run with --bots expert to fill the free "
              f"seats with server bots and play at once", flush=True)
    async with Bot(args.url, args.name, GreedyStrategy(),
                   drop_after_discards=args.drop_after) as bot:
        result = await bot.play(request, fill_with_bots=args.bots, bots_after=args.bots_after)
    print(f"{'won' if result.won else 'lost' if result.winner else 'drew'}: "
          f"{result.side} {result.margin:+d} over {result.hands} hand(s)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except KeyboardInterrupt:
        sys.exit(130)
