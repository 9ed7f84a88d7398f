#!/usr/bin/env bash
# docs/PERFORMANCE.md, "Sign-in limits under a burst": on this machine, loopback only, for each
# store given (sqlite, postgres), a release server on a free port (PostgreSQL 15 from
# scripts/postgres.sh, fsync off, on another) and ROUNDS rounds of three bursts, each from a
# source address of its own (scripts/signin_burst.py):
#   account: COUNT wrong passwords for one account at once;
#   address: COUNT sign-ins naming COUNT unknown names at once;
#   signup:  COUNT sign-ups at once;
# (order reversed every other round: the machine may be busy; report medians). Prints one JSON
# summary per store and keeps every burst's JSON in OUT.
#
#   cargo build --release -p burraco-server
#   scripts/signin-burst.sh [sqlite] [postgres]        (default: both)
#
# Environment (bounded): ROUNDS=5 COUNT=200 OUT=$(mktemp -d) TARGET_DIR=target.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
COUNT=${COUNT:-200}
OUT=${OUT:-$(mktemp -d /tmp/signin-burst.XXXXXX)}
BIN=${TARGET_DIR:-target}/release
STORES=("$@")
[[ ${#STORES[@]} -gt 0 ]] || STORES=(sqlite postgres)

if ((ROUNDS < 1 || ROUNDS > 20 || COUNT < 1 || COUNT > 1000)); then
    echo "bounds: ROUNDS 1..20, COUNT 1..1000" >&2
    exit 2
fi
[[ -x "$BIN/burraco-server" ]] || { echo "no $BIN/burraco-server: cargo build --release -p burraco-server" >&2; exit 1; }
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

for store in "${STORES[@]}"; do
    run="$OUT/$store"
    mkdir -p "$run"
    port=$(free_port)
    base="http://127.0.0.1:$port"
    args=(--listen "127.0.0.1:$port" --data "$run/data")
    case "$store" in
    sqlite) ;;
    postgres)
        pg_dir=$(mktemp -d /tmp/signin-burst-pg.XXXXXX)
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
    n=0
    for r in $(seq "$ROUNDS"); do
        kinds=(account address signup)
        ((r % 2 == 0)) && kinds=(signup address account)
        for kind in "${kinds[@]}"; do
            n=$((n + 1))
            echo "-- $store round $r/$ROUNDS: $kind" >&2
            python3 scripts/signin_burst.py --base "$base" --kind "$kind" --count "$COUNT" \
                --source "127.0.$((n % 200 + 1)).1" > "$run/$kind-$r.json"
        done
    done
    cleanup

    python3 - "$run" "$store" <<'PY'
import glob, json, statistics, sys
run, store = sys.argv[1], sys.argv[2]
def med(xs):
    return round(statistics.median(xs), 1) if xs else None
out = {"store": store}
for kind in ("account", "address", "signup"):
    runs = [json.load(open(p)) for p in sorted(glob.glob(f"{run}/{kind}-*.json"))]
    out[kind] = {"runs": len(runs), "answers": [r["answers"] for r in runs],
                 "argon2_checks": [r["argon2_checks"] for r in runs],
                 "median_p50_ms": med([r["latency_ms"]["p50"] for r in runs]),
                 "median_p99_ms": med([r["latency_ms"]["p99"] for r in runs]),
                 "median_wall_ms": med([r["wall_ms"] for r in runs])}
print(json.dumps(out, indent=1))
PY
done
