#!/usr/bin/env bash
# Failover, measured: a local cluster (3 NATS servers, 3 nodes) with TABLES tables of load-test
# bots playing on node-2; kill -9 of node-2; the time until the other nodes serve every one of
# its tables again (the sum of their `burraco_tables` gauges). RUNS times; prints each, the
# median and the max. Loopback only; stops only what it started.
#
#   deploy/failover-bench.sh [RUNS=5] [TABLES=250] [LEASE_SECS=3]
#
# BURRACO_SERVER_BIN and BURRACO_LOADTEST_BIN run other builds (two builds compared
# alternately); by default this tree's release build. KEEP=1 keeps each run's logs (the nodes'
# and NATS's) and prints where; RUST_LOG reaches the nodes (e.g.
# `RUST_LOG=info,burraco_server::cluster::keeper=debug` for each takeover's phases).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
TABLES="${2:-250}"
LEASE="${3:-3}"

if [[ -z "${BURRACO_SERVER_BIN:-}" || -z "${BURRACO_LOADTEST_BIN:-}" ]]; then
    cargo build --release --locked -q -p burraco-server -p burraco-loadtest
fi
nats_server="$(scripts/nats-server.sh)"
server="${BURRACO_SERVER_BIN:-target/release/burraco-server}"
loadtest="${BURRACO_LOADTEST_BIN:-target/release/burraco-loadtest}"
now() { date +%s.%N; }
since() { awk -v s="$1" -v n="$(now)" 'BEGIN { printf "%.2f", n - s }'; }
source deploy/nats-local.sh

tables_on() {
    curl -sf "http://127.0.0.1:$1/metrics" | awk '/^burraco_tables /{print int($2)}' || echo 0
}

results=()
for run in $(seq 1 "$RUNS"); do
    dir="$(mktemp -d)"
    pids=()
    cleanup() {
        for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
        wait 2>/dev/null || true
        if [[ -n "${KEEP:-}" ]]; then echo "kept: $dir"; else rm -rf "$dir"; fi
    }
    trap cleanup EXIT
    start_nats "$dir" 14300 16300
    pids+=("${NATS_PIDS[@]}")
    for i in 1 2 3; do
        "$server" --listen "127.0.0.1:$((18300 + i))" --data "$dir/node-$i" --nats "$NATS_URLS" \
            --node "node-$i" --lease-secs "$LEASE" --next-hand-delay-secs 0 \
            --rate-per-sec 100000 --rate-burst 100000 >"$dir/node-$i.log" 2>&1 &
        pids+=($!)
    done
    node2=${pids[4]}
    for i in 1 2 3; do wait_ready $((18300 + i)); done
    "$loadtest" --url ws://127.0.0.1:18302/ws --tables "$TABLES" --duration 60 --think-ms 2000 \
        --quiet >"$dir/load.log" 2>&1 &
    pids+=($!)
    until [[ "$(tables_on 18302)" -ge "$TABLES" ]]; do sleep 0.2; done
    sleep 3
    before=$(( $(tables_on 18301) + $(tables_on 18303) ))
    start=$(now)
    kill -9 "$node2"
    while [[ $(( $(tables_on 18301) + $(tables_on 18303) - before )) -lt "$TABLES" ]]; do
        sleep 0.05
        if awk -v t="$(since "$start")" 'BEGIN { exit !(t > 60) }'; then
            echo "run $run: not all taken over in 60 s"; break
        fi
    done
    took=$(since "$start")
    echo "run $run: $TABLES tables of the killed node served again after ${took}s" \
        "(node-1: $(tables_on 18301), node-3: $(tables_on 18303))"
    results+=("$took")
    cleanup
    trap - EXIT
done
printf '%s\n' "${results[@]}" | sort -n | awk '{a[NR]=$1} END {
    m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2;
    printf "failover over %d runs: median %.2f s, max %.2f s\n", NR, m, a[NR] }'
