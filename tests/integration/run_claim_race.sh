#!/usr/bin/env bash
# Runs claim_race 3 times (2 recording threads, a flushing main thread); each run's files must
# count every event once.
set -euo pipefail
work=$(mktemp -d /tmp/provio-claim-race-XXXXXX)
trap 'rm -rf "$work"' EXIT
for run in 1 2 3; do
  export PROVIO_DIR=$work/$run
  expected=$("$1" 2 300000)
  got=$(cat "$PROVIO_DIR"/*.ttl | grep -o ':count [0-9]*' | grep -o '[0-9]*' | awk '{s+=$1} END {print s}')
  [ "$got" = "$expected" ] || { echo "run $run: $got events in the files, $expected recorded"; exit 1; }
done
echo "ok: 3 runs, every event once"
