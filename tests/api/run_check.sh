#!/usr/bin/env bash
# Runs a program in a fresh directory with PROVIO_DIR inside it, then a checker on the output.
#   run_check.sh PYTHON CHECKER [checker args…] -- PROGRAM [program args…]
# The token @WORK@ in any argument becomes the fresh directory (the program's scratch space).
set -euo pipefail
python=$1 checker=$2; shift 2
checker_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do checker_args+=("$1"); shift; done
shift
work=$(mktemp -d /tmp/provio-api-XXXXXX)
trap 'rm -rf "$work"' EXIT
export PROVIO_DIR=$work/prov
program=()
for a in "$@"; do program+=("${a//@WORK@/$work}"); done
"${program[@]}" >"$work/stdout"
if [ -s "$work/stdout" ] && [ "${PROVIO_CHECK_STDOUT:-}" = "empty" ]; then
  echo "run_check: the program wrote to stdout" >&2; exit 1
fi
for i in "${!checker_args[@]}"; do checker_args[$i]=${checker_args[$i]//@WORK@/$work}; done
"$python" "$checker" "$work/prov" "${checker_args[@]}"
