#!/usr/bin/env bash
# Rating quality through a running server (issue 21; docs/RATINGS.md "Through a running server"):
# a server of its own on loopback, accounts whose play is a reference bot (burraco-bot with a
# personal token), rated head-to-head quick play between them, then the server's own ratings
# (GET /api/ratings/{account}) checked against the bots' known order of strength: every account
# of the weaker level rated below every account of the stronger one.
#
# Usage: scripts/rating-quality-live.sh [MATCHES_PER_ACCOUNT] [WEAK] [STRONG]
#   defaults: 5 matches, L0 against L2. Two accounts per level. The server rates at most 5
#   matches a day between the same two accounts (docs/ACCOUNTS.md), so 4 accounts give at most
#   30 rated matches. Binaries: target/release if built, else target/debug (BURRACO_BIN_DIR wins).
# Exits non-zero when the order is wrong. Bounded: every process is killed after TIMEOUT_SECS.
set -euo pipefail
cd "$(dirname "$0")/.."
MATCHES="${1:-5}"
WEAK="${2:-L0}"
STRONG="${3:-L2}"
TIMEOUT_SECS="${TIMEOUT_SECS:-600}"
BIN="${BURRACO_BIN_DIR:-}"
if [[ -z "$BIN" ]]; then
  if [[ -x target/release/burraco-server && -x target/release/burraco-bot ]]; then BIN=target/release; else BIN=target/debug; fi
fi
for b in burraco-server burraco-bot; do
  [[ -x "$BIN/$b" ]] || { echo "$BIN/$b missing: cargo build -p burraco-server -p burraco-bot" >&2; exit 2; }
done

DATA="$(mktemp -d /tmp/burraco-quality-XXXXXX)"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$DATA"
}
trap cleanup EXIT

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"
# A match's play time is not checked (1-hand matches of bots last seconds): the daily cap stays.
BURRACO_TEST_RATED_MIN_PLAY_MS=0 "$BIN/burraco-server" --listen "127.0.0.1:$PORT" --data "$DATA" \
  --bot-delay-ms 0 >"$DATA/server.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do curl -fs "$BASE/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# An account, made a bot account (its author's program plays it), with a token to play: prints
# "<account id> <token>".
account() {
  local name="$1" cookie id token
  cookie="$(curl -fs -o /dev/null -D - -H 'content-type: application/json' \
    -d "{\"username\":\"$name\",\"password\":\"correct horse battery\"}" "$BASE/api/signup" |
    sed -n 's/^[Ss]et-[Cc]ookie: burraco_session=\([^;]*\).*/\1/p')"
  id="$(curl -fs -H "cookie: burraco_session=$cookie" "$BASE/api/me" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')"
  curl -fs -o /dev/null -X POST -H "cookie: burraco_session=$cookie" "$BASE/api/account/bot"
  token="$(curl -fs -H "cookie: burraco_session=$cookie" -H 'content-type: application/json' \
    -d '{"label":"quality","scopes":["play","create_tables"]}' "$BASE/api/tokens" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')"
  echo "$id $token"
}

declare -A LEVEL_OF
ACCOUNTS=()
BOTS=()
n=0
for level in "$WEAK" "$STRONG"; do
  for i in 1 2; do
    read -r id token < <(account "q${level,,}x$i")
    LEVEL_OF[$id]="$level"
    ACCOUNTS+=("$id")
    n=$((n + 1))
    BURRACO_TOKEN="$token" timeout "$TIMEOUT_SECS" "$BIN/burraco-bot" --url "ws://127.0.0.1:$PORT/ws" \
      --strategy "$level" --players 2 --preset fitab --rated --matches "$MATCHES" --seed "$n" \
      --timeout "$TIMEOUT_SECS" >"$DATA/bot-$n.log" 2>&1 &
    BOTS+=($!)
    PIDS+=($!)
  done
done
START=$(date +%s)
failed=0
for p in "${BOTS[@]}"; do wait "$p" || failed=$((failed + 1)); done
echo "bots done in $(( $(date +%s) - START )) s ($failed ended with an error)"
if (( failed )); then for f in "$DATA"/bot-*.log; do echo "== $f"; tail -5 "$f"; done; fi
# The ratings are written by the match-end projection right after each match: give it a moment.
sleep 2

python3 - "$BASE" "$WEAK" "$STRONG" "${ACCOUNTS[@]}" <<'EOF'
import json, sys, urllib.request
base, weak, strong, *accounts = sys.argv[1:]
levels = {a: (weak if i < 2 else strong) for i, a in enumerate(accounts)}
rows = []
for a in accounts:
    r = json.load(urllib.request.urlopen(f"{base}/api/ratings/{a}"))
    two = next((x for x in r["ratings"] if x["category"] == "two"), None)
    rows.append((a, levels[a], two["rating"] if two else 1500.0, two["deviation"] if two else 350.0, two["matches"] if two else 0))
for a, level, rating, dev, matches in sorted(rows, key=lambda x: x[2]):
    print(f"{level}  {a}  rating {rating:7.1f}  deviation {dev:5.1f}  rated matches {matches}")
worst_strong = min(r[2] for r in rows if r[1] == strong)
best_weak = max(r[2] for r in rows if r[1] == weak)
ok = worst_strong > best_weak
print(f"every {weak} account below every {strong} account: {'yes' if ok else 'NO'}")
sys.exit(0 if ok else 1)
EOF
