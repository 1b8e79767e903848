#!/usr/bin/env bash
# Times the README's quick start as a new Debian 12 machine sees it: removes the packages
# utils/build.sh installs (utils/install-deps.sh --quick) with the dependencies they pulled in,
# empties apt's download cache, clones this repository afresh and times utils/build.sh there
# (packages downloaded and installed, configure, build, the paper run). README.md quotes it.
#
# usage: utils/time-quick-start.sh [CLONE_DIR]     (as root; default CLONE_DIR: a temporary one)
# It changes the machine: run it on a machine that may lose and regain those packages (the run
# installs them again; utils/install-deps.sh installs the rest).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf '[time-quick-start] %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "run as root: it removes and installs Debian packages"; exit 1; }
clone=${1:-$(mktemp -d /tmp/mose-quick-start.XXXXXX)}
# the quick start's packages that a machine of this kind lacks (g++, cmake, Ninja, GoogleTest and
# the libraries Debian's ns-3 targets name come with it; install-deps.sh --quick lists them all)
packages=(libns3-dev ns3 libgsl-dev libboost-graph-dev libmetis-dev gnuplot-nox)
export DEBIAN_FRONTEND=noninteractive
say "removing ${packages[*]} and what they pulled in; emptying apt's cache"
apt-get purge -y -q "${packages[@]}" >/dev/null
apt-get autoremove --purge -y -q >/dev/null
apt-get clean
rm -rf "$clone"
git clone -q "$root" "$clone"
cd "$clone"
log=$clone/quick-start.log
start=$(date +%s.%N)
if utils/build.sh >"$log" 2>&1; then rc=0; else rc=$?; fi
end=$(date +%s.%N)
grep -E "newly installed|^Need to get" "$log" >&2 || true
say "utils/build.sh exit status $rc, $(echo "$end - $start" | bc) s in all (log: $log)"
exit "$rc"
