#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build-fuzz/ and fuzzes each for a while.
#
# usage: scripts/fuzz.sh [SECONDS] [-- extra libFuzzer flags]
#   SECONDS  time for all targets together, shared equally (at least 1 s
#            each; default $ULIBC_FUZZ_SECONDS, else 30)
# environment:
#   ULIBC_FUZZ_BUILD_DIR  build directory (default <repo>/build-fuzz)
#   ULIBC_FUZZ_JOBS       parallel fuzzing processes per target (default 1)
#   ULIBC_FUZZ_STRICT=0   do not compare the parsers with the kernel's grammar
#   CXX                   clang++ to use (default clang++)
# The seeds in tests/fuzz/corpus/<target>/ are read, never written: new inputs
# go to <build>/corpus/<target>/, crashes to <build>/artifacts/.
# Exit status: 0 when no target crashed, 1 when one did (its reproducer is
# printed), 2 for a usage or build error.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${ULIBC_FUZZ_SECONDS:-30}
if [ $# -gt 0 ] && [ "$1" != "--" ]; then seconds=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
extra=("$@")
case "$seconds" in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2 ;; esac
build=${ULIBC_FUZZ_BUILD_DIR:-$repo/build-fuzz}
cxx=${CXX:-clang++}
jobs=${ULIBC_FUZZ_JOBS:-1}
case "$jobs" in '' | *[!0-9]* | 0) echo "fuzz.sh: ULIBC_FUZZ_JOBS must be a positive number" >&2; exit 2 ;; esac

command -v "$cxx" >/dev/null || { echo "fuzz.sh: $cxx not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
"$cxx" --version | head -1 | grep -qi clang || { echo "fuzz.sh: $cxx is not clang" >&2; exit 2; }

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
mkdir -p "$build"
cmake -S "$repo/tests/fuzz" -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" >"$build/configure.log" 2>&1 \
  || { cat "$build/configure.log" >&2; echo "fuzz.sh: configure failed" >&2; exit 2; }
cmake --build "$build" || { echo "fuzz.sh: build failed" >&2; exit 2; }

targets=("$build"/bin/ulibc_fuzz_*)
share=$((seconds / ${#targets[@]}))
[ "$share" -ge 1 ] || share=1
status=0
for target in "${targets[@]}"; do
  name=${target##*/ulibc_fuzz_}
  seeds="$repo/tests/fuzz/corpus/$name"
  corpus="$build/corpus/$name"
  artifacts="$build/artifacts/$name/"
  mkdir -p "$corpus" "$artifacts"
  echo "== fuzzing $name for ${share}s (corpus $corpus)"
  dirs=("$corpus")
  [ -d "$seeds" ] && dirs+=("$seeds")
  log="$build/fuzz-$name.log"
  parallel=()
  [ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
  # From inside the build directory: with -jobs libFuzzer writes fuzz-N.log into the current one.
  if (cd "$build" && "$target" -max_total_time="$share" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        "${parallel[@]}" -artifact_prefix="$artifacts" "${extra[@]}" "${dirs[@]}") >"$log" 2>&1; then
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' "$log" || tail -3 "$log"
  else
    status=1
    tail -40 "$log" >&2
    echo "fuzz.sh: $name FAILED; reproduce with: $target $(ls -t "$artifacts" | head -1 | sed "s|^|$artifacts|")" >&2
  fi
done
exit $status
