#!/usr/bin/env bash
# A throwaway PostgreSQL 15 server for tests, installed first if needed.
#
#   scripts/postgres.sh bin              prints the directory of initdb and pg_ctl
#   scripts/postgres.sh start DIR PORT   initdb in DIR/data, serve on 127.0.0.1:PORT (trust auth,
#                                        user postgres, fsync off: test data only)
#   scripts/postgres.sh stop DIR         stops it (fast shutdown)
#
# The server binaries come from Debian's postgresql-15 package (or `postgresql`, whichever the
# archive has), installed with apt-get when missing, so that tests and CI find them on a fresh
# machine with nothing installed by hand. POSTGRES_BIN, when set, wins. PostgreSQL refuses to
# run as root: as root, DIR is handed to the `postgres` user the package creates and the
# commands run as that user.
set -euo pipefail

find_bin() {
    if [[ -n "${POSTGRES_BIN:-}" ]]; then
        echo "$POSTGRES_BIN"
        return
    fi
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        if [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]]; then
            echo "$dir"
            return
        fi
    done
}

bin_dir() {
    local dir
    dir="$(find_bin)"
    if [[ -z "$dir" ]]; then
        # Several tests may ask at once: one installs, the others wait for it.
        exec 9>/tmp/burraco-postgres-install.lock
        flock 9
        dir="$(find_bin)"
        if [[ -z "$dir" ]]; then
            export DEBIAN_FRONTEND=noninteractive
            apt-get update -qq >&2
            apt-get install -y -qq postgresql-15 >&2 || apt-get install -y -qq postgresql >&2
            dir="$(find_bin)"
        fi
    fi
    if [[ -z "$dir" ]]; then
        echo "no PostgreSQL server binaries after installing" >&2
        exit 1
    fi
    echo "$dir"
}

as_owner() {
    if [[ "$(id -u)" == 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "${1:-}" in
bin)
    bin_dir
    ;;
start)
    dir="$2"
    port="$3"
    bin="$(bin_dir)"
    if [[ "$(id -u)" == 0 ]]; then
        chown postgres "$dir"
    fi
    as_owner "$bin/initdb" --pgdata="$dir/data" --username=postgres --auth=trust \
        --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=60 \
        -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off" start >&2 ||
        { cat "$dir/server.log" >&2; exit 1; }
    ;;
stop)
    dir="$2"
    bin="$(bin_dir)"
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >&2
    ;;
*)
    echo "usage: $0 bin | start DIR PORT | stop DIR" >&2
    exit 2
    ;;
esac
