#!/usr/bin/env bash
# Run inside a distribution root by scripts/distro-test.sh (scripts/roots.sh run ROOT …), with the
# source tree at /provio: the plain CMake build against the distribution's HDF5 (no HDF5 option),
# the VOL tests, and h5py's own test suite natively and under the connector, compared test by
# test. Each step prints one line "step NAME: ok|FAILED (N s)"; the exit status is the number of
# failed steps.
set -uo pipefail
build=${PROVIO_ROOT_BUILD:-/root/build}
work=${PROVIO_ROOT_WORK:-/root/work}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
  PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
werror=()
[ -n "${CI:-}" ] && werror=(-DPROVIO_WERROR=ON)
failed=0
step() {  # step NAME CMD...: runs CMD, its output in $work/NAME.log (shown when it fails)
  local name=$1 started=$SECONDS; shift
  if "$@" > "$work/$name.log" 2>&1; then
    echo "step $name: ok ($((SECONDS - started)) s)"
  else
    echo "step $name: FAILED ($((SECONDS - started)) s); the end of $work/$name.log:"
    tail -40 "$work/$name.log" | sed 's/^/    /'
    failed=$((failed + 1))
  fi
}
rm -rf "$work"; mkdir -p "$work"
echo "root ${PROVIO_ROOT:-?}: $(. /etc/os-release; echo "$PRETTY_NAME"), HDF5 $(dpkg-query -W -f='${Version}' libhdf5-dev), "\
"h5py $(dpkg-query -W -f='${Version}' python3-h5py), $(mpirun --version 2>/dev/null | head -1), $(g++ --version | head -1)"

step configure cmake -S /provio -B "$build" -G Ninja "${werror[@]}"
grep -h "provio: " "$work/configure.log" | sed 's/^-- /  /'
step build cmake --build "$build" -j 2
if [ "$failed" -gt 0 ]; then exit "$failed"; fi
step vol-tests ctest --test-dir "$build" -L vol -j 2 --output-on-failure
grep -hE "tests passed|tests failed" "$work/vol-tests.log" | sed 's/^/  /'

# Debian's h5py is its serial flavour outside MPI: the serial plugin, when there are several.
plugins=$build/plugins
[ -d "$build/plugins/serial" ] && plugins=$build/plugins/serial
step h5py-suite python3 /provio/tests/distro/h5py_suite.py --plugins "$plugins" \
  --prov-merge "$build/tools/prov-merge/prov-merge" --work "$work/h5py"
grep -h "^h5py suite\|^  " "$work/h5py-suite.log" | head -20
# Python users of the distribution's HDF5: netCDF4, h5py over MPI-IO, the DataLoader workers'
# os._exit, and the two PyTorch examples answering docs/cookbook.md's questions.
# ml.provlake asks its questions in SPARQL, whose engine (Oxigraph under node) the roots do not
# have: it runs on the host (scripts/test.sh).
step python ctest --test-dir "$build" -L python -E '^ml[.]provlake$' -j 2 --output-on-failure
grep -hE "tests passed|tests failed|\(Failed\)" "$work/python.log" | sed 's/^/  /'
exit "$failed"
