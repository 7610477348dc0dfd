#!/usr/bin/env bash
# Runs a race program 3 times: run_counting_race.sh PROGRAM ARGS… (flush_race, claim_race). Each
# run must exit cleanly, print the number of events it recorded, and leave files that count every
# one of them once. The files are read compressed or plain (zstdcat -f passes plain ones through).
set -euo pipefail
work=$(mktemp -d /tmp/provio-race-XXXXXX)
trap 'rm -rf "$work"' EXIT
for run in 1 2 3; do
  export PROVIO_DIR=$work/$run
  expected=$("$@")
  got=$(zstdcat -qf "$PROVIO_DIR"/*.ttl* | grep -o ':count [0-9]*' | grep -o '[0-9]*' | awk '{s+=$1} END {print s}')
  [ "$got" = "$expected" ] || { echo "run $run: $got events in the files, $expected recorded"; exit 1; }
done
echo "ok: 3 runs, every event once"
