#!/usr/bin/env bash
# Sets up, builds and shows ULIBC on this machine: the topology, the mapping
# table of every policy for all usable processors, and the paper's Fig. 6
# (Triad on per-node arrays) showing where each thread ran and each page sits,
# then a STREAM sweep over every policy and thread count, plotted.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh demo
# The demo builds neither the tests nor the peers, so it needs only the packages of `setup.sh demo`; the test
# command turns both on again in the same build directory, with the same compiler flags (scripts/test.sh: no debug
# information, warnings as errors), so that what the demo compiled is not compiled again.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
  -DCMAKE_COMPILE_WARNING_AS_ERROR=ON -DULIBC_BUILD_TESTS=OFF -DULIBC_BUILD_PEERS=OFF >/dev/null
cmake --build build --target ulibc_cli ulibc_stream_cli fig6_triad
ulibc=build/bin/ulibc
"$ulibc" topology
for policy in scatter compact compact+; do
  echo
  "$ulibc" map --policy "$policy"
done
for policy in scatter compact compact+; do
  echo
  build/bin/fig6_triad "$policy"
done
echo
echo "STREAM (MB/s, best of 10) under every policy; plot in build/stream.png"
"$ulibc" bench stream --policy all --plot build/stream.png
