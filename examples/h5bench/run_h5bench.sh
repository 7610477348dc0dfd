#!/usr/bin/env bash
# The h5bench-style example end to end, as a user runs it: two prov-run lines (VPIC-like write,
# BD-CATS-like read, 2 ranks each), then prov-query with no input in the same directory, checked by
# check_h5bench.py against what the programs did.
#   run_h5bench.sh PYTHON PROV_RUN PROV_QUERY VPIC_WRITE BDCATS_READ
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=$1 prov_run=$2 prov_query=$3 vpic=$4 bdcats=$5
work=$(mktemp -d /tmp/provio-h5bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
particles=4096 steps=2
"$prov_run" -q -w h5bench -- mpirun -np 2 "$vpic" particles.h5 $particles $steps
"$prov_run" -q -w h5bench -- mpirun -np 2 "$bdcats" particles.h5 $particles $steps
for by in object rank program; do "$prov_query" stats --by $by -f csv >"by_$by.csv"; done
"$prov_query" lineage particles.h5 --up -f csv >up.csv
"$prov_query" lineage particles.h5 --down -f csv >down.csv
"$python" "$here/check_h5bench.py" "$work" $particles $steps
