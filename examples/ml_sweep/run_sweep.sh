#!/usr/bin/env bash
# Runs train.py under the preload shim and (with an h5ckpt helper) the VOL connector at once,
# merges the per-thread files into one graph and checks it (check_sweep.py).
#   run_sweep.sh PYTHON PYTHONPATH POSIX_SHIM PLUGIN_DIR PROV_MERGE PROV_QUERY [H5CKPT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=$1 pypath=$2 shim=$3 plugins=$4 merge=$5 query=$6 h5ckpt=${7:-}
work=$(mktemp -d /tmp/provio-sweep-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
args=(--out "$work/out" --epochs 3)
[ -n "$h5ckpt" ] && args+=(--h5ckpt "$h5ckpt")
env PROVIO_DIR="$work/prov" PYTHONPATH="$pypath" LD_PRELOAD="$shim" HDF5_PLUGIN_PATH="$plugins" \
    HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}" \
    "$python" "$here/train.py" "${args[@]}" >"$work/stdout"
grep -q "best validation accuracy" "$work/stdout"
"$merge" -q -o "$work/merged.ttl" "$work/prov"
"$python" "$here/check_sweep.py" "$work/merged.ttl" "$work/out" "$query" ${h5ckpt:+--hdf5}
