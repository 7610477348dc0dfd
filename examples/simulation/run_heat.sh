#!/usr/bin/env bash
# Runs heat under the VOL connector in a fresh directory, merges, checks (check_heat.py).
#   run_heat.sh PYTHON HEAT PLUGIN_DIR PROV_MERGE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=$1 heat=$2 plugins=$3 merge=$4
work=$(mktemp -d /tmp/provio-heat-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$here/heat.cfg" "$work/"
cd "$work"
PROVIO_DIR="$work/prov" HDF5_PLUGIN_PATH="$plugins" HDF5_VOL_CONNECTOR="provio under_vol=0;under_info={}" \
  "$heat" heat.cfg >"$work/stdout"
grep -q "200 steps" "$work/stdout"
"$merge" -q -o "$work/merged.ttl" "$work/prov"
"$python" "$here/check_heat.py" "$work/merged.ttl" "$work"
