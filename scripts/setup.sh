#!/usr/bin/env bash
# Installs the Debian packages ULIBC builds, tests and benchmarks with.
# Idempotent: when everything is present it only asks dpkg and returns.
set -euo pipefail

packages=(
  # build, and the house style's formatter (scripts/check_style.sh)
  build-essential cmake ninja-build pkg-config clang-format
  # libraries ULIBC uses
  libcli11-dev nlohmann-json3-dev libfmt-dev libnuma-dev
  # tests: GoogleTest, hwloc as an independent oracle, snapshot extraction, libFuzzer
  libgtest-dev libgmock-dev hwloc tar bzip2 python3 clang libclang-rt-14-dev
  # kernels: Boost.Math (confidence intervals); `ulibc bench --plot` draws with
  # Debian's Python and matplotlib; `--draw FILE.png` renders its SVG with rsvg-convert
  libboost-dev python3-matplotlib librsvg2-bin
  # benchmarks and tests: the peers measured against (hwloc's topology load,
  # likwid-bench's STREAM, OpenBLAS's complex BLAS, also the zblas reference,
  # the Boost Graph Library's BFS, oneTBB's tasks and sorts, SDPA's and CSDP's
  # semidefinite programming)
  # numastat (numactl) is the anchor `ulibc inspect` is shown beside
  libhwloc-dev likwid libopenblas-dev numactl libboost-graph-dev libtbb-dev sdpa coinor-csdp
  # the complex eigensolver's peers: SLEPc's Jacobi-Davidson (complex build, with complex PETSc) and ARPACK
  libslepc-complex3.18-dev libarpack2-dev
  # MPI: Open MPI's launcher and development files (several processes sharing a machine, and the distributed
  # kernels)
  openmpi-bin libopenmpi-dev
  # the virtual NUMA lab (tests/numa_lab): QEMU boots Debian's kernel with an
  # initramfs of a static busybox and the static guest tests (whose SDP check links
  # OpenBLAS statically: its LAPACK needs the static Fortran runtime)
  qemu-system-x86 linux-image-amd64 busybox-static libgfortran-12-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
