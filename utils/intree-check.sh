#!/usr/bin/env bash
# Build mose inside a real ns-3 source tree with ns-3's own build and run ./test.py -s mose.
# A thin wrapper over the project's shared script (../shared/scripts/ns3-intree-check.sh beside
# this repository, or $MOSE_SHARED/scripts/ns3-intree-check.sh); it checks this checkout.
#
# usage: utils/intree-check.sh [--no-mpi | --ns3-src DIR] [SUITE]
#   by default:     Debian's ns-3.37 source, configured with --enable-mpi (Debian's Open MPI)
#                   and built once into /var/cache/mose-ns3/3.37-mpi (about 35 min on 2 cores,
#                   a few minutes later); the suite mose then includes the distributed runs
#                   (test/mose-mpi-test-cases.cc: mpirun -np 2), and utils/mpi-check.sh compares
#                   1 and 2 ranks of test/mose-mpi-check on five cases
#   --no-mpi:       Debian's ns-3.37 without MPI, as the shared script builds it into
#                   /var/cache/mose-ns3/3.37
#   --ns3-src DIR:  any ns-3 source tree, e.g. the ns-3.48 tag of nsnam's ns-3-dev, configured
#                   by the shared script (no MPI)
# Then it lists the GoogleTest suites that the suite mose ran (MOSE_INTREE_GTEST=0 skips that).
# env: NS3_JOBS (parallel jobs, default nproc), MOSE_NS3_CACHE (see the shared script),
#      MOSE_INTREE_BUILD_LIMIT (seconds; with the MPI tree or --ns3-src only): bounds a tree's
#      first build (about 35 min on 2 cores). When it runs out, the build stops where it is, the
#      script says so and exits 3 without testing; the next run resumes the build (ninja keeps
#      what it built, ccache what it compiled). .ci/run sets it so that a machine with cold caches
#      does not run the CI past its time limit.
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
mpi=1
if [ "${1:-}" = "--ns3-src" ]; then
  [ $# -ge 2 ] || { echo "[intree-check] --ns3-src needs a folder" >&2; exit 2; }
  tree=$(cd "$2" && pwd)
  args+=(--ns3-src "$tree")
  mpi=0
  shift 2
elif [ "${1:-}" = "--no-mpi" ]; then
  mpi=0
  shift
fi
cache_root=${MOSE_NS3_CACHE:-/var/cache/mose-ns3}
# Without --ns3-src the shared script fetches Debian's ns-3.37 source into its cache on first use.
# Its lookup of the archive's address also reads /etc/apt/sources.list and, under pipefail, gives
# up silently when that file does not exist (machines with only deb822 .sources files). Fetch the
# source here first in that case, into the same place, so the shared script finds it cached.
fetch_ns337() {
  local cache=${MOSE_NS3_CACHE:-/var/cache/mose-ns3}/3.37 uri
  if find "$cache" -maxdepth 3 -name ns3 -type f -perm -u+x -path "*ns-3.37*" 2>/dev/null | grep -q .; then
    return 0
  fi
  uri=$(awk 'BEGIN { RS = ""; FS = "\n" }
             /(^|\n)Suites:([^\n]* )?bookworm( |\n|$)/ && /(^|\n)Types:[^\n]*deb/ {
               for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { sub(/^URIs: */, "", $i); split($i, u, " "); print u[1] } }' \
          /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1 || true)
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm .*/\2/p' /etc/apt/sources.list | head -n 1 || true)
  fi
  [ -n "$uri" ] || return 0 # let the shared script report it
  echo "[intree-check] fetching the ns-3.37 source from $uri (deb-src) into $cache" >&2
  mkdir -p "$cache/apt-lists/partial"
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri bookworm main" >"$cache/src.list"
  local opts=(-o "Dir::Etc::SourceList=$cache/src.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$cache/apt-lists")
  apt-get "${opts[@]}" update -qq
  (cd "$cache" && apt-get "${opts[@]}" source --download-only -qq ns3 2>/dev/null)
  tar -C "$cache" -xf "$cache"/ns3_3.37.orig.tar.bz2
}
if [ ${#args[@]} -eq 0 ]; then
  fetch_ns337
fi

# This checkout's files (tracked and new, not ignored) into the tree's contrib/mose, afresh, as the
# shared script copies them
copy_module() {
  rm -rf "$tree/contrib/mose"
  mkdir -p "$tree/contrib/mose" "$tree/cmake-cache-logs"
  (cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$tree/contrib/mose")
}

# The MPI tree: Debian's ns-3.37 source extracted beside the plain one and configured by hand
# with --enable-mpi (the shared script's configure has no MPI); the shared script then finds it
# configured (cmake-cache/configured.ok, its modules among NS3_ENABLED_MODULES) and builds and
# tests it as any tree given with --ns3-src.
prepare_mpi_tree() {
  local tarball=$cache_root/3.37/ns3_3.37.orig.tar.bz2 mpi_cache=$cache_root/3.37-mpi
  tree=$mpi_cache/ns-allinone-3.37/ns-3.37
  local say_mpi="[intree-check] MPI tree $tree"
  for p in libopenmpi-dev openmpi-bin; do
    dpkg -s "$p" >/dev/null 2>&1 || { echo "$say_mpi: $p is not installed (utils/install-deps.sh)" >&2; exit 1; }
  done
  if [ ! -x "$tree/ns3" ]; then
    [ -f "$tarball" ] || { echo "$say_mpi: no $tarball to extract it from" >&2; exit 1; }
    echo "$say_mpi: extracting $tarball" >&2
    mkdir -p "$mpi_cache"
    tar -C "$mpi_cache" -xf "$tarball"
  fi
  if [ ! -f "$tree/cmake-cache/configured.ok" ] ||
     ! grep -q '^NS3_MPI:BOOL=ON' "$tree/cmake-cache/CMakeCache.txt" 2>/dev/null; then
    echo "$say_mpi: configuring with --enable-mpi (the first build takes about 35 min on 2 cores)" >&2
    rm -f "$tree/cmake-cache/configured.ok" "$tree/cmake-cache/mose-tree-built.ok"
    copy_module
    (cd "$tree" && ./ns3 configure --enable-mpi --enable-modules="mose;csma;mpi" --enable-tests \
        --enable-examples --enable-asserts --enable-logs >"$tree/cmake-cache-logs/configure-mpi.log" 2>&1) ||
      { tail -n 40 "$tree/cmake-cache-logs/configure-mpi.log"; echo "$say_mpi: configure failed" >&2; exit 1; }
    touch "$tree/cmake-cache/configured.ok"
  fi
  args+=(--ns3-src "$tree")
}
if [ "$mpi" -eq 1 ]; then
  prepare_mpi_tree
fi

build_limit=${MOSE_INTREE_BUILD_LIMIT:-}
if [ -n "$build_limit" ]; then
  if ! [[ $build_limit =~ ^[1-9][0-9]{0,6}$ ]]; then
    echo "[intree-check] MOSE_INTREE_BUILD_LIMIT=$build_limit: a whole number of seconds from 1 to 9999999 is allowed" >&2
    exit 2
  fi
  if [ -z "$tree" ]; then
    echo "[intree-check] MOSE_INTREE_BUILD_LIMIT=$build_limit does nothing with --no-mpi (the shared script builds that tree): unset it or drop --no-mpi" >&2
    exit 2
  fi
fi

# ns-3's CMake adds -fdiagnostics-color=always to every compile line when CLICOLOR is set, and
# ./ns3 sets it (3.37 always, later releases when unset). The shared script configures through
# ./ns3 but rebuilds through cmake --build, whose automatic re-run of CMake (every run: the module
# is copied afresh) would otherwise drop the flag and recompile all of ns-3 (12 min on 2 cores
# instead of 1-2). Keep the two consistent.
export CLICOLOR=1
# A tree's first build, bounded by MOSE_INTREE_BUILD_LIMIT: the same sources and targets that the
# shared script builds next. Once one has finished, the stamp says so, and later runs leave the
# build to the shared script (which then rebuilds the module only).
built_stamp=${tree:+$tree/cmake-cache/mose-tree-built.ok}
if [ -n "$build_limit" ] && [ ! -f "$built_stamp" ]; then
  [ -f "$tree/cmake-cache/CMakeCache.txt" ] ||
    { echo "[intree-check] $tree is not configured: MOSE_INTREE_BUILD_LIMIT bounds the build of a configured tree" >&2; exit 2; }
  echo "[intree-check] $tree: first build, for at most $build_limit s (NS3_JOBS=${NS3_JOBS:-$(nproc)})" >&2
  copy_module
  status=0
  timeout --kill-after=30 "$build_limit" cmake --build "$tree/cmake-cache" -j "${NS3_JOBS:-$(nproc)}" \
    >"$tree/cmake-cache-logs/first-build.log" 2>&1 || status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    step=$(grep -o '^\[[0-9]*/[0-9]*\]' "$tree/cmake-cache-logs/first-build.log" | tail -n 1 | tr -d '[]' || true)
    echo "[intree-check] $tree: the first build did not finish in $build_limit s (ninja's last step: ${step:-none}); the next run resumes it. The suite did not run." >&2
    exit 3
  elif [ "$status" -ne 0 ]; then
    grep -E "error|Error" -A3 "$tree/cmake-cache-logs/first-build.log" | head -n 60 >&2
    echo "[intree-check] $tree: the first build failed (exit $status)" >&2
    exit 1
  fi
  touch "$built_stamp"
fi

# the suite's GoogleTest bridge writes what it ran here (test/mose-gtest-bridge.cc), so that the
# listing below need not run the suite a second time
gtest_report=$(mktemp /tmp/mose-gtest-report.XXXXXX)
trap 'rm -f "$gtest_report"' EXIT
export MOSE_GTEST_REPORT=$gtest_report
if ! bash "$script" "${args[@]}" "$root" "$@"; then
  # test.py says only "FAIL: TestSuite mose": show which GoogleTest assertions failed (the
  # bridge's report), or else what the suite's ns-3 cases said
  if grep -q '^FAILED ' "$gtest_report" 2>/dev/null; then
    sed -n '/^FAILED /,$p' "$gtest_report" >&2
  elif [ -n "$tree" ]; then
    runner=$(find "$tree/build/utils" -maxdepth 1 -name '*test-runner*' -type f -perm -u+x 2>/dev/null | head -n 1 || true)
    [ -z "$runner" ] || (cd "$tree" && MOSE_GTEST_REPORT='' "$runner" --suite=mose --verbose 2>&1 | grep -A8 'FAIL' | head -n 80 >&2) || true
  fi
  exit 1
fi
unset MOSE_GTEST_REPORT
# the shared script built the whole tree: later bounded runs need not build it first
[ -z "$built_stamp" ] || touch "$built_stamp"

# One and two ranks of test/mose-mpi-check on five cases (built with the tree above)
if [ "$mpi" -eq 1 ]; then
  bash "$root/utils/mpi-check.sh" "$tree" --no-build
fi

# In a tree, the suite "mose" runs the GoogleTest cases of test/gtest too when GoogleTest is
# installed (test/mose-gtest-bridge.h). test.py only says PASS or FAIL for the suite: list the
# cases it ran, so that a build that silently lost its GoogleTest cases shows (MOSE_INTREE_GTEST=0
# skips this).
if [ "${MOSE_INTREE_GTEST:-1}" = 1 ]; then
  if [ -z "$tree" ]; then
    cache=$cache_root/3.37
    driver=$(find "$cache" -maxdepth 3 -name ns3 -type f -perm -u+x -path "*ns-3.37*" 2>/dev/null | head -n 1 || true)
    tree=${driver%/ns3}
  fi
  runner=$(find "$tree/build/utils" -maxdepth 1 -name '*test-runner*' -type f -perm -u+x 2>/dev/null | head -n 1 || true)
  if [ -s "$gtest_report" ]; then
    # "suites S tests T failed F", written by the run test.py just made
    read -r _ cases _ tests _ failed < "$gtest_report"
    echo "[intree-check] suite mose ran $cases GoogleTest suites ($tests tests, $failed failed) besides its ns-3 cases" >&2
    if [ "$cases" -eq 0 ] || [ "$failed" -ne 0 ]; then
      echo "[intree-check] the suite ran no GoogleTest case, or some failed" >&2
      exit 1
    fi
  elif [ -n "$runner" ]; then
    # from the top of the tree, as test.py runs it (the distributed cases call ./ns3 run)
    out=$(cd "$tree" && "$runner" --suite=mose --verbose 2>&1) || { echo "$out"; echo "[intree-check] $runner --suite=mose failed" >&2; exit 1; }
    cases=$(grep -c 'PASS GoogleTest' <<<"$out" || true)
    tests=$(awk '/PASS GoogleTest/ { gsub(/[()]/, "", $4); n += $4 } END { print n + 0 }' <<<"$out")
    echo "[intree-check] suite mose ran $cases GoogleTest suites ($tests tests) besides its ns-3 cases" >&2
    if [ "$cases" -eq 0 ] && dpkg -s libgtest-dev >/dev/null 2>&1; then
      echo "[intree-check] GoogleTest is installed but the suite ran none of its cases" >&2
      exit 1
    fi
  else
    echo "[intree-check] no test-runner found under $tree/build/utils" >&2
  fi
fi
