#!/usr/bin/env bash
# Sets up, builds and shows ULIBC on this machine: the topology, then the
# mapping table of every policy for all usable processors.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build --target ulibc_cli
ulibc=build/bin/ulibc
"$ulibc" topology
for policy in scatter compact compact+; do
  echo
  "$ulibc" map --policy "$policy"
done
