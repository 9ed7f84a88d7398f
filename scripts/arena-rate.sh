#!/usr/bin/env bash
# Arena matches per hour beside normal play (issue 23; docs/BOTS.md "The arena's pace"): a
# server of its own on loopback, BOTS bot accounts (personal tokens with `play`) driven by the
# Python SDK (`Bot.arena()` in a loop, GreedyStrategy: what a bot author's first bot is), and
# beside them burraco-loadtest's TABLES tables at human pace (THINK_MS between a table's
# actions). Prints the arena matches finished, their rate per hour, and the tables' reply
# p50/p99 and errors from the load tool.
#
# Usage: scripts/arena-rate.sh [BOTS=8] [SECONDS=300] [TABLES=100]
#   THINK_MS=1000 (the tables' pace), BURRACO_BIN_DIR (default target/release if built, else
#   target/debug). Python 3.10+; a scratch venv gets the SDK and websockets from this tree and
#   PyPI. Bounded: every process it starts is stopped by its pid after SECONDS (+60 s to finish
#   the matches in flight).
set -euo pipefail
cd "$(dirname "$0")/.."
BOTS="${1:-8}"
SECONDS_RUN="${2:-300}"
TABLES="${3:-100}"
THINK_MS="${THINK_MS:-1000}"
if ((BOTS < 2 || BOTS > 64 || SECONDS_RUN < 10 || SECONDS_RUN > 3600 || TABLES < 0 || TABLES > 2000)); then
  echo "bounds: BOTS 2..64, SECONDS 10..3600, TABLES 0..2000" >&2
  exit 2
fi
BIN="${BURRACO_BIN_DIR:-}"
if [[ -z "$BIN" ]]; then
  if [[ -x target/release/burraco-server && -x target/release/burraco-loadtest ]]; then BIN=target/release; else BIN=target/debug; fi
fi
for b in burraco-server burraco-loadtest; do
  [[ -x "$BIN/$b" ]] || { echo "$BIN/$b missing: cargo build --release -p $b" >&2; exit 2; }
done

DATA="$(mktemp -d /tmp/burraco-arena-rate-XXXXXX)"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$DATA"
}
trap cleanup EXIT

echo "== a scratch venv with the SDK"
python3 -m venv "$DATA/venv"
"$DATA/venv/bin/python" -m pip install --quiet --disable-pip-version-check ./sdk/python

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"
# No daily cap in the way of a rate measurement (the default is 20 matches a bot a day).
"$BIN/burraco-server" --listen "127.0.0.1:$PORT" --data "$DATA/data" --arena-daily-cap 100000 \
  >"$DATA/server.log" 2>&1 &
SERVER=$!
PIDS+=("$SERVER")
for _ in $(seq 1 100); do curl -fs "$BASE/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# A bot account with a token to play, signed up from its own loopback address (the server
# delays a sixth sign-up from one address): prints the token.
account() {
  local name="$1" from="$2" cookie
  cookie="$(curl -fs --interface "$from" -o /dev/null -D - -H 'content-type: application/json' \
    -d "{\"username\":\"$name\",\"password\":\"correct horse battery\"}" "$BASE/api/signup" |
    sed -n 's/^[Ss]et-[Cc]ookie: burraco_session=\([^;]*\).*/\1/p')"
  curl -fs -o /dev/null -X POST -H "cookie: burraco_session=$cookie" "$BASE/api/account/bot"
  curl -fs -H "cookie: burraco_session=$cookie" -H 'content-type: application/json' \
    -d '{"label":"arena","scopes":["play"]}' "$BASE/api/tokens" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
: >"$DATA/tokens"
for i in $(seq 1 "$BOTS"); do
  account "arenabot$i" "127.0.0.$((i + 1))" >>"$DATA/tokens"
done
echo "== $BOTS bot accounts; $TABLES tables beside at $THINK_MS ms a move; $SECONDS_RUN s"

if ((TABLES > 0)); then
  "$BIN/burraco-loadtest" --url "ws://127.0.0.1:$PORT/ws" --tables "$TABLES" \
    --duration "$SECONDS_RUN" --think-ms "$THINK_MS" --server-pid "$SERVER" --quiet \
    --json "$DATA/tables.json" >"$DATA/loadtest.log" 2>&1 &
  LOAD=$!
  PIDS+=("$LOAD")
fi

cat >"$DATA/arena.py" <<'PY'
import asyncio, json, sys, time
from burraco import Bot, GreedyStrategy

url, tokens_file, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
tokens = [t.strip() for t in open(tokens_file) if t.strip()]
start = time.monotonic()
deadline = start + seconds
finished: list[tuple[float, str, str]] = []  # (when, arena id, opponent)
failures: list[str] = []

async def play(token: str, n: int) -> None:
    async with Bot(url, f"arenabot{n}", GreedyStrategy(), token=token) as bot:
        while time.monotonic() < deadline:
            try:
                result = await bot.arena()
            except Exception as e:  # a refusal or a drop: counted, the bot says ready again
                failures.append(f"{type(e).__name__}: {e}")
                await asyncio.sleep(1)
                continue
            finished.append((time.monotonic() - start, result.arena, result.opponent))

async def main() -> None:
    tasks = [asyncio.create_task(play(t, i + 1)) for i, t in enumerate(tokens)]
    # Matches in flight at the deadline may finish within a minute more; the rate counts only
    # those finished by the deadline.
    await asyncio.wait(tasks, timeout=seconds + 60)
    for t in tasks:
        t.cancel()
    in_time = [f for f in finished if f[0] <= seconds]
    # Two bots meet in one match: each reports it, so a match is counted once by its id.
    matches = len({f[1] for f in in_time})
    server_bot = len({f[1] for f in in_time if f[2].startswith("L")})
    print(json.dumps({
        "seconds": seconds, "bots": len(tokens), "matches": matches,
        "against_server_bots": server_bot,
        "matches_per_hour": round(matches * 3600 / seconds, 1),
        "failures": len(failures), "first_failures": failures[:3],
    }))

asyncio.run(main())
PY
"$DATA/venv/bin/python" "$DATA/arena.py" "ws://127.0.0.1:$PORT/ws" "$DATA/tokens" "$SECONDS_RUN" \
  | tee "$DATA/arena.json"
if ((TABLES > 0)); then
  wait "$LOAD" || true
  python3 - "$DATA/tables.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
lat = s.get("latency_ms") or {}
print("tables beside:", json.dumps({"actions_per_s": s.get("actions_per_s"),
      "reply_p50_ms": lat.get("p50"), "reply_p99_ms": lat.get("p99"),
      "errors": s.get("errors"), "server": s.get("server")}))
PY
fi
curl -fs "$BASE/api/arena/leaderboard" | python3 -c '
import json, sys
board = json.load(sys.stdin)
bots = [r for r in board["rows"] if not r["anchor"]]
print("leaderboard: %d bots rated, %d rated matches between them" % (len(bots), sum(r["matches"] for r in bots)))'
