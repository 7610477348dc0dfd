#!/usr/bin/env bash
# The main job end to end on a fresh machine: set up and build, run the DASSA-style pipeline of
# seed 000 (acquire -> WestSac.h5 -> decimate -> decimate.h5 -> analyze) as unmodified MPI/HDF5
# programs under the provio VOL connector, merge the provenance, and answer
# "where did decimate.h5 come from?".
#   scripts/demo.sh            (work files go to ${PROVIO_DEMO_DIR:-build/demo})
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scripts/build.sh >/dev/null
build=$root/${PROVIO_BUILD_DIR:-build}
demo=${PROVIO_DEMO_DIR:-$build/demo}
rm -rf "$demo" && mkdir -p "$demo" && cd "$demo"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe  # Open MPI 4 and 5
export PROVIO_DIR=$demo/provio PROVIO_WORKFLOW=dassa-demo
tracked() { HDF5_PLUGIN_PATH=$build/plugins HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}" "$@"; }
step() { echo; echo "\$ $*"; }

step "mpirun -np 2 acquire WestSac.h5"
tracked mpirun -np 2 "$build/examples/dassa/acquire" WestSac.h5
step "mpirun -np 2 decimate WestSac.h5 decimate.h5"
tracked mpirun -np 2 "$build/examples/dassa/decimate" WestSac.h5 decimate.h5
step "analyze decimate.h5"
tracked "$build/examples/dassa/analyze" decimate.h5

step "prov-merge provio -o job.ttl"
"$build/tools/prov-merge/prov-merge" provio -o job.ttl
step "prov-query lineage decimate.h5 --up --depth all   # where did decimate.h5 come from?"
"$build/tools/prov-query/prov-query" lineage decimate.h5 --up --depth all job.ttl
step "prov-query stats --by api --top 5                  # where did the I/O time go?"
"$build/tools/prov-query/prov-query" stats --by api --top 5 job.ttl
echo
echo "provenance: $demo/job.ttl (per-thread files in $demo/provio)"
