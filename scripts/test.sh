#!/usr/bin/env bash
# Sets up, builds and runs every check, in phases, each timed:
#   setup    the Debian packages (scripts/setup.sh)
#   style    the house format and file headers (scripts/check_style.sh)
#   release  the release build and what only it can run: the command as a user
#            runs it, the install, the NUMA lab, the peers', the scripts' tests
#   fuzz     a short fuzzing run of every parser (scripts/fuzz.sh)
#   asan     the library's and the kernels' suites (unit, snapshot oracle,
#            threads, kernels with their large suites, MPI) under ASan+UBSan
#   blas     the SDP solver's tests again under each OpenBLAS kernel type the processor has
#   tsan     the concurrent runtime (label threads) under ThreadSanitizer
#   packages every system file those builds used comes from a package setup.sh installs (check_packages.py)
# and ends with each phase's time and the tests passed and failed.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
passed=0
failed=0
report=()
ctest_prefix=()  # a command ctest runs under (tsan: setarch)

summary() {
  local status=$?
  printf 'ci: %s\n' "${report[@]}"
  echo "ci: $passed tests passed, $failed failed; exit $status"
}
trap summary EXIT

# phase NAME COMMAND...: runs the command and notes its time.
phase() {
  local name=$1 start=$SECONDS
  shift
  echo "ci: == $name"
  "$@"
  report+=("$(printf '%-8s %4d s' "$name" $((SECONDS - start)))")
}

# run_tests BUILD_DIR CTEST_ARGS...: ctest, its counts added to the totals.
run_tests() {
  local dir=$1 log
  shift
  log=$(mktemp)
  local status=0
  "${ctest_prefix[@]}" ctest --test-dir "$dir" --output-on-failure -j "$jobs" "$@" | tee "$log" || status=$?
  local line
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" || true)
  rm -f "$log"
  if [[ $line =~ ([0-9]+)\ tests\ failed\ out\ of\ ([0-9]+) ]]; then
    failed=$((failed + BASH_REMATCH[1]))
    passed=$((passed + BASH_REMATCH[2] - BASH_REMATCH[1]))
  fi
  return "$status"
}

# Warnings are errors in every build the tests run (the project's own code: third-party headers are system
# headers), as in the demo's, which shares the release build.
configure_and_build() {
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_COMPILE_WARNING_AS_ERROR=ON "$@" >/dev/null
  cmake --build "$dir"
}

# The library's and the kernels' suites are compiled and run once, under the sanitizers (asan below): compiling them
# here too was a third of this build. What runs here drives the same library and kernels, optimised as users build
# them, through the command, the NUMA lab's guest and the installed tree.
release() {
  # No test reads debug information, and generating it is a quarter of the
  # compile time on CI's two cores.
  configure_and_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
    -DULIBC_BUILD_TESTS=ON -DULIBC_TEST_SUITES=OFF -DULIBC_BUILD_PEERS=ON
  run_tests build
}

# The SDP solver's end game must reach the same answers whichever BLAS kernels round its products (docs/SDP.md):
# its tests (kernels.sdp.*) again under OpenBLAS's kernels for AVX, AVX2 and AVX-512, each where the processor has it.
# Control5 solved again on one and three threads asks about teams, not rounding: it was a third of each round.
blas() {
  local flag type
  for flag in avx:SandyBridge avx2:Haswell avx512f:SkylakeX; do
    type=${flag#*:}
    if grep -qw "${flag%%:*}" /proc/cpuinfo; then
      echo "ci: OPENBLAS_CORETYPE=$type"
      OPENBLAS_CORETYPE=$type run_tests build-asan -R '^kernels\.sdp\.' -E 'OnOneAndThreeThreads'
    fi
  done
}

# Installed programs are not built with the sanitizer runtime, and the NUMA lab boots static programs in QEMU,
# which ASan cannot run: both run in the release build only. The peers are not ULIBC's code. The command
# (tools/ulibc) and its tests are left to the release phase too: they are front ends over the library and the
# kernels whose suites run here, the file parsers behind them are fuzzed, and compiling them under ASan was a third
# of its build.
# -Og (GCC's level for debugging) keeps the sanitizers' reports exact and compiles in two thirds of -O1's time (the
# whole build: 313 s against 470 s on a two-core machine; the SDP kernel: 17 s against 34 s), and the suites run as
# fast (119 s against 113 s); -O0 compiles as fast but runs the tests at half the speed.
# UBSan's null and alignment checks are left out: they instrument every pointer access and made the build 1.6 times
# as long (the SDP kernel: 60 s against 38 s). ASan reports a null dereference itself, and the parsers, where a
# misaligned read could come from, keep every check in the fuzz phase.
asan() {
  configure_and_build build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-Og -g1" \
    -DULIBC_SANITIZE=address,undefined -DULIBC_SANITIZE_EXCEPT=alignment,null \
    -DULIBC_BUILD_PEERS=OFF -DULIBC_BUILD_TOOLS=OFF
  run_tests build-asan -LE "install|numa_lab|scripts"
}

# ThreadSanitizer over the tests that share memory between std::threads.
# GCC 12's TSan runtime cannot place its shadow memory when the kernel
# randomises mmap with more bits than it expects (vm.mmap_rnd_bits 32 on
# recent kernels): the tests run with address randomisation off where
# setarch can do that.
tsan() {
  cmake -S . -B build-tsan -G Ninja -DCMAKE_COMPILE_WARNING_AS_ERROR=ON -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-Og -g1" -DULIBC_SANITIZE=thread -DULIBC_BUILD_PEERS=OFF -DULIBC_BUILD_KERNELS=OFF \
    -DULIBC_BUILD_TOOLS=OFF >/dev/null
  cmake --build build-tsan --target ulibc_thread_tests
  if setarch "$(uname -m)" -R true 2>/dev/null; then ctest_prefix=(setarch "$(uname -m)" -R); fi
  run_tests build-tsan -L threads
  ctest_prefix=()
}

phase setup bash scripts/setup.sh test
phase style bash scripts/check_style.sh
phase release release
phase fuzz bash scripts/fuzz.sh "${ULIBC_FUZZ_SECONDS:-15}"
phase asan asan
phase blas blas
phase tsan tsan
phase packages python3 scripts/check_packages.py build build-asan build-tsan "${ULIBC_FUZZ_BUILD_DIR:-build-fuzz}"
