#!/usr/bin/env bash
# Regenerates web/test/fixtures/deals.json from the Rust reference implementation
# (`burraco deal`, cli/), so the browser's shuffle is tested against values it did not compute.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build -q --release -p burraco-cli
B=target/release/burraco
{
  echo '['
  first=1
  for spec in \
    "0000000000000000000000000000000000000000000000000000000000000000 4 N" \
    "1111111111111111111111111111111111111111111111111111111111111111 4 N" \
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff 4 E" \
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f 4 W" \
    "9b1c0e7a5d2f4c3b8a6e1d0f2c4b6a8e9d7c5b3a1f0e2d4c6b8a0f1e3d5c7b9a 2 S" \
    "deadbeefcafebabe0123456789abcdeffedcba9876543210a5a5a5a5c3c3c3c3 2 N"; do
    set -- $spec
    [ $first = 1 ] || echo ','
    first=0
    "$B" deal --seed "$1" --players "$2" --dealer "$3"
  done
  echo ']'
} > web/test/fixtures/deals.json
echo "wrote web/test/fixtures/deals.json"
