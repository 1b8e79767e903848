#!/usr/bin/env bash
# Quick start, step 1: install the Debian 12 packages it needs, build the mose library and its
# programs standalone against Debian's ns-3 in build/ (Ninja, RelWithDebInfo), then run the main
# example at the paper's scale: build/bin/mose-paper (flow-level reproduction of the paper,
# writes results/) when it exists, otherwise build/bin/mose-templates (each template at N=1024,
# d=4 and its properties). The tests and benchmarks, and the packages only they need, come with
# utils/test.sh (or MOSE_RUN_EXAMPLE=0, which builds everything).
#
# usage: utils/build.sh [ARGS...]     ARGS are passed to the example
# env:
#   MOSE_BUILD_DIR    build folder (default: build)
#   MOSE_BUILD_TYPE   CMake build type for a new build folder (default: RelWithDebInfo)
#   MOSE_JOBS         parallel build jobs (default: nproc)
#   MOSE_CMAKE_ARGS   extra arguments for the first configure, e.g. "-DMOSE_ENABLE_BENCH=OFF"
#   MOSE_RUN_EXAMPLE  0: install every package, build every target (tests and benchmarks too),
#                     run nothing (utils/test.sh uses this)
#   MOSE_INSTALL_PREFIX  if set, install there after the build (cmake --install: headers in
#                     include/ns3, libmose.so, the CMake package and mose.pc; see README.md)
#   MOSE_SKIP_DEPS    1: do not check the Debian packages
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build_dir=${MOSE_BUILD_DIR:-build}
jobs=${MOSE_JOBS:-$(nproc)}

say() { printf '[build] %s\n' "$*" >&2; }

run_example=${MOSE_RUN_EXAMPLE:-1}
if [ "${MOSE_SKIP_DEPS:-0}" != 1 ]; then
  if [ "$run_example" = 0 ]; then
    "$root/utils/install-deps.sh"
  else
    "$root/utils/install-deps.sh" --quick
  fi
fi

if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  # shellcheck disable=SC2206  # MOSE_CMAKE_ARGS is a list of words on purpose
  extra=(${MOSE_CMAKE_ARGS:-})
  say "configuring $build_dir (${MOSE_BUILD_TYPE:-RelWithDebInfo}, Ninja)"
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${MOSE_BUILD_TYPE:-RelWithDebInfo}" "${extra[@]}"
fi
if [ "$run_example" = 0 ]; then
  say "building $build_dir ($jobs jobs)"
  cmake --build "$build_dir" -j "$jobs"
else
  # the quick start: the library and the programs (the target mose-programs); the tests and
  # benchmarks are built by utils/test.sh
  say "building the library and the programs in $build_dir ($jobs jobs)"
  cmake --build "$build_dir" -j "$jobs" --target mose-programs
fi
if [ -n "${MOSE_INSTALL_PREFIX:-}" ]; then
  say "installing into $MOSE_INSTALL_PREFIX"
  cmake --install "$build_dir" --prefix "$MOSE_INSTALL_PREFIX"
fi

if [ "$run_example" = 0 ]; then
  exit 0
fi
for example in mose-paper mose-templates; do
  if [ -x "$build_dir/bin/$example" ]; then
    say "running $build_dir/bin/$example $*"
    exec "$build_dir/bin/$example" "$@"
  fi
done
say "built; no example to run yet ($build_dir/bin/mose-paper or mose-templates)"
