#!/usr/bin/env bash
# One node on SQLite against one node of a cluster (3 NATS servers, JetStream R3, on this same
# machine), the same load alternately in one sitting: actions per server CPU-second and the
# reply / last-seat-event p99 at TABLES tables (4 connections each). The cluster's NATS servers'
# CPU is reported beside its node's. Loopback only; stops only what it started.
#
#   deploy/cluster-vs-single.sh [TABLES=250] [THINK_MS=0] [ROUNDS=3] [SECS=20]
set -euo pipefail
cd "$(dirname "$0")/.."
TABLES="${1:-250}"
THINK="${2:-0}"
ROUNDS="${3:-3}"
SECS="${4:-20}"

cargo build --release --locked -q -p burraco-server -p burraco-loadtest
nats_server="$(scripts/nats-server.sh)"
server=target/release/burraco-server
loadtest=target/release/burraco-loadtest
source deploy/nats-local.sh
dir="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT
flags=(--next-hand-delay-secs 0 --rate-per-sec 100000 --rate-burst 100000)

"$server" --listen 127.0.0.1:18401 --data "$dir/single" "${flags[@]}" >"$dir/single.log" 2>&1 &
single=$!
pids+=($single)
start_nats "$dir" 14410 16410
pids+=("${NATS_PIDS[@]}")
nats_pids=("${NATS_PIDS[@]}")
"$server" --listen 127.0.0.1:18402 --data "$dir/node" "${flags[@]}" \
    --nats "$NATS_URLS" --node node-1 \
    >"$dir/node.log" 2>&1 &
node=$!
pids+=($node)
wait_ready 18401
wait_ready 18402

# CPU seconds (user + system) of some processes, from /proc.
cpu() {
    local total=0
    for pid in "$@"; do
        total=$(awk -v t="$total" -v hz="$(getconf CLK_TCK)" '{print t + ($14 + $15) / hz}' "/proc/$pid/stat")
    done
    echo "$total"
}

printf '%-8s %5s %12s %16s %12s %14s %10s\n' run round actions/s actions/cpu-s reply_p99 last_event_p99 nats_cpu
for round in $(seq 1 "$ROUNDS"); do
    for which in single cluster; do
        if [[ $which == single ]]; then port=18401; pid=$single; else port=18402; pid=$node; fi
        nats_before=$(cpu "${nats_pids[@]}")
        "$loadtest" --url "ws://127.0.0.1:$port/ws" --tables "$TABLES" --duration "$SECS" \
            --think-ms "$THINK" --server-pid "$pid" --quiet --json "$dir/$which-$round.json" >/dev/null
        nats_after=$(cpu "${nats_pids[@]}")
        python3 - "$dir/$which-$round.json" "$which" "$round" "$nats_before" "$nats_after" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
server = s.get("server") or {}
per_cpu = server.get("actions_per_cpu_second") or 0
nats = float(sys.argv[5]) - float(sys.argv[4]) if sys.argv[2] == "cluster" else 0.0
print(f"{sys.argv[2]:<8} {sys.argv[3]:>5} {s['actions_per_s']:>12.0f} {per_cpu:>16.0f} "
      f"{s['latency_ms']['p99']:>10.2f}ms {s['last_seat_event_ms']['p99']:>12.2f}ms {nats:>9.1f}s")
PY
    done
done
