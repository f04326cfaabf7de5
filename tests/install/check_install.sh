#!/usr/bin/env bash
# Installs a built tree into a fresh prefix and uses it the way a downstream
# project would, seeing nothing of the build or source tree:
#   - the files a package ships (library, headers, ulibc command, CMake package, .pc);
#   - a C program built with pkg-config alone (ulibc/ulibc.h and ulibc/compat.h);
#   - a C++ program built with find_package(ulibc) and the ulibc::ulibc target;
#   - both run on a synthetic two-node machine (exact mapping checked) and on
#     the live machine (must succeed), without LD_LIBRARY_PATH.
#
# usage: check_install.sh BUILD_DIR SOURCE_DIR
# environment (set by tests/install/CMakeLists.txt; defaults for a manual run):
#   ULIBC_TEST_CMAKE       cmake to install and configure with   (cmake)
#   ULIBC_TEST_GENERATOR   generator for the C++ consumer        (Ninja)
#   ULIBC_TEST_CC/CXX      compilers of the consumers            (cc / c++)
#   ULIBC_TEST_LIBDIR      CMAKE_INSTALL_LIBDIR of the build     (lib)
#   ULIBC_TEST_SANITIZE    the build's ULIBC_SANITIZE             (empty)
#   ULIBC_TEST_KEEP=1      keep the temporary prefix even on success
# Exit status: 0 pass, 1 fail, 77 skipped (a tool is missing).
set -euo pipefail

build_dir=$(cd "${1:?usage: check_install.sh BUILD_DIR SOURCE_DIR}" && pwd)
source_dir=$(cd "${2:?usage: check_install.sh BUILD_DIR SOURCE_DIR}" && pwd)
cmake_cmd=${ULIBC_TEST_CMAKE:-cmake}
generator=${ULIBC_TEST_GENERATOR:-Ninja}
cc=${ULIBC_TEST_CC:-cc}
cxx=${ULIBC_TEST_CXX:-c++}
libdir_rel=${ULIBC_TEST_LIBDIR:-lib}
sanitize=${ULIBC_TEST_SANITIZE:-}
here="$source_dir/tests/install"

for tool in pkg-config "$cc" "$cxx" "$cmake_cmd"; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found" >&2
    exit 77
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ulibc-install-test.XXXXXX")
cleanup() {
  local rc=$?
  if [ "$rc" -eq 0 ] && [ "${ULIBC_TEST_KEEP:-0}" != 1 ]; then rm -rf "$work"; else echo "kept $work" >&2; fi
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

# Nothing from the caller's environment may leak the build tree or change the mapping.
unset LD_LIBRARY_PATH ULIBC_FSROOT ULIBC_POLICY ULIBC_NUM_THREADS OMP_NUM_THREADS CMAKE_PREFIX_PATH || true

san_flags=()
[ -n "$sanitize" ] && san_flags=("-fsanitize=$sanitize")

prefix="$work/prefix"
step "cmake --install $build_dir --prefix $prefix"
"$cmake_cmd" --install "$build_dir" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log" >&2; fail "cmake --install"; }
libdir="$prefix/$libdir_rel"

step "installed files"
for f in include/ulibc.hpp include/ulibc/ulibc.h include/ulibc/compat.h include/ulibc/cpuset.hpp \
         include/ulibc/error.hpp include/ulibc/mapping.hpp include/ulibc/topology.hpp \
         "$libdir_rel/pkgconfig/ulibc.pc" "$libdir_rel/cmake/ulibc/ulibcConfig.cmake" \
         "$libdir_rel/cmake/ulibc/ulibcConfigVersion.cmake" "$libdir_rel/cmake/ulibc/ulibcTargets.cmake"; do
  [ -f "$prefix/$f" ] || fail "$f not installed"
done
ls "$libdir"/libulibc.so* >/dev/null 2>&1 || ls "$libdir"/libulibc.a >/dev/null 2>&1 || fail "no libulibc in $libdir"
# The package files must not point back into the trees the build came from.
if grep -rlF -e "$build_dir" -e "$source_dir" "$libdir/pkgconfig" "$libdir/cmake/ulibc"; then
  fail "installed package files name the build or source directory"
fi

step "the ulibc command"
[ -x "$prefix/bin/ulibc" ] || fail "bin/ulibc not installed"
"$prefix/bin/ulibc" --help >"$work/help.txt" 2>&1 || { cat "$work/help.txt" >&2; fail "bin/ulibc --help exited non-zero"; }
# bench and tune run in each kernel's program, which must be installed beside it.
[ -x "$prefix/bin/ulibc-stream" ] || fail "bin/ulibc-stream not installed"
"$prefix/bin/ulibc" bench stream --help >"$work/bench-help.txt" 2>&1 ||
  { cat "$work/bench-help.txt" >&2; fail "bin/ulibc bench stream --help exited non-zero"; }
grep -q -- "--policy" "$work/bench-help.txt" || fail "ulibc bench stream --help does not list --policy"

# A synthetic machine: 2 packages = 2 nodes, 2 cores each, 2 SMT threads per
# core, numbered as Linux does (cpu0-3 the first threads, cpu4-7 their siblings).
fake="$work/fake"
sys="$fake/sys/devices/system"
mkdir -p "$sys/cpu" "$sys/node"
echo 0-7 >"$sys/cpu/online"
echo 0-7 >"$sys/cpu/possible"
for cpu in 0 1 2 3 4 5 6 7; do
  mkdir -p "$sys/cpu/cpu$cpu/topology"
  echo $(((cpu / 2) % 2)) >"$sys/cpu/cpu$cpu/topology/physical_package_id"
  echo $((cpu % 2)) >"$sys/cpu/cpu$cpu/topology/core_id"
done
echo 0-1 >"$sys/node/online"
echo 0-1 >"$sys/node/possible"
mkdir -p "$sys/node/node0" "$sys/node/node1"
echo 0-1,4-5 >"$sys/node/node0/cpulist"
echo 2-3,6-7 >"$sys/node/node1/cpulist"
echo "10 20" >"$sys/node/node0/distance"
echo "20 10" >"$sys/node/node1/distance"

check_output() {  # name expected-file actual-file
  diff -u "$2" "$3" >"$work/$1.diff" || { cat "$work/$1.diff" >&2; fail "$1: unexpected output"; }
}

# The library the program loads must be the installed one.
check_loads_installed() {  # program
  local resolved
  resolved=$(ldd "$1" | awk '/libulibc/ {print $3}')
  [ -z "$resolved" ] && return 0  # a static libulibc
  case "$(readlink -f "$resolved")" in
    "$(readlink -f "$libdir")"/*) ;;
    *) fail "$1 loads libulibc from $resolved, not from $libdir" ;;
  esac
}

step "C consumer via pkg-config"
# PKG_CONFIG_LIBDIR replaces the default search path: only the installed tree is seen.
export PKG_CONFIG_LIBDIR="$libdir/pkgconfig" PKG_CONFIG_PATH="$libdir/pkgconfig"
pkg-config --exists --print-errors ulibc || fail "pkg-config cannot find ulibc"
[ "$(pkg-config --variable=libdir ulibc)" -ef "$libdir" ] || fail "ulibc.pc libdir $(pkg-config --variable=libdir ulibc) is not $libdir"
read -r -a pc_flags <<<"$(pkg-config --cflags --libs ulibc)"
"$cc" -std=c11 -Wall -Wextra -Werror "${san_flags[@]}" -o "$work/consumer_c" "$here/consumer_c/main.c" \
  "${pc_flags[@]}" "-Wl,-rpath,$(pkg-config --variable=libdir ulibc)" || fail "C consumer does not build"
check_loads_installed "$work/consumer_c"

"$work/consumer_c" "$fake" scatter 8 >"$work/c.out" 2>&1 || { cat "$work/c.out" >&2; fail "C consumer failed"; }
cat >"$work/c.expected" <<'EOF'
policy scatter threads 8 nodes 2
node 0 cores 4
node 1 cores 4
thread 0 proc 0 node 0 core 0 smt 0 ordcore 0
thread 1 proc 2 node 1 core 0 smt 0 ordcore 0
thread 2 proc 1 node 0 core 1 smt 0 ordcore 1
thread 3 proc 3 node 1 core 1 smt 0 ordcore 1
thread 4 proc 4 node 0 core 0 smt 1 ordcore 2
thread 5 proc 6 node 1 core 0 smt 1 ordcore 2
thread 6 proc 5 node 0 core 1 smt 1 ordcore 3
thread 7 proc 7 node 1 core 1 smt 1 ordcore 3
after set_affinity_policy(COMPACT): compact 0 1 4 5 2 3 6 7
EOF
check_output c "$work/c.expected" "$work/c.out"
"$work/consumer_c" >"$work/c-live.out" 2>&1 || { cat "$work/c-live.out" >&2; fail "C consumer failed on the live machine"; }
grep -q '^thread 0 proc [0-9]' "$work/c-live.out" || { cat "$work/c-live.out" >&2; fail "C consumer: no placement on the live machine"; }

step "C++ consumer via find_package(ulibc)"
cxx_flags="${san_flags[*]:-}"
"$cmake_cmd" -S "$here/consumer_cxx" -B "$work/consumer_cxx" -G "$generator" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror $cxx_flags" -DCMAKE_EXE_LINKER_FLAGS="$cxx_flags" \
  >"$work/cxx-configure.log" 2>&1 || { cat "$work/cxx-configure.log" >&2; fail "C++ consumer does not configure"; }
found=$(sed -n 's/^-- ulibc_DIR=//p' "$work/cxx-configure.log")
[ "$found" -ef "$libdir/cmake/ulibc" ] || fail "find_package found ulibc in '$found', not in $libdir/cmake/ulibc"
"$cmake_cmd" --build "$work/consumer_cxx" >"$work/cxx-build.log" 2>&1 || { cat "$work/cxx-build.log" >&2; fail "C++ consumer does not build"; }
cxx_bin="$work/consumer_cxx/consumer_cxx"
check_loads_installed "$cxx_bin"

"$cxx_bin" "$fake" compact 8 >"$work/cxx.out" 2>&1 || { cat "$work/cxx.out" >&2; fail "C++ consumer failed"; }
cat >"$work/cxx.expected" <<'EOF'
processors 8 nodes 2 usable 0-7
policy compact threads 8
thread 0 proc 0 node 0 core 0 smt 0
thread 1 proc 1 node 0 core 1 smt 0
thread 2 proc 4 node 0 core 0 smt 1
thread 3 proc 5 node 0 core 1 smt 1
thread 4 proc 2 node 1 core 0 smt 0
thread 5 proc 3 node 1 core 1 smt 0
thread 6 proc 6 node 1 core 0 smt 1
thread 7 proc 7 node 1 core 1 smt 1
caught ulibc::Error kind input
EOF
check_output cxx "$work/cxx.expected" "$work/cxx.out"
"$cxx_bin" >"$work/cxx-live.out" 2>&1 || { cat "$work/cxx-live.out" >&2; fail "C++ consumer failed on the live machine"; }
grep -q '^thread 0 proc [0-9]' "$work/cxx-live.out" || { cat "$work/cxx-live.out" >&2; fail "C++ consumer: no placement on the live machine"; }

echo "PASS: installed tree in $prefix builds and runs both consumers"
