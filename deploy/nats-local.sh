# Sourced by the local cluster scripts (local-cluster.sh and the benchmarks): starts 3 NATS servers
# with JetStream, clustered, on loopback.
#
#   start_nats DIR CLIENT_BASE ROUTE_BASE   # servers nats-1..3 on CLIENT_BASE+1..3
#
# Sets NATS_URLS (comma-separated) and NATS_PIDS (an array); needs `nats_server` (the binary).
# NATS_SYNC=always makes every server fsync each write before acknowledging it (JetStream's
# `sync_interval`; by default it syncs every 2 minutes), as deploy/'s NATS configs do.
# NATS_MONITOR_BASE=PORT gives server i a monitoring port (/varz, /jsz, /connz) on PORT+i.

start_nats() {
    local dir="$1" client_base="$2" route_base="$3" routes="" i
    NATS_URLS=""
    NATS_PIDS=()
    for i in 1 2 3; do
        routes+="nats://127.0.0.1:$((route_base + i)),"
        NATS_URLS+="nats://127.0.0.1:$((client_base + i)),"
    done
    routes="${routes%,}"
    NATS_URLS="${NATS_URLS%,}"
    local config=()
    if [[ -n "${NATS_SYNC:-}" ]]; then
        printf 'jetstream {\n  sync_interval: %s\n}\n' "$NATS_SYNC" >"$dir/nats.conf"
        config=(-c "$dir/nats.conf")
    fi
    for i in 1 2 3; do
        local monitor=()
        if [[ -n "${NATS_MONITOR_BASE:-}" ]]; then
            monitor=(-m $((NATS_MONITOR_BASE + i)))
        fi
        "$nats_server" "${config[@]}" "${monitor[@]}" -a 127.0.0.1 -p $((client_base + i)) -n "nats-$i" -js -sd "$dir/nats-$i" \
            --cluster_name burraco-local --cluster "nats://127.0.0.1:$((route_base + i))" \
            --routes "$routes" >"$dir/nats-$i.log" 2>&1 &
        NATS_PIDS+=($!)
    done
}

# Waits until a node answers ready on PORT.
wait_ready() {
    until curl -sf "http://127.0.0.1:$1/healthz/ready" >/dev/null; do sleep 0.1; done
}
