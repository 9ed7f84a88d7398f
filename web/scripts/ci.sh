#!/usr/bin/env bash
# CI for the browser client (web/): installs what the checks need, then runs
#   1. the type check (tsc --checkJs over the plain ES modules, JSDoc types),
#   2. the unit tests (node:test; the shuffle against `burraco deal` fixtures),
#   3. the end-to-end tests in headless Debian Chromium against the real server.
# Installs: Debian's chromium (apt-get, only if /usr/bin/chromium is missing), sqlite3 (likewise:
# the levels test writes ratings with it) and the npm dev
# dependencies of web/package-lock.json (typescript, playwright-core, ws). Playwright never
# downloads a browser of its own (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1; playwright-core has none).
# Usage: web/scripts/ci.sh [--no-e2e]
set -euo pipefail
cd "$(dirname "$0")/.."
WEB="$(pwd)"
REPO="$(cd .. && pwd)"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

if ! command -v node >/dev/null; then echo "node (>= 20) is required" >&2; exit 1; fi

echo "== npm ci"
npm ci --no-audit --no-fund

echo "== typecheck"
npx tsc -p jsconfig.json

echo "== unit tests"
node --test test/

if [ "${1:-}" = "--no-e2e" ]; then exit 0; fi

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium (Debian)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
fi

# The levels test writes ratings into its server's SQLite file with the sqlite3 shell.
if ! command -v sqlite3 >/dev/null; then
  echo "== installing sqlite3 (Debian)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends sqlite3
fi

if [ -z "${BURRACO_SERVER_BIN:-}" ]; then
  echo "== building burraco-server (release)"
  (cd "$REPO" && cargo build --release -p burraco-server)
  export BURRACO_SERVER_BIN="$REPO/target/release/burraco-server"
fi

echo "== end-to-end (headless chromium)"
SCREENSHOTS="${SCREENSHOTS:-$REPO/docs/screenshots}" node e2e/run.mjs
