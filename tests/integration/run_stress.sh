#!/usr/bin/env bash
# Runs record_stress in a fresh directory and checks its files (see check_events.py).
#   run_stress.sh STRESS_BINARY CHECKER LEVEL FILES [--kill-after SECONDS] [-- stress args…] [-- checker args…]
set -euo pipefail
stress=$1 checker=$2 level=$3 files=$4; shift 4
kill_after=""
if [ "${1:-}" = "--kill-after" ]; then kill_after=$2; shift 2; fi
stress_args=(); checker_args=()
[ "${1:-}" = "--" ] && shift
while [ $# -gt 0 ] && [ "$1" != "--" ]; do stress_args+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
checker_args=("$@")
work=$(mktemp -d /tmp/provio-stress-XXXXXX)
trap 'rm -rf "$work"' EXIT
export PROVIO_DIR=$work/prov PROVIO_LEVEL=$level
if [ -n "$kill_after" ]; then
  "$stress" "${stress_args[@]}" --truth "$work/truth" &
  pid=$!
  sleep "$kill_after"
  kill -KILL $pid
  wait $pid 2>/dev/null || true
else
  "$stress" "${stress_args[@]}" --truth "$work/truth"
fi
/usr/bin/python3 "$checker" "$work/prov" "$work/truth" --files "$files" "${checker_args[@]}"
