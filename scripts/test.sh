#!/usr/bin/env bash
# The whole test suite: set up, build, run every ctest test.
#   scripts/test.sh            everything
#   scripts/test.sh -L unit    a subset by label (unit, integration, mpi, api-suite, tools, …)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe  # Open MPI 4 and 5
ctest --test-dir "${PROVIO_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "$@"
