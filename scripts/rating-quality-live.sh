#!/usr/bin/env bash
# Rating quality through a running server (issue 21; docs/RATINGS.md "Through a running server"):
# a server of its own on loopback, accounts whose play is a reference bot (burraco-bot with a
# personal token), rated quick play between them until the ratings order the levels or a bound
# is hit, then the server's own rating histories (GET /api/ratings/{account}) replayed match by
# match: after how many rated matches per account every account of each weaker level was rated
# below every account of the next stronger one, for good (scripts/rating_quality_live.py).
#
# Usage: scripts/rating-quality-live.sh [MATCHES_PER_ACCOUNT] [LEVEL...]
#   defaults: 60 rated matches per account (on average), levels L0 L1 L2 L3 (weakest first).
#   PER_LEVEL accounts per level (8): the server rates at most 5 matches a day between the same
#     two accounts (docs/ACCOUNTS.md), so an account needs 12 different opponents for 60.
#   PLAYERS 2 (head to head, the `two` ratings) or 4 (four at a table, partners as quick play
#     seats them, so the levels mix as partners; the `four` ratings).
#   STAY (10): the run stops early once every adjacent pair of levels has been ordered for this
#     many rated matches per account.
#   TIMEOUT_SECS (2400) bounds every process; POLL_SECS (15) paces the progress lines.
#   KEEP=1 keeps the data dir and the logs.
#   Binaries: BURRACO_BIN_DIR, else target/release if built, else target/debug.
# Exits non-zero when an adjacent pair of levels is not ordered at the end. Run it niced on a
# shared machine: `nice -n 10 scripts/rating-quality-live.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
MATCHES="${1:-60}"
shift || true
if (($#)); then LEVELS=("$@"); else LEVELS=(L0 L1 L2 L3); fi
PER_LEVEL="${PER_LEVEL:-8}"
PLAYERS="${PLAYERS:-2}"
STAY="${STAY:-10}"
TIMEOUT_SECS="${TIMEOUT_SECS:-2400}"
POLL_SECS="${POLL_SECS:-15}"
BIN="${BURRACO_BIN_DIR:-}"
if [[ -z "$BIN" ]]; then
  if [[ -x target/release/burraco-server && -x target/release/burraco-bot ]]; then BIN=target/release; else BIN=target/debug; fi
fi
for b in burraco-server burraco-bot; do
  [[ -x "$BIN/$b" ]] || { echo "$BIN/$b missing: cargo build -p burraco-server -p burraco-bot" >&2; exit 2; }
done
case "$PLAYERS" in 2) CATEGORY=two ;; 4) CATEGORY=four ;; *) echo "PLAYERS is 2 or 4" >&2; exit 2 ;; esac
if ((${#LEVELS[@]} * PER_LEVEL > 250)); then echo "at most 250 accounts (one loopback address each)" >&2; exit 2; fi

DATA="$(mktemp -d /tmp/burraco-quality-XXXXXX)"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ -n "${KEEP:-}" ]]; then echo "logs kept in $DATA"; else rm -rf "$DATA"; fi
}
trap cleanup EXIT

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"
# A match's play time is not checked (1-hand matches of bots last seconds): the daily cap stays.
BURRACO_TEST_RATED_MIN_PLAY_MS=0 "$BIN/burraco-server" --listen "127.0.0.1:$PORT" --data "$DATA" \
  --bot-delay-ms 0 ${SERVER_ARGS:-} >"$DATA/server.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do curl -fs "$BASE/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# An account, made a bot account (its author's program plays it), with a token to play: prints
# "<account id> <token>". Each signs up from its own loopback address (127.0.0.2 and up): the
# server delays a sixth sign-up from one address.
account() {
  local name="$1" from="$2" cookie id token
  cookie="$(curl -fs --interface "$from" -o /dev/null -D - -H 'content-type: application/json' \
    -d "{\"username\":\"$name\",\"password\":\"correct horse battery\"}" "$BASE/api/signup" |
    sed -n 's/^[Ss]et-[Cc]ookie: burraco_session=\([^;]*\).*/\1/p')"
  id="$(curl -fs -H "cookie: burraco_session=$cookie" "$BASE/api/me" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')"
  curl -fs -o /dev/null -X POST -H "cookie: burraco_session=$cookie" "$BASE/api/account/bot"
  token="$(curl -fs -H "cookie: burraco_session=$cookie" -H 'content-type: application/json' \
    -d '{"label":"quality","scopes":["play","create_tables"]}' "$BASE/api/tokens" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')"
  echo "$id $token"
}

# Every account first, then every bot at once: none plays before the field is complete.
TOKENS=()
n=0
for level in "${LEVELS[@]}"; do
  for i in $(seq 1 "$PER_LEVEL"); do
    n=$((n + 1))
    read -r id token < <(account "q${level,,}a$i" "127.0.0.$((n + 1))")
    echo "$id $level" >>"$DATA/accounts"
    TOKENS+=("$level $token")
  done
done
echo "$n accounts (${LEVELS[*]}, $PER_LEVEL each), $PLAYERS players a table, up to $MATCHES rated matches each, at most $TIMEOUT_SECS s"
START=$(date +%s)
END=$((START + TIMEOUT_SECS))
n=0
for entry in "${TOKENS[@]}"; do
  read -r level token <<<"$entry"
  n=$((n + 1))
  # A bot that stops early (a refused seat request ends burraco-bot) is started again until the
  # end: its account's ratings are the server's, the restart loses nothing. More matches than the
  # target: a match over the daily cap is played but not rated.
  (
    trap 'kill "$child" 2>/dev/null; exit 0' TERM
    run=0
    while (($(date +%s) < END - 2)); do
      run=$((run + 1))
      BURRACO_TOKEN="$token" "$BIN/burraco-bot" --url "ws://127.0.0.1:$PORT/ws" \
        --strategy "$level" --players "$PLAYERS" --preset fitab --rated --matches $((MATCHES * 3)) \
        --seed $((n * 1000 + run)) --timeout $((END - $(date +%s))) >>"$DATA/bot-$n.log" 2>&1 &
      child=$!
      wait "$child" || echo "restart $run" >>"$DATA/bot-$n.restarts"
      sleep 1
    done
  ) &
  PIDS+=($!)
  echo "$!" >>"$DATA/bots"
done
python3 scripts/rating_quality_live.py watch --base "$BASE" --category "$CATEGORY" \
  --accounts "$DATA/accounts" --levels "${LEVELS[*]}" --matches "$MATCHES" --stay "$STAY" \
  --deadline $((START + TIMEOUT_SECS - 5)) --poll "$POLL_SECS" --bots "$DATA/bots"
for p in $(cat "$DATA/bots"); do kill "$p" 2>/dev/null || true; done
echo "played for $(($(date +%s) - START)) s"
restarts=$( (cat "$DATA"/bot-*.restarts 2>/dev/null || true) | wc -l)
if ((restarts)); then
  echo "bots started again after an error: $restarts times; the causes:"
  grep -h -A3 "^Caused by" "$DATA"/bot-*.log | grep -v "^Caused by\|^--\|^$\|Stack" | sort | uniq -c
fi
# The ratings are written by the match-end projection right after each match: give it a moment.
sleep 2
python3 scripts/rating_quality_live.py report --base "$BASE" --category "$CATEGORY" \
  --accounts "$DATA/accounts" --levels "${LEVELS[*]}" --stay "$STAY"
