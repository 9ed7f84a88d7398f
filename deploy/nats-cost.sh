#!/usr/bin/env bash
# What the NATS servers cost per action and per table: a local cluster (3 NATS servers with
# JetStream R3, 3 nodes) and one load-test process per node, TABLES_PER_NODE tables of 4 bot
# clients each at one action per table every THINK_MS. Measured in the steady state (every table
# created and playing): CPU as CPU-seconds from /proc/<pid>/stat (utime + stime) of the NATS
# servers and of the nodes, so a busy, shared machine changes the wall time but not the figures
# much; actions from the nodes' burraco_actions_total; the writes per stream (the log, each KV
# bucket) from the streams' last sequences on NATS's monitoring port (/jsz). Memory per table is
# VmRSS with every table playing over the idle cluster's.
# Loopback only; stops what it started.
#
#   deploy/nats-cost.sh [TABLES_PER_NODE=300] [THINK_MS=2000] [SECS=40] [RAMP_SECS=10]
#
# BURRACO_SERVER_BIN and BURRACO_LOADTEST_BIN run other builds (two builds compared
# alternately); by default this tree's release build. KEEP=1 keeps the logs.
#
# BARE=1 measures the floor instead: no node, no game, the same number of tables each making
# bare JetStream appends at the same pace to a stream with the log's settings
# (server/src/bin/bare_appends.rs, built with the feature `bench-tools`; BARE_BYTES=100 bytes
# each, BARE_WINDOW=120 s duplicate window; BARE_BIN runs another build of it), and NATS CPU per
# append in the same window.
set -euo pipefail
cd "$(dirname "$0")/.."
PER_NODE="${1:-300}"
THINK="${2:-2000}"
SECS="${3:-40}"
RAMP="${4:-10}"

if [[ -n "${BARE:-}" ]]; then
    if [[ -z "${BARE_BIN:-}" ]]; then
        cargo build --release --locked -q -p burraco-server --features bench-tools --bin bare-appends
    fi
elif [[ -z "${BURRACO_SERVER_BIN:-}" || -z "${BURRACO_LOADTEST_BIN:-}" ]]; then
    cargo build --release --locked -q -p burraco-server -p burraco-loadtest
fi
nats_server="$(scripts/nats-server.sh)"
server="${BURRACO_SERVER_BIN:-target/release/burraco-server}"
loadtest="${BURRACO_LOADTEST_BIN:-target/release/burraco-loadtest}"
source deploy/nats-local.sh
dir="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [[ -n "${KEEP:-}" ]]; then echo "kept: $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT

monitor=18630
NATS_MONITOR_BASE=$monitor start_nats "$dir" 14630 16630
pids+=("${NATS_PIDS[@]}")
nats_pids=("${NATS_PIDS[@]}")

cpu() { # CPU-seconds of the pids
    local hz total=0 pid
    hz="$(getconf CLK_TCK)"
    for pid in "$@"; do
        total=$(awk -v t="$total" -v hz="$hz" '{print t + ($14 + $15) / hz}' "/proc/$pid/stat")
    done
    echo "$total"
}
rss() { # VmRSS of the pids, KB
    local total=0 pid
    for pid in "$@"; do total=$((total + $(awk '/VmRSS/{print $2}' "/proc/$pid/status"))); done
    echo "$total"
}
jsz() { curl -sf "http://127.0.0.1:$((monitor + 1))/jsz?streams=true" >"$1"; }

if [[ -n "${BARE:-}" ]]; then
    bare="${BARE_BIN:-target/release/bare-appends}"
    tables=$((3 * PER_NODE))
    until curl -sf "http://127.0.0.1:$((monitor + 1))/healthz?js-enabled-only=true" >/dev/null; do sleep 0.1; done
    sleep 2
    idle_rss="$(rss "${nats_pids[@]}")"
    "$bare" "$NATS_URLS" "$tables" "$THINK" "$SECS" "${BARE_BYTES:-100}" "${BARE_WINDOW:-120}" \
        >"$dir/bare.out" 2>"$dir/bare.err" &
    bare_pid=$!
    pids+=("$bare_pid")
    # The steady state: every table appending (their starts spread over one think time).
    sleep $(((THINK + 999) / 1000 + 3))
    read -r cpu0 < <(cpu "${nats_pids[@]}")
    jsz "$dir/playing.json"
    sleep $((SECS - (THINK + 999) / 1000 - 4))
    read -r cpu1 < <(cpu "${nats_pids[@]}")
    end_rss="$(rss "${nats_pids[@]}")"
    jsz "$dir/end.json"
    wait "$bare_pid" || true
    python3 - "$dir" "$tables" "$cpu0" "$cpu1" "$idle_rss" "$end_rss" <<'PY'
import json, sys
d, tables, cpu0, cpu1, idle_rss, end_rss = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:])
def state(name):
    for account in json.load(open(f"{d}/{name}.json")).get("account_details", []):
        for s in account.get("stream_detail", []):
            if s["name"] == "BARE_LOG":
                return s["state"]
    return {"last_seq": 0, "bytes": 0, "messages": 0}
appends = state("end")["last_seq"] - state("playing")["last_seq"]
stored = state("end")["bytes"] / max(state("end")["messages"], 1)
nats = cpu1 - cpu0
print(f"bare: {tables} tables, {open(f'{d}/bare.out').read().strip()} appends acknowledged, "
      f"refused {sum(1 for _ in open(f'{d}/bare.err'))}")
print(f"steady state: {appends} appends; NATS {nats:.2f} CPU-s = {appends / max(nats, 1e-9):.0f} appends "
      f"per NATS CPU-second; NATS +{(end_rss - idle_rss) / tables:.1f} KB per table; {stored:.0f} bytes "
      "stored per message")
PY
    exit 0
fi

node_pids=()
for i in 1 2 3; do
    (ulimit -n 20000; exec "$server" --listen "127.0.0.1:$((18640 + i))" --data "$dir/node-$i" \
        --nats "$NATS_URLS" --node "node-$i" --rate-per-sec 100000 --rate-burst 100000 \
        >"$dir/node-$i.log" 2>&1) &
    pids+=($!)
    node_pids+=($!)
done
for i in 1 2 3; do wait_ready $((18640 + i)); done
sleep 2

actions() { # every node's burraco_actions_total, summed
    local total=0 i
    for i in 1 2 3; do
        total=$((total + $(curl -sf "http://127.0.0.1:$((18640 + i))/metrics" |
            awk '/^burraco_actions_total /{print int($2)}')))
    done
    echo "$total"
}
snapshot() { # NAME: CPU, RSS, actions and the streams' sequences now
    echo "$(cpu "${nats_pids[@]}") $(cpu "${node_pids[@]}") $(rss "${nats_pids[@]}") $(rss "${node_pids[@]}") $(actions)" >"$dir/$1.txt"
    jsz "$dir/$1.json"
}

snapshot idle
load_pids=()
for i in 1 2 3; do
    (ulimit -n 20000; exec "$loadtest" --url "ws://127.0.0.1:$((18640 + i))/ws" --tables "$PER_NODE" \
        --duration "$SECS" --ramp-up "$RAMP" --think-ms "$THINK" \
        --quiet --json "$dir/load-$i.json" >/dev/null 2>"$dir/load-$i.err") &
    load_pids+=($!)
done
# The steady state: from 3 s after the ramp until a second before the load ends (every table
# playing, none being created).
sleep $((RAMP + 3))
snapshot playing
sleep $((SECS - 4))
snapshot end
for pid in "${load_pids[@]}"; do wait "$pid" || true; done

python3 - "$dir" "$PER_NODE" <<'PY'
import json, sys
d, per_node = sys.argv[1], int(sys.argv[2])
tables = 3 * per_node
def snap(name):
    cpu_nats, cpu_nodes, rss_nats, rss_nodes, actions = open(f"{d}/{name}.txt").read().split()
    streams = {}
    for account in json.load(open(f"{d}/{name}.json")).get("account_details", []):
        for s in account.get("stream_detail", []):
            streams[s["name"]] = s["state"]["last_seq"]
    return dict(nats=float(cpu_nats), nodes=float(cpu_nodes), nats_rss=int(rss_nats),
                nodes_rss=int(rss_nodes), actions=int(actions), streams=streams)
idle, playing, end = snap("idle"), snap("playing"), snap("end")
runs = [json.load(open(f"{d}/load-{i}.json")) for i in (1, 2, 3)]
print(f"{tables} tables, {sum(r['actions'] for r in runs)} actions, errors {sum(r['errors'] for r in runs)}, "
      f"worst reply p99 {max(r['latency_ms']['p99'] for r in runs):.1f} ms")
actions = end["actions"] - playing["actions"]
nats = end["nats"] - playing["nats"]
nodes = end["nodes"] - playing["nodes"]
print(f"steady state: {actions} actions; NATS {nats:.2f} CPU-s = {actions / max(nats, 1e-9):.0f} actions "
      f"per NATS CPU-second; nodes {nodes:.2f} CPU-s = {actions / max(nodes, 1e-9):.0f} per node CPU-second")
print(f"memory with every table playing: NATS +{(end['nats_rss'] - idle['nats_rss']) / tables:.1f} KB per table, "
      f"nodes +{(end['nodes_rss'] - idle['nodes_rss']) / tables:.1f} KB per table (VmRSS over the idle cluster's)")
print("writes per stream in the steady state (per action):")
for name in sorted(end["streams"]):
    n = end["streams"][name] - playing["streams"].get(name, 0)
    if n:
        print(f"  {name:28} {n:>8}  {n / max(actions, 1):.2f}")
for account in json.load(open(f"{d}/end.json")).get("account_details", []):
    for s in account.get("stream_detail", []):
        if s["name"] == "BURRACO_LOG" and s["state"]["messages"]:
            print(f"the log's messages: {s['state']['bytes'] / s['state']['messages']:.0f} bytes each "
                  "(stored size: payload, subject, headers)")
PY
