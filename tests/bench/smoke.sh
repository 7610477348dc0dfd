#!/usr/bin/env bash
# Smoke test of the benchmark scripts docs/performance.md quotes: each runs once at a tiny size
# and prints the rows its figures come from. Figures are not checked (timing is the scripts' job,
# never a test's); a script that stops, or loses a kernel or a level, fails here in seconds
# instead of at the next measurement.
#   smoke.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
cd "$1"
export PROVIO_BUILD_DIR=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export TMPDIR=$scratch

fail() { echo "smoke: $*" >&2; exit 1; }

# Each of the rows (a kernel or call name, with what precedes it in a table row) must start a row
# of `out`: a Markdown table's ("| ROW |") or a plain one's ("ROW ").
expect_rows() {
  local what=$1 out=$2
  shift 2
  for row in "$@"; do
    awk -v r="$row" 'index($0, "| " r " |") == 1 || index($0, r " ") == 1 {found = 1} END {exit !found}' "$out" ||
      { cat "$out" >&2; fail "$what printed no row for $row"; }
  done
}

small_kernels=(small_write small_read small_io_write small_io_read small_mpio_write small_mpio_read)

bench/vol/run --runs 1 --ranks 1 --particles 256 --steps 1 --groups 2 --small 20 >"$scratch/vol_run.txt" ||
  fail "bench/vol/run stopped"
expect_rows "bench/vol/run" "$scratch/vol_run.txt" "1 | vpic" "1 | bdcats" "1 | metadata" \
  "${small_kernels[@]/#/1 | }"

bench/vol/paired --runs 1 --rounds 1 --ranks 2 --particles 256 --steps 1 --groups 2 --small 20 \
  --levels "off summary" --kernels "vpic bdcats metadata ${small_kernels[*]}" >"$scratch/vol_paired.txt" ||
  fail "bench/vol/paired stopped"
expect_rows "bench/vol/paired" "$scratch/vol_paired.txt" vpic bdcats metadata "${small_kernels[@]}"

bench/posix/run --runs 1 --iterations 200 >"$scratch/posix_run.txt" || fail "bench/posix/run stopped"
bench/posix/run --paired 1 --runs 1 --iterations 200 >"$scratch/posix_paired.txt" ||
  fail "bench/posix/run --paired stopped"
for out in "$scratch"/posix_*.txt; do
  expect_rows "bench/posix/run" "$out" write_1B pread_4KiB open_close stat fopen_fwrite_fclose
done
bench/sparql/run --triples 2000 --runs 1 >"$scratch/sparql.txt" || fail "bench/sparql/run stopped"
for row in "load | prov-query" "lineage7 | prov-query" "lineage7 | rdflib" "lineage7 | Rasqal" "path | prov-query" \
           "two-sums | prov-query"; do
  grep -qF "| $row" "$scratch/sparql.txt" || { cat "$scratch/sparql.txt" >&2; fail "bench/sparql/run printed no row for $row"; }
done
echo "smoke: bench/vol/run, bench/vol/paired, bench/posix/run (plain and paired), bench/sparql/run ran"
