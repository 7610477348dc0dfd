#!/usr/bin/env bash
# Runs the three phases of lifecycle.py as three programs under the preload library and the VOL
# connector at once, then merges their provenance into WORK/merged.ttl.
#   run_lifecycle.sh WORK PYTHON PYTHONPATH POSIX_SHIM PLUGIN_DIR PROV_MERGE H5IO
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$1 python=$2 pypath=$3 shim=$4 plugins=$5 merge=$6 h5io=$7
mkdir -p "$work"
cd "$work"
for phase in curate prepare learn; do
  env PROVIO_DIR="$work/prov" PYTHONPATH="$pypath" LD_PRELOAD="$shim" HDF5_PLUGIN_PATH="$plugins" \
      HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}" \
      "$python" "$here/lifecycle.py" "$phase" --out "$work/data" --h5io "$h5io" >>"$work/stdout"
done
"$merge" -q -o "$work/merged.ttl" "$work/prov"
