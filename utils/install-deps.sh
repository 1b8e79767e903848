#!/usr/bin/env bash
# Install the Debian 12 (bookworm) packages that building, testing, benchmarking and fuzzing mose
# need. Only the packages that are missing are installed; when all are present nothing touches
# the network. Runs as root, or through sudo when it is available.
#
# usage: utils/install-deps.sh [--check] [--quick]
#   --check   only report the missing packages (exit status 1 when some are missing)
#   --quick   only the packages utils/build.sh's first run needs (the library, the programs and
#             the paper's figures); without it, also those of the tests, benchmarks, fuzzing,
#             the cross-checks, MPI and Slurm (utils/test.sh and CI install them)
set -euo pipefail

check=0
quick=0
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    --quick) quick=1 ;;
    *) echo "[install-deps] unknown argument: $arg (allowed: --check, --quick)" >&2; exit 2 ;;
  esac
done

packages=(
  libns3-dev ns3           # ns-3.37; Debian's CMake targets point at helper binaries in "ns3"
  libgsl-dev libxml2-dev libpython3.11-dev libsqlite3-dev  # referenced by Debian's ns-3 targets
  libboost-graph-dev       # the flow-level core
  libmetis-dev             # the min-cut placement of groups on MPI ranks (mose-partition)
  libgtest-dev             # mose-gtest (small; found at the first configure, so tests need no reconfigure)
  libprotobuf-dev protobuf-compiler  # Chakra execution traces (optional: without them the rest builds)
  cmake ninja-build g++
  ccache                   # rebuilds of unchanged sources from the cache (CMake option MOSE_CCACHE)
  gnuplot-nox              # figures of the paper reproduction
)
if [ "$quick" -eq 0 ]; then
  packages+=(
    libbenchmark-dev         # bench/
    clang-14 libclang-rt-14-dev  # libFuzzer targets (test/fuzz)
    python3-igraph python3-networkx  # cross-checks of the topology generators
    libopenmpi-dev openmpi-bin  # distributed runs in an ns-3 tree built with --enable-mpi
    tshark                   # the RoCEv2 pcap test decodes the transport's packets with Wireshark
    slurm-wlm munge          # the one-node Slurm cluster of ctest's slurm label (utils/slurm-local.sh)
  )
fi

say() { printf '[install-deps] %s\n' "$*" >&2; }

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done

if [ ${#missing[@]} -eq 0 ]; then
  say "all ${#packages[@]} packages are installed"
  exit 0
fi
say "missing: ${missing[*]}"
if [ "$check" -eq 1 ]; then exit 1; fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  say "not root and no sudo: install them with: apt-get install -y ${missing[*]}"
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
say "apt-get update"
"${sudo[@]}" apt-get update -q
say "apt-get install -y ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" </dev/null

still=()
for p in "${missing[@]}"; do installed "$p" || still+=("$p"); done
if [ ${#still[@]} -gt 0 ]; then
  say "still missing after apt-get install: ${still[*]}"
  exit 1
fi
say "installed ${#missing[@]} packages: ${missing[*]}"
