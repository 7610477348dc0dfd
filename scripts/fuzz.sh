#!/usr/bin/env bash
# Short, bounded fuzzing runs (docs/security.md): builds the libFuzzer targets of tests/fuzz with
# clang, AddressSanitizer and UndefinedBehaviorSanitizer into ${PROVIO_FUZZ_BUILD_DIR:-build-fuzz},
# then runs each for PROVIO_FUZZ_SECONDS (default 20) from its seed corpus. The corpus in the
# repository is only read: new inputs go to a scratch copy. A finding stops the run with the
# failing input saved in the build directory; add it to tests/fuzz/corpus/<target>/ (the replay
# tests then keep it fixed) after fixing the bug.
#   scripts/fuzz.sh [target...]      (line_parser zstd_frames config vol_info escape)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PROVIO_FUZZ_BUILD_DIR:-build-fuzz}
seconds=${PROVIO_FUZZ_SECONDS:-20}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(line_parser zstd_frames config vol_info escape)
hdf5_prefix=$(scripts/setup.sh | tail -1)
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$hdf5_prefix" -DPROVIO_WERROR=ON \
  -DPROVIO_SANITIZE=address,undefined -DPROVIO_FUZZ=ON >/dev/null
cmake --build "$build" --target "${targets[@]/#/fuzz_}"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# scripts/lsan.supp: third-party leaks, each with its cause.
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp
for t in "${targets[@]}"; do
  work="$build/fuzz-work/$t"
  rm -rf "$work" && mkdir -p "$work/corpus" "$work/findings"
  echo "fuzz: $t for ${seconds}s" >&2
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/findings/" "$work/corpus" "tests/fuzz/corpus/$t" 2>"$work/log" || {
    tail -40 "$work/log" >&2
    echo "fuzz: $t found a failing input in $work/findings/; fix it, then add it to tests/fuzz/corpus/$t/" >&2
    exit 1
  }
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$work/log" | sed "s/^/fuzz: $t: /" >&2
done
