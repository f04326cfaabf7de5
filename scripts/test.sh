#!/usr/bin/env bash
# Sets up, builds and runs every test: the release build (unit, snapshot
# oracle, command line, install), a short fuzzing run of the sysfs parsers,
# and the tests again under ASan+UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure -j "$jobs"

bash scripts/fuzz.sh "${ULIBC_FUZZ_SECONDS:-30}"

# Installed programs are not built with the sanitizer runtime: the install
# test runs in the release build only.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DULIBC_SANITIZE=address,undefined \
      -DULIBC_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan
ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE install
