#!/usr/bin/env bash
# Builds the libFuzzer target for the mose file readers (test/fuzz) with clang, AddressSanitizer
# and UndefinedBehaviorSanitizer, and runs it for a bounded time over a copy of the seed corpus.
#
#   utils/run-fuzz.sh [BUILD_DIR] [SECONDS]
#
#   BUILD_DIR  build folder, relative to the module root unless absolute (default: build-fuzz);
#              it must be new or configured by this script (the compiler is fixed at configure)
#   SECONDS    fuzzing time, passed as -max_total_time (default: 60)
#
# Environment: MOSE_FUZZ_JOBS build parallelism (default 1), MOSE_FUZZ_ARGS extra libFuzzer
# options (e.g. "-jobs=2" or "-only_ascii=1"), CC/CXX are set to clang-14/clang++-14.
#
# The corpus copy (BUILD_DIR/fuzz-corpus) grows with the inputs libFuzzer finds interesting; the
# seeds in test/fuzz/corpus stay as they are. A crashing input is saved in
# BUILD_DIR/fuzz-artifacts/. Exit status: 0 if the run ended without a finding, non-zero on a
# crash, sanitizer report, leak, timeout or build failure.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-build-fuzz}
case $build in
/*) ;;
*) build=$root/$build ;;
esac
seconds=${2:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
    echo "run-fuzz.sh: SECONDS must be a positive integer, got '$seconds'" >&2
    exit 2
fi
if [ -f "$build/CMakeCache.txt" ] && ! grep -q '^CMAKE_CXX_COMPILER:.*clang' "$build/CMakeCache.txt"; then
    echo "run-fuzz.sh: $build was configured with another compiler; give a new build folder" >&2
    exit 2
fi

CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja \
    -DMOSE_ENABLE_FUZZ=ON -DMOSE_ENABLE_BENCH=OFF -DMOSE_ENABLE_EXAMPLES=OFF
cmake --build "$build" --target mose-file-io-fuzz -j "${MOSE_FUZZ_JOBS:-1}"

fuzzer=$build/bin/mose-file-io-fuzz
corpus=$build/fuzz-corpus
artifacts=$build/fuzz-artifacts
log=$build/fuzz.log
rm -rf "$corpus"
mkdir -p "$corpus" "$artifacts"
cp "$root"/test/fuzz/corpus/* "$corpus"/

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "run-fuzz.sh: fuzzing for ${seconds} s; log in $log"
set +e
# shellcheck disable=SC2086 # MOSE_FUZZ_ARGS is a list of options
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" ${MOSE_FUZZ_ARGS:-} "$corpus" 2>&1 |
    tee "$log"
status=${PIPESTATUS[0]}
set -e

summary=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
echo "run-fuzz.sh: ${summary:-no summary line (the run did not finish normally)}"
if [ "$status" -ne 0 ]; then
    echo "run-fuzz.sh: the fuzzer found a problem (exit status $status); inputs in $artifacts/" >&2
    exit "$status"
fi
echo "run-fuzz.sh: no crash in ${seconds} s"
