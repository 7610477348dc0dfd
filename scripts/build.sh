#!/usr/bin/env bash
# Sets up dependencies (scripts/setup.sh) and builds provio into ${PROVIO_BUILD_DIR:-build}.
#   scripts/build.sh [--hdf5-prefix DIR] [extra cmake -D options…]
set -euo pipefail
cd "$(dirname "$0")/.."
setup_args=()
if [ "${1:-}" = "--hdf5-prefix" ]; then setup_args=(--hdf5-prefix "$2"); shift 2; fi
hdf5_prefix=$(scripts/setup.sh "${setup_args[@]}" | tail -1)
build=${PROVIO_BUILD_DIR:-build}
werror=OFF
[ -n "${CI:-}" ] && werror=ON
cmake -S . -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$hdf5_prefix" -DPROVIO_WERROR=$werror "$@" >/dev/null
cmake --build "$build"
