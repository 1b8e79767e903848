#!/usr/bin/env bash
# Compiles every source of the module (model, helper, examples, test) against another ns-3
# release's headers, syntax only (g++ -fsyntax-only): a check of the API drift between ns-3.37 and
# a newer release in minutes, where utils/intree-check.sh --ns3-src builds that release whole (an
# hour on 2 cores) and runs the suite. It finds what no longer compiles (a removed or renamed
# call, a template that now needs its argument), not what links or behaves differently.
#
# usage: utils/ns3-header-check.sh --ns3-src DIR [FILE...]
#   DIR:   an ns-3 source tree, e.g. the ns-3.48 tag of nsnam's ns-3-dev; configured here (its
#          ./ns3 configure, the modules the module uses) when it has no build/include/ns3 yet
#   FILE:  sources to check (default: every .cc of model/, helper/, examples/ and test/)
# env: MOSE_BUILD_DIR (build: a configured build of this checkout, for its generated headers),
#      JOBS (parallel compilers, default nproc)
# It writes ns3/mose-config.h for DIR's release (MOSE_NS3_VERSION_MINOR) into a temporary
# folder; the build's own headers are left alone. Exit status 1 when a file does not compile;
# each failure's first errors are printed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MOSE_BUILD_DIR:-$root/build}
say() { echo "[ns3-header-check] $*" >&2; }

[ "${1:-}" = "--ns3-src" ] && [ $# -ge 2 ] || {
  say "usage: utils/ns3-header-check.sh --ns3-src DIR [FILE...]"
  exit 2
}
tree=$(cd "$2" 2>/dev/null && pwd) || { say "--ns3-src: '$2' is not a folder"; exit 1; }
shift 2
[ -f "$tree/VERSION" ] && [ -x "$tree/ns3" ] || {
  say "--ns3-src: '$tree' is not an ns-3 source tree (no VERSION file and ns3 script)"
  exit 1
}
[ -f "$build/include/ns3/mose-module.h" ] || {
  say "$build/include/ns3/mose-module.h not found: configure this checkout first (utils/build.sh)"
  exit 1
}

version=$(tr -d '[:space:]' <"$tree/VERSION")
if [[ $version =~ ^3\.([0-9]+) ]]; then
  minor=${BASH_REMATCH[1]}
else
  minor=99 # ns-3-dev trees: the newest release, as cmake/mose-extras.cmake reads them
fi
# ns-3's own minimum C++ standard for the release
std=$(sed -n 's/^ *set(CMAKE_CXX_STANDARD_MINIMUM \([0-9]*\)).*/\1/p' \
  "$tree/build-support/macros-and-definitions.cmake" 2>/dev/null | head -n 1)
case "${std:-17}" in
23) flag=-std=c++2b ;;
20) flag=-std=c++20 ;;
*) flag=-std=c++17 ;;
esac

modules="point-to-point;internet;applications;flow-monitor;traffic-control;csma"
mpi=()
if dpkg -s libopenmpi-dev >/dev/null 2>&1; then
  modules="$modules;mpi"
  mpi=(--enable-mpi)
fi
if [ ! -d "$tree/build/include/ns3" ]; then
  say "configuring $tree (ns-3 $version, modules $modules)"
  (cd "$tree" && ./ns3 configure -d release "${mpi[@]}" --enable-modules="$modules" \
    >"$tree/mose-header-check-configure.log" 2>&1) || {
    tail -n 30 "$tree/mose-header-check-configure.log" >&2
    say "configure of $tree failed (log: $tree/mose-header-check-configure.log)"
    exit 1
  }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ns3"
for h in "$build"/include/ns3/*.h; do
  [ "$(basename "$h")" = mose-config.h ] || ln -s "$h" "$work/ns3/"
done
sed -e "s/^#define MOSE_NS3_VERSION \".*\"/#define MOSE_NS3_VERSION \"$version\"/" \
  -e "s/^#define MOSE_NS3_VERSION_MINOR .*/#define MOSE_NS3_VERSION_MINOR $minor/" \
  "$build/include/ns3/mose-config.h" >"$work/ns3/mose-config.h"

includes=(-I"$work" -I"$tree/build/include")
# the study library's and the tests' headers are found beside their sources, as CMake adds them
while IFS= read -r dir; do includes+=(-I"$root/$dir"); done < <(
  cd "$root" && git ls-files 'helper/study/*.h' 'test/*.h' | xargs -n 1 dirname | sort -u)
for dir in /usr/lib/x86_64-linux-gnu/openmpi/include /usr/include/x86_64-linux-gnu/openmpi; do
  [ -d "$dir" ] && includes+=(-I"$dir")
done
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(cd "$root" && git ls-files 'model/*.cc' 'helper/*.cc' 'examples/*.cc' 'test/*.cc')
fi

say "ns-3 $version (MOSE_NS3_VERSION_MINOR=$minor, $flag): ${#files[@]} files, ${JOBS:-$(nproc)} at a time"
export flag work
printf '%s\n' "${files[@]}" | (cd "$root" && xargs -P "${JOBS:-$(nproc)}" -I{} sh -c '
  out="$work/$(echo "{}" | tr / _).err"
  if g++ "$flag" -fsyntax-only -DNS3_LOG_ENABLE '"${includes[*]}"' "{}" 2>"$out"; then
    rm -f "$out"
  else
    echo "FAILED {}" >&2
  fi')
failed=$(find "$work" -name '*.err' | wc -l)
for f in "$work"/*.err; do
  [ -e "$f" ] || continue
  echo "== $(basename "$f" .err | tr _ /)"
  grep -m 5 -A 2 'error' "$f" || head -n 10 "$f"
done
if [ "$failed" -gt 0 ]; then
  say "$failed of ${#files[@]} files do not compile against ns-3 $version"
  exit 1
fi
say "all ${#files[@]} files compile against ns-3 $version"
