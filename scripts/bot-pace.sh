#!/usr/bin/env bash
# Does a connected burraco-bot ever run out its move clock (issue 32)? A release server of its own
# on loopback, BOTS bot accounts, each played by `burraco-bot --rated` with its personal token
# (rated quick play between them, head to head, FITAB's clocks), for SECONDS; then what the server
# saw: move clocks that ran out (`clock_expired` in the hand records), fair play's outcomes
# (`stalled` among them) and playbans, `burraco_errors_total` by code from /metrics, the rated
# matches finished, and the moderators' open reports by kind (every account plays from
# 127.0.0.1, so the same-address signal finds them all).
#
# Usage: scripts/bot-pace.sh [BOTS] [SECONDS] [LEVEL]      defaults: 8 bots, 300 s, L2.
#   Binaries: BURRACO_BIN_DIR, else target/release (cargo build --release -p burraco-server
#   -p burraco-bot). KEEP=1 keeps the data dir and the logs. Run it niced on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
BOTS="${1:-8}"
SECONDS_RUN="${2:-300}"
LEVEL="${3:-L2}"
BIN="${BURRACO_BIN_DIR:-target/release}"
for b in burraco-server burraco-bot; do
  [[ -x "$BIN/$b" ]] || { echo "$BIN/$b missing: cargo build --release -p burraco-server -p burraco-bot" >&2; exit 2; }
done
if ((BOTS < 2 || BOTS > 250)); then echo "2 to 250 bots (one loopback address each to sign up)" >&2; exit 2; fi

DATA="$(mktemp -d /tmp/burraco-bot-pace-XXXXXX)"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ -n "${KEEP:-}" ]]; then echo "logs kept in $DATA"; else rm -rf "$DATA"; fi
}
trap cleanup EXIT

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"
# Bots' matches last seconds: the rated minimum of play is not checked (the daily cap stays).
BURRACO_TEST_RATED_MIN_PLAY_MS=0 "$BIN/burraco-server" --listen "127.0.0.1:$PORT" --data "$DATA" \
  ${SERVER_ARGS:-} >"$DATA/server.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do curl -fs "$BASE/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# A bot account with a token to play, signed up from its own loopback address (the server delays
# a sixth sign-up from one address): prints the token.
account() {
  local name="$1" from="$2" cookie
  cookie="$(curl -fs --interface "$from" -o /dev/null -D - -H 'content-type: application/json' \
    -d "{\"username\":\"$name\",\"password\":\"correct horse battery\"}" "$BASE/api/signup" |
    sed -n 's/^[Ss]et-[Cc]ookie: burraco_session=\([^;]*\).*/\1/p')"
  curl -fs -o /dev/null -X POST -H "cookie: burraco_session=$cookie" "$BASE/api/account/bot"
  curl -fs -H "cookie: burraco_session=$cookie" -H 'content-type: application/json' \
    -d '{"label":"pace","scopes":["play"]}' "$BASE/api/tokens" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}

# A moderator to read the queue with.
MOD_COOKIE="$(curl -fs -o /dev/null -D - -H 'content-type: application/json' \
  -d '{"username":"pacemod","password":"correct horse battery"}' "$BASE/api/signup" |
  sed -n 's/^[Ss]et-[Cc]ookie: burraco_session=\([^;]*\).*/\1/p')"
"$BIN/burraco-server" --data "$DATA" admin grant-moderator pacemod >/dev/null

TOKENS=()
for i in $(seq 1 "$BOTS"); do
  TOKENS+=("$(account "pace$i" "127.0.0.$((i + 1))")")
done
echo "$BOTS bot accounts ($LEVEL), rated quick play head to head for $SECONDS_RUN s"
START=$(date +%s)
END=$((START + SECONDS_RUN))
n=0
for token in "${TOKENS[@]}"; do
  n=$((n + 1))
  # A bot that stops (an error ends burraco-bot) is started again until the end.
  (
    trap 'kill "$child" 2>/dev/null; exit 0' TERM
    run=0
    while (($(date +%s) < END - 2)); do
      run=$((run + 1))
      BURRACO_TOKEN="$token" "$BIN/burraco-bot" --url "ws://127.0.0.1:$PORT/ws" \
        --strategy "$LEVEL" --players 2 --preset fitab --rated --matches 1000 \
        --seed $((n * 1000 + run)) --timeout $((END - $(date +%s))) >>"$DATA/bot-$n.log" 2>&1 &
      child=$!
      wait "$child" || echo "restart $run" >>"$DATA/bot-$n.restarts"
      sleep 1
    done
  ) &
  PIDS+=($!)
done
while (($(date +%s) < END)); do sleep 5; done
for p in "${PIDS[@]:1}"; do kill "$p" 2>/dev/null || true; done
sleep 1
echo "played for $(($(date +%s) - START)) s"
restarts=$( (cat "$DATA"/bot-*.restarts 2>/dev/null || true) | wc -l)
echo "bots started again after an error: $restarts"
echo "== /metrics: errors by code, playbans"
curl -fs "$BASE/metrics" | grep -E '^burraco_(errors_total|playbans_total)' | grep -v ' 0$' || echo "(none)"
echo "== the store"
python3 - "$DATA/burraco.sqlite3" <<'EOF'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
expired = hands = 0
for (record,) in db.execute("SELECT record FROM records"):
    hands += 1
    expired += record.count('"clock_expired"')
print(f"hands recorded: {hands}, move clocks run out: {expired}")
outcomes = dict(db.execute("SELECT outcome, COUNT(*) FROM fairplay_outcomes GROUP BY outcome"))
rated = db.execute("SELECT COUNT(DISTINCT table_id) FROM fairplay_outcomes").fetchone()[0]
print(f"rated matches finished: {rated}, outcomes: {outcomes}")
bans = db.execute("SELECT COUNT(*) FROM fairplay_bans").fetchone()[0]
print(f"playbans: {bans}")
EOF
echo "== the moderators' open reports"
curl -fs -H "cookie: burraco_session=$MOD_COOKIE" "$BASE/api/moderation/reports" | python3 -c '
import collections, json, sys
reports = json.load(sys.stdin)["reports"]
kinds = collections.Counter(r["kind"] for r in reports)
found = collections.Counter()
for r in reports:
    found[r["kind"]] += r["context"].get("count") or 1
print(f"open reports: {len(reports)}", dict(kinds), "findings:", dict(found))'
