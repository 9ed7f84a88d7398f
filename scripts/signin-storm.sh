#!/usr/bin/env bash
# Accounts' figures for docs/PERFORMANCE.md ("Accounts"), on this machine, loopback only:
#   - sign-ins per second and their latency while a storm of them runs (the password is right,
#     so every one is a full Argon2id check), alone and beside a table load;
#   - the table actions' reply latency (burraco-loadtest's p99) with and without the storm;
#   - the cost of a WebSocket hello: a guest's, one with a personal token (`hello_token`) and
#     one with a session cookie, one at a time.
# For each store given (sqlite, postgres): starts a release server on a free port (PostgreSQL 15
# from scripts/postgres.sh, fsync off, on another), makes the accounts, then ROUNDS rounds of
#   tables alone | tables + storm | storm alone   (order reversed every other round: the
#                                                  machine may be busy; report medians)
# and the hellos, and stops what it started. Prints one JSON summary per store and keeps every
# run's JSON in OUT.
#
#   cargo build --release -p burraco-server -p burraco-loadtest
#   scripts/signin-storm.sh [sqlite] [postgres]        (default: both)
#
# Environment (bounded: at most 600 s a run): ROUNDS=3 TABLES=100 THINK_MS=1000 DURATION=20
# CONCURRENCY=8 HELLO_ROUNDS=5 HELLO_PER_ROUND=100 OUT=$(mktemp -d) TARGET_DIR=target.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
TABLES=${TABLES:-100}
THINK_MS=${THINK_MS:-1000}
DURATION=${DURATION:-20}
CONCURRENCY=${CONCURRENCY:-8}
HELLO_ROUNDS=${HELLO_ROUNDS:-5}
HELLO_PER_ROUND=${HELLO_PER_ROUND:-100}
OUT=${OUT:-$(mktemp -d /tmp/signin-storm.XXXXXX)}
BIN=${TARGET_DIR:-target}/release
STORES=("$@")
[[ ${#STORES[@]} -gt 0 ]] || STORES=(sqlite postgres)

if ((ROUNDS < 1 || ROUNDS > 10 || DURATION < 1 || DURATION > 600 || TABLES < 1 || TABLES > 2000)); then
    echo "bounds: ROUNDS 1..10, DURATION 1..600, TABLES 1..2000" >&2
    exit 2
fi
for b in burraco-server burraco-loadtest; do
    [[ -x "$BIN/$b" ]] || { echo "no $BIN/$b: cargo build --release -p $b" >&2; exit 1; }
done
mkdir -p "$OUT"
echo "-- results in $OUT" >&2

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

server_pid=""
pg_dir=""
cleanup() {
    if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    if [[ -n "$pg_dir" ]]; then scripts/postgres.sh stop "$pg_dir" 2>/dev/null || true; rm -rf "$pg_dir"; fi
    server_pid=""
    pg_dir=""
}
trap cleanup EXIT

storm() { # $1: output file
    python3 scripts/signin_storm.py storm --base "$base" --state "$state" \
        --duration "$DURATION" --concurrency "$CONCURRENCY" > "$1"
}
tables() { # $1: output file
    "$BIN/burraco-loadtest" --url "ws://127.0.0.1:$port/ws" --tables "$TABLES" --duration "$DURATION" \
        --think-ms "$THINK_MS" --server-pid "$server_pid" --quiet --json "$1" > /dev/null
}

for store in "${STORES[@]}"; do
    run="$OUT/$store"
    mkdir -p "$run"
    port=$(free_port)
    base="http://127.0.0.1:$port"
    state="$run/accounts.json"
    args=(--listen "127.0.0.1:$port" --data "$run/data")
    case "$store" in
    sqlite) ;;
    postgres)
        pg_dir=$(mktemp -d /tmp/signin-storm-pg.XXXXXX)
        pg_port=$(free_port)
        scripts/postgres.sh start "$pg_dir" "$pg_port"
        args+=(--database-url "postgres://postgres@127.0.0.1:$pg_port/postgres")
        ;;
    *) echo "unknown store $store (sqlite or postgres)" >&2; exit 2 ;;
    esac
    "$BIN/burraco-server" "${args[@]}" > "$run/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do
        curl -sf "$base/healthz" > /dev/null && break
        sleep 0.2
    done
    curl -sf "$base/healthz" > /dev/null || { cat "$run/server.log" >&2; exit 1; }
    python3 scripts/signin_storm.py setup --base "$base" --state "$state" >&2

    for r in $(seq "$ROUNDS"); do
        echo "-- $store round $r/$ROUNDS" >&2
        steps=(alone both storm)
        ((r % 2 == 0)) && steps=(storm both alone)
        for step in "${steps[@]}"; do
            case "$step" in
            alone) tables "$run/tables-alone-$r.json" ;;
            storm) storm "$run/storm-alone-$r.json" ;;
            both)
                tables "$run/tables-storm-$r.json" &
                load=$!
                storm "$run/storm-tables-$r.json"
                wait "$load"
                ;;
            esac
        done
    done
    echo "-- $store hellos" >&2
    python3 scripts/signin_storm.py hellos --base "$base" --state "$state" \
        --rounds "$HELLO_ROUNDS" --per-round "$HELLO_PER_ROUND" > "$run/hellos.json"
    cleanup

    python3 - "$run" "$store" <<'PY'
import glob, json, statistics, sys
run, store = sys.argv[1], sys.argv[2]
def load(pattern):
    return [json.load(open(p)) for p in sorted(glob.glob(f"{run}/{pattern}-*.json"))]
def med(xs):
    return round(statistics.median(xs), 2) if xs else None
def tables(runs):
    return {"runs": len(runs), "reply_p99_ms": [r["latency_ms"]["p99"] for r in runs],
            "median_reply_p99_ms": med([r["latency_ms"]["p99"] for r in runs]),
            "median_reply_p50_ms": med([r["latency_ms"]["p50"] for r in runs]),
            "median_actions_per_s": med([r["actions_per_s"] for r in runs]),
            "errors": sum(r["errors"] for r in runs)}
def storm(runs):
    return {"runs": len(runs), "signins_per_s": [r["signins_per_s"] for r in runs],
            "median_signins_per_s": med([r["signins_per_s"] for r in runs]),
            "median_p50_ms": med([r["latency_ms"].get("p50", 0) for r in runs]),
            "median_p99_ms": med([r["latency_ms"].get("p99", 0) for r in runs]),
            "answers": [r["answers"] for r in runs]}
hellos = json.load(open(f"{run}/hellos.json"))["hellos"]
print(json.dumps({"store": store,
    "tables_alone": tables(load("tables-alone")), "tables_with_storm": tables(load("tables-storm")),
    "storm_alone": storm(load("storm-alone")), "storm_with_tables": storm(load("storm-tables")),
    "hello_ms": {k: {"median_of_round_medians": v["median_of_round_medians_ms"],
                     "p99": v["all_ms"].get("p99")} for k, v in hellos.items()}}, indent=1))
PY
done
