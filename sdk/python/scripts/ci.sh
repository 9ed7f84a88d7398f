#!/usr/bin/env bash
# CI for the Python SDK (sdk/python):
#   1. a fresh venv in a scratch directory (removed on exit; pip's own cache keeps it quick),
#   2. `pip install` of the SDK from this tree (its one dependency, websockets, from PyPI) and of
#      the test tool mypy,
#   3. mypy --strict over the package, its tests and the demo (examples/python/bot.py),
#   4. the tests (unittest, no pytest): the meld checks offline, then whole matches, a resume,
#      a refused move, add_bots, a tournament and the demo against a real burraco-server on
#      loopback (a free port, a scratch data directory, stopped by its pid).
# Installs python3-venv with apt-get when `python3 -m venv` cannot work (Debian splits it out).
# The server: $BURRACO_SERVER_BIN, else target/debug/burraco-server (built when missing).
# Usage: sdk/python/scripts/ci.sh      (ends with "N passed, M failed"; non-zero on a failure)
set -euo pipefail
cd "$(dirname "$0")/.."
SDK="$(pwd)"
REPO="$(cd ../.. && pwd)"

if ! command -v python3 >/dev/null; then echo "python3 (>= 3.10) is required" >&2; exit 1; fi
python3 --version

VENV="$(mktemp -d "${TMPDIR:-/tmp}/burraco-sdk-venv.XXXXXX")"
trap 'rm -rf "$VENV"' EXIT
echo "== venv in $VENV"
if ! python3 -m venv "$VENV" 2>/dev/null; then
  # Debian ships venv's pip bootstrap (ensurepip) apart, in python3-venv.
  echo "== installing python3-venv (Debian)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv
  rm -rf "$VENV" && mkdir -p "$VENV"
  python3 -m venv "$VENV"
fi
# mypy pinned: a newer one may add checks, which should be a change of ours, not a red CI.
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$SDK" "mypy==2.4.1"

if [ -z "${BURRACO_SERVER_BIN:-}" ]; then
  export BURRACO_SERVER_BIN="$REPO/target/debug/burraco-server"
  if [ ! -x "$BURRACO_SERVER_BIN" ]; then
    echo "== building burraco-server (debug)"
    (cd "$REPO" && cargo build -p burraco-server)
  fi
fi

echo "== mypy --strict"
"$VENV/bin/mypy" --strict --no-error-summary src/burraco
(cd tests && "$VENV/bin/mypy" --strict --no-error-summary .)
"$VENV/bin/mypy" --strict --no-error-summary "$REPO/examples/python/bot.py"

echo "== tests against $BURRACO_SERVER_BIN"
# The tests import the installed SDK, not the source tree: run them from outside src/.
cd tests
timeout 300 "$VENV/bin/python" run.py
