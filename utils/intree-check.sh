#!/usr/bin/env bash
# Build mose inside a real ns-3 source tree with ns-3's own build and run ./test.py -s mose.
# A thin wrapper over the project's shared script (../shared/scripts/ns3-intree-check.sh beside
# this repository, or $MOSE_SHARED/scripts/ns3-intree-check.sh); it checks this checkout.
#
# usage: utils/intree-check.sh [--ns3-src DIR] [SUITE]
#   without --ns3-src: Debian's ns-3.37, downloaded and built once into /var/cache/mose-ns3
#   --ns3-src DIR:     any ns-3 source tree, e.g. the ns-3.48 tag of nsnam's ns-3-dev
# Then it runs the in-tree build of mose-gtest (MOSE_INTREE_GTEST=0 skips that).
# env: NS3_JOBS (parallel jobs, default nproc), MOSE_NS3_CACHE (see the shared script)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=${MOSE_SHARED:-$root/../shared}
script=$shared/scripts/ns3-intree-check.sh
if [ ! -f "$script" ]; then
  echo "[intree-check] $script not found: set MOSE_SHARED to the folder holding scripts/" >&2
  exit 2
fi

args=()
tree=""
if [ "${1:-}" = "--ns3-src" ]; then
  [ $# -ge 2 ] || { echo "[intree-check] --ns3-src needs a folder" >&2; exit 2; }
  tree=$(cd "$2" && pwd)
  args+=(--ns3-src "$tree")
  shift 2
fi
# ns-3's CMake adds -fdiagnostics-color=always to every compile line when CLICOLOR is set, and
# ./ns3 sets it (3.37 always, later releases when unset). The shared script configures through
# ./ns3 but rebuilds through cmake --build, whose automatic re-run of CMake (every run: the module
# is copied afresh) would otherwise drop the flag and recompile all of ns-3 (12 min on 2 cores
# instead of 1-2). Keep the two consistent.
export CLICOLOR=1
bash "$script" "${args[@]}" "$root" "$@"

# The shared script runs the ns-3 suite only; mose-gtest was built by the same ns-3 build (when
# GoogleTest is installed): run it too, against the in-tree libraries.
if [ "${MOSE_INTREE_GTEST:-1}" = 1 ]; then
  if [ -z "$tree" ]; then
    cache=${MOSE_NS3_CACHE:-/var/cache/mose-ns3}/3.37
    driver=$(find "$cache" -maxdepth 3 -name ns3 -type f -perm -u+x -path "*ns-3.37*" 2>/dev/null | head -n 1 || true)
    tree=${driver%/ns3}
  fi
  gtest=$tree/build/mose-gtest
  if [ -n "$tree" ] && [ -x "$gtest" ]; then
    echo "[intree-check] running $gtest" >&2
    "$gtest" --gtest_brief=1
    echo "[intree-check] in-tree mose-gtest passed" >&2
  else
    echo "[intree-check] no in-tree mose-gtest (GoogleTest not installed?)" >&2
  fi
fi
