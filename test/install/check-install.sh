#!/bin/sh
# Installs the built module into a fresh prefix and builds a script against it from outside, as a
# user would: the outside project of this folder (CMakeLists.txt, find_package(mose)) with
# examples/mose-fabric.cc, and the same source compiled with pkg-config's flags for mose. Runs
# both and the module's own build of the example: the three outputs and pcap traces must be
# identical. Registered with ctest as mose-install.
#
#   test/install/check-install.sh BUILD_DIR [SOURCE_DIR]
set -eu
build=$(cd "${1:?usage: check-install.sh BUILD_DIR [SOURCE_DIR]}" && pwd)
src=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
work=$build/install-check
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
say() { printf '[install-check] %s\n' "$*"; }
fail() { printf '[install-check] FAIL: %s\n' "$*"; exit 1; }

say "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "install"; }

# what a user of Debian's ns-3 looks for, where ns-3's own files are
config=$(find "$prefix" -name moseConfig.cmake | head -n 1)
pc=$(find "$prefix" -name mose.pc | head -n 1)
lib=$(find "$prefix" -name libmose.so | head -n 1)
[ -n "$config" ] || fail "no moseConfig.cmake under $prefix"
[ -n "$pc" ] || fail "no mose.pc under $prefix"
[ -n "$lib" ] || fail "no libmose.so under $prefix"
for f in moseConfigVersion.cmake moseTargets.cmake; do
  [ -f "$(dirname "$config")/$f" ] || fail "no $f beside moseConfig.cmake"
done
for h in mose-module.h mose-config.h mose-ns3-compat.h mose-topology-helper.h mose-circuit-graph.h; do
  [ -f "$prefix/include/ns3/$h" ] || fail "no include/ns3/$h"
done
grep -q '#include <ns3/mose-topology-helper.h>' "$prefix/include/ns3/mose-module.h" ||
  fail "ns3/mose-module.h does not include ns3/mose-topology-helper.h"
[ -f "$prefix/share/doc/mose/LICENSE" ] || fail "no share/doc/mose/LICENSE"
# the programs' study library (helper/study) is no API: none of its headers is installed or
# included by the umbrella header
for h in "$src"/helper/study/*/*.h; do
  name=$(basename "$h")
  [ ! -e "$prefix/include/ns3/$name" ] || fail "the study header $name is installed (include/ns3/$name)"
  ! grep -qF "<ns3/$name>" "$prefix/include/ns3/mose-module.h" ||
    fail "ns3/mose-module.h includes the study header $name"
done
[ -z "$(find "$prefix" -name 'libmose-study*')" ] || fail "the study library is installed"
headers=$(find "$prefix/include/ns3" -name 'mose-*.h' | wc -l)
# the installed package must not point back into the build or source tree
if grep -rlF -e "$build" -e "$src" "$prefix/include" "$(dirname "$config")" "$pc"; then
  fail "installed files name the build or source tree"
fi
say "installed $headers headers, $(basename "$lib"), $(basename "$config"), $(basename "$pc")"

# 1. the outside CMake project: find_package(mose), target mose::mose
project=$work/project
mkdir -p "$project"
cp "$src/test/install/CMakeLists.txt" "$src/examples/mose-fabric.cc" "$project/"
say "cmake -S $project -DCMAKE_PREFIX_PATH=$prefix"
cmake -S "$project" -B "$project/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
cmake --build "$project/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }

# 2. the same source with pkg-config's flags (rpath: the prefix is not on the loader's path)
export PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
pkg-config --exists --print-errors mose || fail "pkg-config does not accept mose.pc"
cflags=$(pkg-config --cflags mose)
libs=$(pkg-config --libs mose)
say "pkg-config mose $(pkg-config --modversion mose): c++ mose-fabric.cc $cflags $libs"
# shellcheck disable=SC2086  # the flags are lists of words
${CXX:-c++} -O1 -o "$work/mose-fabric-pc" "$project/mose-fabric.cc" $cflags $libs \
  -Wl,-rpath,"$(dirname "$lib")" >"$work/pc.log" 2>&1 || { cat "$work/pc.log"; fail "pkg-config compile"; }

# run the three builds of the example, each in a folder of its own
run() {
  mkdir -p "$work/run-$1"
  (cd "$work/run-$1" && "$2" >stdout 2>stderr) || { cat "$work/run-$1/stderr"; fail "$1: $2 failed"; }
}
run module "$build/bin/mose-fabric"
run cmake "$project/build/mose-fabric"
run pkg-config "$work/mose-fabric-pc"
grep -q ' transfers complete, mean FCT .* ms, 0 packets lost$' "$work/run-module/stdout" || { cat "$work/run-module/stdout"; fail "no summary line"; }
for way in cmake pkg-config; do
  cmp -s "$work/run-module/stdout" "$work/run-$way/stdout" ||
    { diff "$work/run-module/stdout" "$work/run-$way/stdout"; fail "the $way build prints something else"; }
  for p in "$work"/run-module/*.pcap; do
    cmp -s "$p" "$work/run-$way/$(basename "$p")" || fail "the $way build writes another $(basename "$p")"
  done
done
# the installed library is the one the outside builds ran (not the build tree's)
ldd "$work/mose-fabric-pc" | grep -qF "$(dirname "$lib")/libmose.so" || fail "the pkg-config build does not load $lib"
say "the find_package and pkg-config builds print what the module's build prints:"
sed 's/^/    /' "$work/run-module/stdout"
