#!/usr/bin/env bash
# How long one node takes to come back after a crash with TABLES tables in play: a server on a
# fresh data directory, TABLES tables of 4 bot clients (the load tool, THINK_MS between a
# table's actions) playing for PLAY_SECS, the server killed -9 mid-play, then started again on
# the same directory. Reported per run: the tables rebuilt from the store, the time from the
# restart's exec until /healthz/ready answers (the listener serves only once every table is
# rebuilt), and the restarted server's VmRSS then.
# Loopback only; stops what it started, by pid.
#
#   scripts/restart-bench.sh [TABLES=1000] [RUNS=1] [PLAY_SECS=20] [THINK_MS=500]
#
# BURRACO_SERVER_BIN and BURRACO_LOADTEST_BIN run other builds (two builds compared
# alternately); by default this tree's release build.
set -euo pipefail
cd "$(dirname "$0")/.."
TABLES="${1:-1000}"
RUNS="${2:-1}"
PLAY="${3:-20}"
THINK="${4:-500}"
if [[ -z "${BURRACO_SERVER_BIN:-}" || -z "${BURRACO_LOADTEST_BIN:-}" ]]; then
    cargo build --release --locked -q -p burraco-server -p burraco-loadtest
fi
server="${BURRACO_SERVER_BIN:-target/release/burraco-server}"
loadtest="${BURRACO_LOADTEST_BIN:-target/release/burraco-loadtest}"
port="${PORT:-18751}"
dir="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT

start_server() { # $1: log file; sets server_pid
    "$server" --listen "127.0.0.1:$port" --data "$dir/data" --next-hand-delay-secs 0 \
        --rate-per-sec 100000 --rate-burst 100000 > "$1" 2>&1 &
    server_pid=$!
    pids+=("$server_pid")
}

wait_ready() { # prints the seconds from $1 (date +%s.%N) until /healthz/ready answers
    local deadline=$((SECONDS + 120))
    until curl -sf "http://127.0.0.1:$port/healthz/ready" > /dev/null; do
        if ((SECONDS > deadline)); then
            echo "the server was not ready within 120 s" >&2
            exit 1
        fi
        kill -0 "$server_pid" 2> /dev/null || { echo "the server exited" >&2; exit 1; }
        sleep 0.01
    done
    awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - s }'
}

for run in $(seq 1 "$RUNS"); do
    rm -rf "$dir/data"
    start_server "$dir/first.log"
    wait_ready "$(date +%s.%N)" > /dev/null
    "$loadtest" --url "ws://127.0.0.1:$port/ws" --tables "$TABLES" --duration $((PLAY + 30)) \
        --ramp-up $((PLAY / 2)) --think-ms "$THINK" --quiet > "$dir/load.log" 2>&1 &
    load_pid=$!
    pids+=("$load_pid")
    sleep "$PLAY"
    kill -9 "$server_pid"
    wait "$server_pid" 2> /dev/null || true
    kill -9 "$load_pid" 2> /dev/null || true
    wait "$load_pid" 2> /dev/null || true
    started="$(date +%s.%N)"
    start_server "$dir/restart.log"
    secs="$(wait_ready "$started")"
    rebuilt="$(grep -o 'rebuilt [0-9]* tables' "$dir/restart.log" | grep -o '[0-9]*' || echo 0)"
    rss="$(awk '/VmRSS/ {print $2}' "/proc/$server_pid/status")"
    echo "run $run: rebuilt $rebuilt tables, ready ${secs} s after the restart, VmRSS ${rss} kB"
    kill -9 "$server_pid"
    wait "$server_pid" 2> /dev/null || true
done
