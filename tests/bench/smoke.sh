#!/usr/bin/env bash
# Smoke test of the benchmarks docs/performance.md quotes, each through bench/run once at a tiny
# size: it must print the rows its figures come from. Figures are not checked (timing is the scripts' job,
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

bench/run vol --runs 1 --ranks 1 --particles 256 --steps 1 --groups 2 --small 20 >"$scratch/vol_run.txt" ||
  fail "bench/run vol stopped"
expect_rows "bench/run vol" "$scratch/vol_run.txt" "1 | vpic" "1 | bdcats" "1 | metadata" \
  "${small_kernels[@]/#/1 | }"

bench/run vol/paired --runs 1 --rounds 1 --ranks 2 --particles 256 --steps 1 --groups 2 --small 20 \
  --levels "off summary" --kernels "vpic bdcats metadata ${small_kernels[*]}" >"$scratch/vol_paired.txt" ||
  fail "bench/run vol/paired stopped"
expect_rows "bench/run vol/paired" "$scratch/vol_paired.txt" vpic bdcats metadata "${small_kernels[@]}"

bench/run vol/compress --pairs 1 --groups 2 --dsets 2 >"$scratch/vol_compress.txt" || fail "bench/run vol/compress stopped"
expect_rows "bench/run vol/compress" "$scratch/vol_compress.txt" summary trace
bench/run posix --runs 1 --iterations 200 >"$scratch/posix_run.txt" || fail "bench/run posix stopped"
bench/run posix --paired 1 --runs 1 --iterations 200 >"$scratch/posix_paired.txt" ||
  fail "bench/run posix --paired stopped"
for out in "$scratch"/posix_*.txt; do
  expect_rows "bench/run posix" "$out" write_1B pread_4KiB open_close stat fopen_fwrite_fclose
done
bench/run sparql --triples 2000 --runs 1 >"$scratch/sparql.txt" || fail "bench/run sparql stopped"
for row in "load | prov-query" "lineage7 | prov-query" "lineage7 | rdflib" "lineage7 | Rasqal" "path | prov-query" \
           "two-sums | prov-query"; do
  grep -qF "| $row" "$scratch/sparql.txt" || { cat "$scratch/sparql.txt" >&2; fail "bench/run sparql printed no row for $row"; }
done
bench/run merge --triples 3000 --files 1,16 --runs 1 >"$scratch/merge.txt" || fail "bench/run merge stopped"
expect_rows "bench/run merge" "$scratch/merge.txt" 1 16
bench/run query --triples 5000 --runs 1 --raw >"$scratch/query.txt" || fail "bench/run query stopped"
expect_rows "bench/run query" "$scratch/query.txt" "lineage --depth 10, store" "stats --by file, store, later queries" \
  "lineage --depth 10, 16-file directory"
bench/run campaign --datasets 8 --attributes 3 --ranks 2 >"$scratch/campaign.txt" || fail "bench/run campaign stopped"
campaign_sources=("merged file" "lines store")
grep -q "no redland store" "$scratch/campaign.txt" || campaign_sources+=("redland store")
campaign_rows=()
for source in "${campaign_sources[@]}"; do
  for q in stats files "objects FILE" "lineage FILE"; do campaign_rows+=("8 | prov-query $q ($source)"); done
done
expect_rows "bench/run campaign" "$scratch/campaign.txt" "${campaign_rows[@]}"
grep -q '\*\*no\*\*' "$scratch/campaign.txt" && { cat "$scratch/campaign.txt" >&2; fail "a store answered otherwise"; }
bench/run ml --sweep-runs 10 --epochs 2 --batches 2 --runs 1 >"$scratch/ml.txt" || fail "bench/run ml stopped"
expect_rows "bench/run ml" "$scratch/ml.txt" "best --metric accuracy -k 10" checkpoints
bench/run posix/clock 1000 >"$scratch/clock.txt" || fail "bench/run posix/clock stopped"
expect_rows "bench/run posix/clock" "$scratch/clock.txt" clock_gettime_monotonic
bench/run --list >"$scratch/list.txt" || fail "bench/run --list stopped"
grep -q '^vol/paired ' "$scratch/list.txt" || fail "bench/run --list lacks vol/paired"
echo "smoke: bench/run vol, vol/paired, vol/compress, posix (plain and paired), posix/clock, sparql, merge, query, ml ran"
