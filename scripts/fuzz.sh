#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build-fuzz/ and fuzzes each for a while.
#
# usage: scripts/fuzz.sh [SECONDS] [-- extra libFuzzer flags]
#   SECONDS  time for all targets together: they run ULIBC_FUZZ_JOBS at a
#            time, each for SECONDS·jobs/targets (at least 1 s; default
#            $ULIBC_FUZZ_SECONDS, else 15)
# environment:
#   ULIBC_FUZZ_BUILD_DIR  build directory (default <repo>/build-fuzz)
#   ULIBC_FUZZ_JOBS       targets fuzzed at the same time (default: the processors)
#   ULIBC_FUZZ_STRICT=0   do not compare the parsers with the kernel's grammar
#   CXX                   clang++ to use (default clang++)
# The seeds in tests/fuzz/corpus/<target>/ are read, never written: new inputs
# go to <build>/corpus/<target>/, crashes to <build>/artifacts/.
# Exit status: 0 when no target crashed, 1 when one did (its reproducer is
# printed), 2 for a usage or build error.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${ULIBC_FUZZ_SECONDS:-15}
if [ $# -gt 0 ] && [ "$1" != "--" ]; then seconds=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
extra=("$@")
case "$seconds" in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2 ;; esac
build=${ULIBC_FUZZ_BUILD_DIR:-$repo/build-fuzz}
cxx=${CXX:-clang++}
jobs=${ULIBC_FUZZ_JOBS:-$(nproc)}
case "$jobs" in '' | *[!0-9]* | 0) echo "fuzz.sh: ULIBC_FUZZ_JOBS must be a positive number" >&2; exit 2 ;; esac

command -v "$cxx" >/dev/null || { echo "fuzz.sh: $cxx not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
"$cxx" --version | head -1 | grep -qi clang || { echo "fuzz.sh: $cxx is not clang" >&2; exit 2; }

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
mkdir -p "$build"
cmake -S "$repo/tests/fuzz" -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" >"$build/configure.log" 2>&1 \
  || { cat "$build/configure.log" >&2; echo "fuzz.sh: configure failed" >&2; exit 2; }
cmake --build "$build" || { echo "fuzz.sh: build failed" >&2; exit 2; }

# fuzz TARGET: fuzzes one target for its share of the time; its counts, or its log's end and a reproducer.
fuzz() {
  local target=$1 name=${1##*/ulibc_fuzz_}
  local seeds="$repo/tests/fuzz/corpus/$name" corpus="$build/corpus/$name" artifacts="$build/artifacts/$name/"
  local log="$build/fuzz-$name.log" dirs
  mkdir -p "$corpus" "$artifacts"
  dirs=("$corpus")
  [ -d "$seeds" ] && dirs+=("$seeds")
  if "$target" -max_total_time="$share" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
       -artifact_prefix="$artifacts" "${extra[@]}" "${dirs[@]}" >"$log" 2>&1; then
    # One write, so that targets finishing together do not interleave their lines.
    printf '== %s: fuzzed for %ss (corpus %s)\n%s\n' "$name" "$share" "$corpus" \
      "$(grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' "$log" || tail -3 "$log")"
  else
    { tail -40 "$log"
      echo "fuzz.sh: $name FAILED; reproduce with: $target $(ls -t "$artifacts" | head -1 | sed "s|^|$artifacts|")"
    } >&2
    return 1
  fi
}

# The targets run $jobs at a time (each fuzzer is one process on one processor), each for an equal share of the
# time: SECONDS · jobs / targets.
targets=("$build"/bin/ulibc_fuzz_*)
share=$((seconds * jobs / ${#targets[@]}))
[ "$share" -ge 1 ] || share=1
status=0
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  fuzz "$target" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
