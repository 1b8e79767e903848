#!/usr/bin/env bash
# Quick start, step 2: build mose if needed (as utils/build.sh does, without running the example)
# and run every test through ctest: the mose-gtest cases, the ns-3 TestSuite "mose" (through
# the standalone test runner build/bin/mose-ns3-test-runner), the programs on bad input, the
# examples as ./test.py runs them, mose-fabric's output, the install check (cmake --install into
# build/install-check, a script built from outside with find_package(mose) and pkg-config) and
# the release consistency check. ctest -L selects by label: gtest, examples, install, release, slurm.
#
# usage: utils/test.sh [CTEST_ARGS...]     e.g. utils/test.sh -L gtest, utils/test.sh -R Roles
# env: MOSE_BUILD_DIR (default: build), MOSE_JOBS, CTEST_PARALLEL_LEVEL (default: nproc), and
#      the other variables of utils/build.sh for the first configure.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${MOSE_BUILD_DIR:-build}

# a build folder the quick start configured before the test packages were installed (Google
# Benchmark) finds them on a new configure, which is cheap when nothing else changed
if [ -f "$build_dir/CMakeCache.txt" ] && [ "${MOSE_SKIP_DEPS:-0}" != 1 ]; then
  "$root/utils/install-deps.sh"
  cmake -S . -B "$build_dir" >/dev/null
fi
MOSE_RUN_EXAMPLE=0 "$root/utils/build.sh"

export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$(nproc)}
printf '[test] ctest --test-dir %s --output-on-failure %s\n' "$build_dir" "$*" >&2
exec ctest --test-dir "$build_dir" --output-on-failure "$@"
