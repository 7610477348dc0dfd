#!/usr/bin/env bash
# Sets up dependencies (scripts/setup.sh) and builds provio into ${PROVIO_BUILD_DIR:-build}.
#   scripts/build.sh [--hdf5-prefix DIR] [extra cmake -D options…]
set -euo pipefail
cd "$(dirname "$0")/.."
setup_args=()
if [ "${1:-}" = "--hdf5-prefix" ]; then setup_args=(--hdf5-prefix "$2"); shift 2; fi
hdf5_prefix=$(scripts/setup.sh "${setup_args[@]}" | tail -1)
build=${PROVIO_BUILD_DIR:-build}
# CI builds with warnings as errors; elsewhere a build keeps what it was configured with (a new
# one starts without), so that scripts/test.sh does not reconfigure and rebuild a -Werror build.
werror=()
[ -n "${CI:-}" ] && werror=(-DPROVIO_WERROR=ON)
cmake -S . -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$hdf5_prefix" "${werror[@]}" "$@" >/dev/null
cmake --build "$build"
