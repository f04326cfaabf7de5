#!/usr/bin/env bash
# Installs the Debian packages that ULIBC's two commands need, and nothing more but the lines of /etc/hosts that
# name localhost and this machine where a fresh root lacks them (Open MPI needs them; see below).
#
# usage: scripts/setup.sh [demo|test] [--list]
#   demo    what scripts/demo.sh uses: the build of the library, the kernels and the command, and the plot
#   test    everything (the default): also the tests, the peers they build and measure against, the fuzzers,
#           the sanitizers and the NUMA lab's emulated machines
#   --list  prints the profile's package names, one a line, and installs nothing (scripts/check_packages.py
#           reads the list from here)
# Idempotent: when everything is present it only asks getent and dpkg and returns.
set -euo pipefail

profile=test
list=0
for arg in "$@"; do
  case "$arg" in
    demo | test) profile=$arg ;;
    --list) list=1 ;;
    *) echo "setup.sh: unknown argument '$arg' (usage: scripts/setup.sh [demo|test] [--list])" >&2; exit 2 ;;
  esac
done

# Every package, the demo's first: `demo` installs those before the marker @test, `test` all of them.
packages=(
  # build
  build-essential cmake ninja-build pkg-config
  # libraries ULIBC and its kernels use (Boost.Math for confidence intervals; OpenBLAS for BLAS and LAPACK;
  # Open MPI's development files, which the distributed kernels compile against, with its launcher)
  libcli11-dev nlohmann-json3-dev libfmt-dev libnuma-dev libboost-dev libopenblas-dev openmpi-bin libopenmpi-dev
  # `ulibc bench --plot` draws with Debian's Python and matplotlib
  python3 python3-matplotlib
  @test
  # the house style's formatter and the Python checker, over the files git tracks (scripts/check_style.sh)
  clang-format pyflakes3 git
  # tests: GoogleTest, hwloc as an independent oracle, snapshot extraction, libFuzzer and the sanitizers' runtimes
  libgtest-dev libgmock-dev hwloc tar bzip2 clang libclang-rt-14-dev
  # `--draw FILE.png` renders its SVG with rsvg-convert
  librsvg2-bin
  # the peers measured against (hwloc's topology load, likwid-bench's STREAM, the Boost Graph Library's BFS,
  # oneTBB's tasks and sorts, SDPA's and CSDP's semidefinite programming); numastat (numactl) is the anchor
  # `ulibc inspect` is shown beside
  libhwloc-dev likwid numactl libboost-graph-dev libtbb-dev sdpa coinor-csdp
  # GMRES against PETSc: the real, double-precision build. The eigensolver's peers: SLEPc's Jacobi-Davidson
  # (the complex build, which brings the complex PETSc) and ARPACK. Both PETSc builds install side by side
  # (peers/CMakeLists.txt checks each one's scalar type when it configures).
  libpetsc-real3.18-dev libslepc-complex3.18-dev libarpack2-dev
  mpich libmpich-dev
  # the virtual NUMA lab (tests/numa_lab): QEMU boots Debian's kernel with an initramfs of a static busybox and
  # the static guest tests (whose SDP check links OpenBLAS statically: its LAPACK needs the static Fortran runtime)
  qemu-system-x86 linux-image-amd64 busybox-static libgfortran-12-dev
)

selected=()
for p in "${packages[@]}"; do
  if [ "$p" = @test ]; then
    [ "$profile" = demo ] && break
    continue
  fi
  selected+=("$p")
done
if [ "$list" -eq 1 ]; then
  printf '%s\n' "${selected[@]}"
  exit 0
fi

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

# Open MPI looks up `localhost` when it starts a job: where nothing resolves it (a fresh root under chroot, which has
# no /etc/hosts), a singleton started 5 s late every time and mpirun at random. Debian's installer writes
# 127.0.0.1 localhost and 127.0.1.1 for the machine's own name; the same lines are added here where they are missing.
add_host() {
  getent hosts "$2" >/dev/null && return 0
  echo "setup: $2 does not resolve: adding '$1 $2' to /etc/hosts" >&2
  echo "$1 $2" | "${sudo_cmd[@]}" tee -a /etc/hosts >/dev/null ||
    echo "setup: /etc/hosts could not be written; MPI jobs may start 5 s late" >&2
}
add_host 127.0.0.1 localhost
add_host 127.0.1.1 "$(uname -n)"

missing=()
for p in "${selected[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
