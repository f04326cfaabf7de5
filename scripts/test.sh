#!/usr/bin/env bash
# Sets up, builds and runs every test: the release build (unit, snapshot
# oracle, command line, install, threads, NUMA lab), a short fuzzing run of
# the sysfs parsers, the tests again under ASan+UBSan (but install and the
# NUMA lab), and the concurrent tests (label threads) under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)

# No test reads debug information, and generating it is a quarter of the
# compile time on CI's two cores: the test builds leave it out (release) or
# keep only line tables for the sanitizers' reports (-g1).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure -j "$jobs"

bash scripts/fuzz.sh "${ULIBC_FUZZ_SECONDS:-30}"

# Installed programs are not built with the sanitizer runtime, and the NUMA
# lab boots static programs in QEMU, which ASan cannot run: both run in the
# release build only.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DULIBC_SANITIZE=address,undefined \
      -DULIBC_BUILD_PEERS=OFF >/dev/null
cmake --build build-asan
ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE "install|numa_lab"

# ThreadSanitizer over the tests that share memory between std::threads.
# GCC 12's TSan runtime cannot place its shadow memory when the kernel
# randomises mmap with more bits than it expects (vm.mmap_rnd_bits 32 on
# recent kernels): the tests run with address randomisation off where
# setarch can do that.
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DULIBC_SANITIZE=thread \
      -DULIBC_BUILD_PEERS=OFF >/dev/null
cmake --build build-tsan --target ulibc_thread_tests
no_aslr=()
if setarch "$(uname -m)" -R true 2>/dev/null; then no_aslr=(setarch "$(uname -m)" -R); fi
"${no_aslr[@]}" ctest --test-dir build-tsan -L threads --output-on-failure
