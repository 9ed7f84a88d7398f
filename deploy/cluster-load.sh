#!/usr/bin/env bash
# The cluster at human pacing: 3 NATS servers (JetStream R3) and 3 nodes on this machine, and one
# load-test process per node (each under the per-process open-file limit), TABLES_PER_NODE tables
# of 4 bot clients each, one action per table every THINK_MS. Prints each node's figures and
# the merged ones: errors, p99 reply and last-seat event (the worst node's), actions/s, the nodes'
# RSS summed, the NATS servers' RSS summed, CPU per table. Loopback only; stops what it started.
#
#   deploy/cluster-load.sh [TABLES_PER_NODE=1000] [THINK_MS=2000] [SECS=60] [RAMP_SECS=30]
set -euo pipefail
cd "$(dirname "$0")/.."
PER_NODE="${1:-1000}"
THINK="${2:-2000}"
SECS="${3:-60}"
RAMP="${4:-30}"

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
    # KEEP=1 keeps the logs and the load tests' JSON summaries.
    if [[ -n "${KEEP:-}" ]]; then echo "kept: $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT

start_nats "$dir" 14420 16420
pids+=("${NATS_PIDS[@]}")
nats_pids=("${NATS_PIDS[@]}")
node_pids=()
for i in 1 2 3; do
    (ulimit -n 20000; exec "$server" --listen "127.0.0.1:$((18420 + i))" --data "$dir/node-$i" \
        --nats "$NATS_URLS" --node "node-$i" --rate-per-sec 100000 --rate-burst 100000 \
        >"$dir/node-$i.log" 2>&1) &
    pids+=($!)
    node_pids+=($!)
done
for i in 1 2 3; do wait_ready $((18420 + i)); done
load_pids=()
for i in 1 2 3; do
    (ulimit -n 20000; exec "$loadtest" --url "ws://127.0.0.1:$((18420 + i))/ws" --tables "$PER_NODE" \
        --duration "$SECS" --ramp-up "$RAMP" --think-ms "$THINK" --server-pid "${node_pids[$((i - 1))]}" \
        --quiet --json "$dir/load-$i.json" >/dev/null 2>"$dir/load-$i.err") &
    load_pids+=($!)
done
# The NATS servers' peak RSS while the load runs.
nats_rss=0
while kill -0 "${load_pids[0]}" 2>/dev/null; do
    now=0
    for pid in "${nats_pids[@]}"; do
        now=$((now + $(awk '/VmRSS/{print $2}' "/proc/$pid/status")))
    done
    (( now > nats_rss )) && nats_rss=$now
    sleep 1
done
for pid in "${load_pids[@]}"; do wait "$pid" || true; done
nats_cpu=0
for pid in "${nats_pids[@]}"; do
    nats_cpu=$(awk -v t="$nats_cpu" -v hz="$(getconf CLK_TCK)" '{print t + ($14 + $15) / hz}' "/proc/$pid/stat")
done
python3 - "$dir" "$PER_NODE" "$nats_rss" "$nats_cpu" "$SECS" <<'PY'
import json, sys
d, per_node, nats_rss_kb, nats_cpu, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
runs = [json.load(open(f"{d}/load-{i}.json")) for i in (1, 2, 3)]
for i, r in enumerate(runs, 1):
    s = r["server"] or {}
    print(f"node-{i}: {r['connections']} connections, {r['actions_per_s']:.0f} actions/s, errors {r['errors']}, "
          f"reply p99 {r['latency_ms']['p99']:.1f} ms, last-seat event p99 {r['last_seat_event_ms']['p99']:.1f} ms, "
          f"RSS {s.get('rss_mb', 0):.0f} MB, CPU {s.get('cpu_seconds') or 0:.1f} s")
tables = 3 * per_node
rss = sum((r["server"] or {}).get("rss_mb", 0) for r in runs)
cpu = sum((r["server"] or {}).get("cpu_seconds") or 0 for r in runs)
print(f"cluster: {tables} tables, {sum(r['connections'] for r in runs)} connections, "
      f"{sum(r['actions_per_s'] for r in runs):.0f} actions/s, errors {sum(r['errors'] for r in runs)}, "
      f"worst reply p99 {max(r['latency_ms']['p99'] for r in runs):.1f} ms, "
      f"worst last-seat event p99 {max(r['last_seat_event_ms']['p99'] for r in runs):.1f} ms")
print(f"nodes' RSS summed {rss:.0f} MB ({1000 * rss / tables:.1f} KB per table); "
      f"NATS servers' peak RSS summed {nats_rss_kb / 1024:.0f} MB; "
      f"nodes' CPU {cpu:.1f} s, NATS CPU {nats_cpu:.1f} s (whole run)")
PY
