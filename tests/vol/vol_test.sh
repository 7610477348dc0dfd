#!/usr/bin/env bash
# Integration tests of the provio VOL connector with real HDF5 programs. Each subcommand runs a
# program natively and under the connector and asserts that nothing observable changed and that
# provenance was written.
#   vol_test.sh api-suite  H5BIN NP CONNECTOR [REFERENCE]   HDF5's VOL API tests (NP=0: serial)
#   vol_test.sh mpi        MPIEXEC PROGRAM PYTHON H5BIN [LEVEL]   4-rank collective write/read
#   vol_test.sh repack     H5BIN SAMPLE PYTHON              h5repack native vs connector
#   vol_test.sh dump       H5BIN SAMPLE                     h5dump/h5ls output identical
#   vol_test.sh ops        SAMPLE PYTHON [LEVEL]            exact records of the hand-written callbacks,
#                                                           timed inside the run
#   vol_test.sh errors     SAMPLE HDF5_VERSION              error stacks and return values
#   vol_test.sh badinfo    SAMPLE                           malformed info strings: HDF5 errors, no crash
#   vol_test.sh noclose    SAMPLE PYTHON                    a program that never closes its file
#   vol_test.sh options    SAMPLE                           provio options in the info string configure the core
#   vol_test.sh volume     BENCH                            issue 11: summary writes less than trace
#   vol_test.sh per-file   BENCH                            provio chosen per file (H5Pset_vol), beside native files
# Environment: PROVIO_PLUGIN_DIR (the directory holding libprovio_vol.so),
# PROVIO_VOL_PRELOAD (sanitizer runtimes for a sanitizer build; serial runs only),
# OMPI_* set by the caller for mpirun as root.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/provio-vol.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "vol_test: $*" >&2; exit 1; }

# The Turtle of the raw files in directory $1, compressed (the default) or plain.
raw_text() { zstdcat -qf "$1"/*.ttl*; }
# Whether it has a line matching grep's arguments (all read: no SIGPIPE under pipefail, as -q would).
raw_grep() { raw_text "$1" | grep "${@:2}" >/dev/null; }

connector="provio under_vol=0;under_info={}"

# Runs "$@" under the connector with provenance into $work/$1-prov (first argument: a tag).
under() {
  local tag=$1; shift
  LD_PRELOAD="${PROVIO_VOL_PRELOAD:-}" \
    HDF5_PLUGIN_PATH="$PROVIO_PLUGIN_DIR" HDF5_VOL_CONNECTOR="$connector" PROVIO_DIR="$work/$tag-prov" "$@"
}

# "passed failed skipped" from an API test summary.
counts() {
  awk '/API tests passed/ {split($0, a, " "); p=a[1]; if (p=="At") p=a[3]}
       /API tests did not pass/ {split($0, a, " "); f=a[1]}
       /API tests were skipped/ {split($0, a, " "); s=a[1]}
       END {print p, f, s}' "$1"
}

cmd_api_suite() {
  local bin=$1 np=$2 ours=$3 reference=${4:-}
  local run=("$bin")
  if [ "$np" != 0 ]; then run=(mpiexec -n "$np" "$bin"); fi
  mkdir native mine
  if [ -n "$reference" ]; then
    (cd native && HDF5_PLUGIN_PATH="$PROVIO_PLUGIN_DIR" HDF5_VOL_CONNECTOR="$reference" "${run[@]}" >out.txt 2>err.txt) \
      || fail "reference run failed"
  else
    (cd native && env -u HDF5_VOL_CONNECTOR "${run[@]}" >out.txt 2>err.txt) || fail "native run failed"
  fi
  connector=$ours
  if [ "$np" != 0 ]; then
    (cd mine && HDF5_PLUGIN_PATH="$PROVIO_PLUGIN_DIR" HDF5_VOL_CONNECTOR="$ours" PROVIO_DIR="$work/mine-prov" \
       mpiexec -n "$np" -x HDF5_PLUGIN_PATH -x HDF5_VOL_CONNECTOR -x PROVIO_DIR "$bin" >out.txt 2>err.txt) \
      || { tail -n 20 mine/out.txt mine/err.txt; fail "run under the connector failed"; }
  else
    (cd mine && under mine "$bin" >out.txt 2>err.txt) || { tail -n 20 mine/out.txt mine/err.txt; fail "run under the connector failed"; }
  fi
  grep -q "with VOL connector 'provio'" mine/out.txt || fail "the suite did not run with the provio connector"
  local n m
  n=$(counts native/out.txt); m=$(counts mine/out.txt)
  echo "reference: passed/failed/skipped = $n"
  echo "provio:    passed/failed/skipped = $m"
  [ -n "$n" ] && [ "$n" = "$m" ] || fail "counts differ: reference '$n', provio '$m'"
  # Same verdict for every single test, not just the same totals.
  diff <(grep -E 'PASSED|SKIPPED|FAILED' native/out.txt | sed 's/ \+/ /g' | sort) \
       <(grep -E 'PASSED|SKIPPED|FAILED' mine/out.txt | sed 's/ \+/ /g' | sort) >verdicts.diff \
    || { head -20 verdicts.diff; fail "per-test verdicts differ"; }
  # Serially the whole output is the reference's, but for the lines naming the connector: the
  # connector prints nothing on stdout.
  if [ "$np" = 0 ]; then
    diff <(grep -v "VOL connector\|Test seed" native/out.txt) <(grep -v "VOL connector\|Test seed" mine/out.txt) \
      >output.diff || { head -20 output.diff; fail "output differs from the reference run"; }
  fi
  local files
  files=$(ls mine-prov/*.ttl* 2>/dev/null | wc -l)
  [ "$np" = 0 ] && [ "$files" -lt 1 ] && fail "no provenance files written"
  [ "$np" != 0 ] && [ "$files" -lt "$np" ] && fail "$files provenance files for $np ranks"
  for f in mine-prov/*.ttl*; do
    zstdcat -qf "$f" | rapper -q -i turtle -c - "file://$work/$f" >/dev/null 2>&1 || fail "$f does not parse"
  done
  raw_grep mine-prov -e '"H5Dwrite"' -e '/H5Dwrite-' || fail "no H5Dwrite recorded"
  raw_grep mine-prov -e '"H5Fcreate"' -e '/H5Fcreate-' || fail "no H5Fcreate recorded"
  echo "ok: $files provenance files"
}

cmd_mpi() {
  local mpiexec=$1 prog=$2 python=$3 bin=$4 level=${5:-summary}
  HDF5_PLUGIN_PATH="$PROVIO_PLUGIN_DIR" HDF5_VOL_CONNECTOR="$connector" PROVIO_DIR="$work/prov" PROVIO_LEVEL=$level \
    "$mpiexec" -n 4 -x HDF5_PLUGIN_PATH -x HDF5_VOL_CONNECTOR -x PROVIO_DIR -x PROVIO_LEVEL "$prog" "$work/mpi.h5" 96 \
    || fail "vol_mpi_rw failed"
  local files
  files=$(ls prov/*.ttl* | wc -l)
  [ "$files" -ge 4 ] || fail "$files provenance files for 4 ranks"
  "$python" "$here/prov_check.py" mpi prov "file://$(realpath "$work/mpi.h5")#/sim/fields/density" 96 4
  # Provenance never goes into the user's file: exactly the program's objects.
  "$bin/h5ls" -r "$work/mpi.h5" | awk '{print $1}' >ls.txt
  diff ls.txt <(printf '/\n/sim\n/sim/fields\n/sim/fields/density\n') || fail "unexpected objects in the user file"
}

cmd_repack() {
  local bin=$1 sample=$2 python=$3
  "$sample" rich in.h5
  "$bin/h5repack" in.h5 native.h5 || fail "native h5repack failed"
  under repack "$bin/h5repack" in.h5 mine.h5 || fail "h5repack under the connector failed"
  "$bin/h5diff" native.h5 mine.h5 || fail "h5diff: repacked files differ"
  "$bin/h5diff" in.h5 mine.h5 || fail "h5diff: repacked file differs from the input"
  # Same objects, layouts and filters: h5dump -p -H of both outputs, file names aside.
  diff <("$bin/h5dump" -p -H native.h5 | sed 1d) <("$bin/h5dump" -p -H mine.h5 | sed 1d) || fail "layouts differ"
  "$python" "$here/prov_check.py" repack repack-prov in.h5 mine.h5
  # A filter change through the connector too.
  under repack2 "$bin/h5repack" -f GZIP=1 in.h5 mine-gz.h5 || fail "h5repack -f GZIP=1 under the connector failed"
  "$bin/h5repack" -f GZIP=1 in.h5 native-gz.h5
  "$bin/h5diff" native-gz.h5 mine-gz.h5 || fail "h5diff: GZIP repacks differ"
}

cmd_dump() {
  local bin=$1 sample=$2
  "$sample" rich in.h5
  cp in.h5 before.h5
  for tool in "h5dump" "h5dump -p -A" "h5dump -d /grid/level1/temperature -s 2,3 -c 4,5" "h5ls -r -v" "h5stat"; do
    read -r -a argv <<<"$tool"
    "$bin/${argv[0]}" "${argv[@]:1}" in.h5 >native.txt 2>&1 || true
    under dump "$bin/${argv[0]}" "${argv[@]:1}" in.h5 >mine.txt 2>&1 || true
    cmp -s native.txt mine.txt || { diff native.txt mine.txt | head -20; fail "$tool output differs"; }
    echo "identical: $tool ($(wc -l <native.txt) lines)"
  done
  cmp -s before.h5 in.h5 || fail "reading under the connector changed the file"
  # The bare connector name (no info string) means native below.
  connector=provio under bare "$bin/h5dump" in.h5 >bare.txt 2>&1 || fail "h5dump under bare 'provio' failed"
  "$bin/h5dump" in.h5 >native.txt 2>&1
  cmp -s native.txt bare.txt || fail "h5dump output differs under bare 'provio'"
  raw_grep bare-prov -e '"H5Fopen"' -e '/H5Fopen-' || fail "no H5Fopen recorded under bare 'provio'"
  raw_grep dump-prov -e '"H5Dread"' -e '/H5Dread-' || fail "no H5Dread recorded for h5dump"
  # h5copy through the connector.
  under copy "$bin/h5copy" -i in.h5 -o copy.h5 -s /grid -d /grid || fail "h5copy failed"
  "$bin/h5diff" in.h5 copy.h5 /grid /grid || fail "h5copy output differs"
  raw_grep copy-prov -e '"H5Ocopy"' -e '/H5Ocopy-' || fail "no H5Ocopy recorded for h5copy"
  # h5diff: same verdicts and output, natively and under the connector, for equal and unequal files.
  local rn rm
  for pair in "in.h5 copy.h5 /grid /grid" "in.h5 before.h5" "in.h5 copy.h5 /grid/counts /grid/level1/temperature"; do
    read -r -a argv <<<"$pair"
    rn=0; rm=0
    "$bin/h5diff" -c "${argv[@]}" >native.txt 2>&1 || rn=$?
    under diff "$bin/h5diff" -c "${argv[@]}" >mine.txt 2>&1 || rm=$?
    [ "$rn" = "$rm" ] && cmp -s native.txt mine.txt || { diff native.txt mine.txt | head; fail "h5diff $pair: $rn vs $rm"; }
  done
  raw_grep diff-prov -e '"H5Dread"' -e '/H5Dread-' || fail "no H5Dread recorded for h5diff"
}

cmd_ops() {
  local sample=$1 python=$2 level=${3:-summary}
  "$sample" ops native.h5 || fail "vol_sample ops failed natively"
  local before after
  before=$(date +%s%N)
  PROVIO_LEVEL=$level under ops "$sample" ops mine.h5 || fail "vol_sample ops failed under the connector"
  after=$(date +%s%N)
  "$python" "$here/prov_check.py" ops ops-prov mine.h5
  "$python" "$here/prov_check.py" times ops-prov "$before" "$after"
}

cmd_errors() {
  local sample=$1 hdf5_version=$2
  "$sample" errors native.h5 >native.txt
  under errors "$sample" errors mine.h5 >mine.txt
  # Every frame the native connector reports must be reported under ours, in order (a
  # passthrough adds the frames of the H5VL calls it makes between, nothing else); extra.txt gets
  # the frames ours adds.
  awk 'NR==FNR {a[++n]=$0; next} {if (i < n && $0 == a[i+1]) i++; else print}
       END {if (i < n) {print "LOST"; exit 1}}' native.txt mine.txt >extra.txt ||
    { diff native.txt mine.txt | head -30; fail "error stacks lost native frames"; }
  # Which frames ours may add. Opening a file goes through H5VLfile_open, which can fall back to
  # other connectors, and adds its frames. With HDF5 1.14, calls on the native connector's objects
  # go straight to its class (native_calls.h): their failures read exactly as natively. With 2.x
  # they go through HDF5's own H5VL<op>() (native_calls.cc says why), which adds its two frames on
  # a failure, "H5VL<op>: unable to …" and the "H5VL__<op>: … failed" below it (H5VLcallback.c),
  # as every passthrough connector over 2.x does: HDF5's frames, not provio's.
  local allowed='^  H5VL(__)?file_(open|create): '
  [ "${hdf5_version%%.*}" -ge 2 ] && allowed='^  H5VL(__)?[a-z]+_[a-z_]+: '
  if grep -vE "$allowed" extra.txt; then
    diff native.txt mine.txt | head -30
    fail "error stacks differ from native beyond the frames of HDF5 $hdf5_version's H5VL calls (above)"
  fi
  diff <(grep -- '->' native.txt) <(grep -- '->' mine.txt) || fail "return values differ"
  echo "error stacks and return values preserved ($(wc -l <native.txt) native lines)"
}

cmd_badinfo() {
  local sample=$1 rc
  for bad in "under_vol=0;under_info={" "under_vol=0;under_vol=0" "under_vol=421;under_info={}" \
             "under_vol=9999;under_info={}" "under_vol=0;under_info={}};x" "under_vol=a b"; do
    rc=0
    connector="provio $bad" under bad "$sample" rich bad.h5 >out.txt 2>err.txt || rc=$?
    # HDF5 reports the failed default connector and (its own choice) carries on natively.
    [ "$rc" -lt 128 ] || fail "'$bad': killed by signal $((rc - 128))"
    grep -q "provio: " err.txt || { cat err.txt; fail "'$bad': no provio message on the HDF5 error stack"; }
    echo "rejected '$bad': $(grep -m1 -o 'provio: .*' err.txt)"
  done
}

cmd_noclose() {
  local sample=$1 python=$2
  under noclose "$sample" noclose left.h5 || fail "program failed under the connector"
  "$python" "$here/prov_check.py" has noclose-prov H5Fcreate H5Dcreate H5Dwrite H5Fclose H5Dclose
  "$python" "$here/prov_check.py" wrote noclose-prov "file://$work/left.h5#/left_open" 2048
  "$python" "$here/prov_check.py" wrote noclose-prov "file://$work/left.h5.early#/still_open" 32
  # The data of both files is there, natively readable.
  h5dump -d /left_open left.h5 | grep -q "3, 3, 3" || fail "left.h5 lost its data"
  h5dump -d /still_open left.h5.early | grep -q "5, 5, 5" || fail "left.h5.early lost its data"
}

cmd_options() {
  local sample=$1
  # level and dir from the info string win over the environment (PROVIO_DIR points elsewhere).
  connector="provio under_vol=0;under_info={};level=trace;dir=$work/from-info" \
    under options "$sample" rich opt.h5 2>err.txt || { cat err.txt; fail "program failed with options"; }
  [ ! -e options-prov ] || fail "PROVIO_DIR was used although the info string named a directory"
  ls from-info/*.ttl* >/dev/null 2>&1 || fail "no provenance in the directory named by dir="
  # trace level: one activity per call (…/c<n>), no summary parts
  raw_grep from-info '^t:0\\/c1 ' || fail "level=trace not applied: no per-call activity"
  ! raw_grep from-info 'provio:partial' || fail "level=trace not applied: summary parts written"
  # a bad option value is named once on stderr and the default kept
  connector="provio under_vol=0;under_info={};level=loud" under badopt "$sample" rich bad.h5 2>err.txt \
    || fail "a bad option value must not fail the program"
  grep -q "VOL connector option LEVEL='loud'" err.txt || { cat err.txt; fail "bad option value not reported"; }
  raw_grep badopt-prov -E '^@prefix a[0-9]+: <.*/thread/0/[A-Za-z0-9_]+-[A-Z][a-z]+-e>' ||
    fail "default (summary) level not kept after a bad value"
  echo "options applied: level=trace and dir= from the info string; a bad value is reported"
}

# Issue 11: a metadata-heavy program (vol_bench's metadata kernel: 50 groups x 10 datasets x 2
# attributes, written and read back; ~7,000 distinct activities, more than the default summary
# table held) wrote more provenance at summary level than at trace level (14.0 MB vs 11.2 MB),
# because a full table was flushed and every activity described again. Summary aggregates:
# it must never write more than trace.
cmd_volume() {
  local bench=$1
  mkdir data
  for level in summary trace; do
    PROVIO_LEVEL=$level under "$level" "$bench" data 1024 1 50 10 2 10 metadata >/dev/null || fail "$level run failed"
  done
  local summary trace
  summary=$(raw_text summary-prov | wc -c)
  trace=$(raw_text trace-prov | wc -c)
  [ "$summary" -le "$trace" ] || fail "summary level wrote $summary bytes, trace level $trace"
  echo "summary $summary bytes <= trace $trace bytes"
}

# Bytes a summary-level raw file spends per HDF5 dataset with two attributes, created, written,
# reopened and read back (vol_bench's metadata kernel), plain Turtle: what each statement costs
# besides its timings. Runs of 5 and 10 groups of 40 datasets: their difference over the 200
# datasets more cancels the header, and with the timing pairs (:elapsed, :start, :span) left out
# and every run of digits counted as one byte, the figure is the same on every run and machine
# (docs/performance.md, "Bytes per dataset"): 632 today, 2,159 before the compact form.
cmd_bytes() {
  local bench=$1 bound=$2 g sizes=()
  mkdir data
  for g in 5 10; do
    PROVIO_COMPRESS=none under "bytes$g" "$bench" data 0 0 "$g" 40 2 0 metadata >/dev/null || fail "run of $g groups failed"
    sizes+=("$(raw_text "bytes$g-prov" | sed -E 's/ ; :(elapsed|start|span) [-0-9.]+//g; s/[0-9]+/N/g' | wc -c)")
  done
  local per=$(((sizes[1] - sizes[0]) / 200))
  [ "$per" -le "$bound" ] || fail "$per bytes per dataset (timings aside), above the bound of $bound"
  echo "$per bytes per dataset (timings aside) <= $bound"
}

# A program that opens some files through provio with H5Pset_vol and others natively, in one
# process (no HDF5_VOL_CONNECTOR), as bench/vol/paired's runs do: vol_bench's metadata kernel,
# 2 rounds through each layer (2 groups x 3 datasets each). Only provio's rounds are recorded, and
# each of them whole: 12 dataset creations.
cmd_per_file() {
  local bench=$1 creates
  mkdir data
  LD_PRELOAD="${PROVIO_VOL_PRELOAD:-}" HDF5_PLUGIN_PATH="$PROVIO_PLUGIN_DIR" PROVIO_DIR="$work/prov" \
    env -u HDF5_VOL_CONNECTOR "$bench" data 1 1 2 3 2 10 metadata 2 "$connector" >out.txt || fail "paired run failed"
  [ "$(grep -c '^metadata provio ' out.txt)" = 2 ] && [ "$(grep -c '^metadata native ' out.txt)" = 2 ] ||
    { cat out.txt; fail "not every round ran"; }
  # each file names H5Dcreate's summary activities with its own prefix (docs/format.md)
  creates=$(raw_text prov | awk '/^@prefix rdf:/ {p = ""}
    /^@prefix a[0-9]+: <.*\/H5Dcreate-Create-e> \.$/ {p = $2; next}
    p != "" && index($0, p) == 1 && match($0, /:count [0-9]+/) {s += substr($0, RSTART + 7, RLENGTH - 7)}
    END {print s + 0}')
  [ "$creates" = 12 ] || fail "$creates dataset creations recorded, 12 made through provio"
  echo "per-file connector: provio's 12 dataset creations recorded, the native files' none"
}

cmd=$1; shift
case "$cmd" in
  api-suite) cmd_api_suite "$@" ;;
  mpi) cmd_mpi "$@" ;;
  repack) cmd_repack "$@" ;;
  dump) cmd_dump "$@" ;;
  ops) cmd_ops "$@" ;;
  errors) cmd_errors "$@" ;;
  badinfo) cmd_badinfo "$@" ;;
  noclose) cmd_noclose "$@" ;;
  options) cmd_options "$@" ;;
  volume) cmd_volume "$@" ;;
  per-file) cmd_per_file "$@" ;;
  bytes) cmd_bytes "$@" ;;
  *) fail "unknown subcommand $cmd" ;;
esac
