#!/usr/bin/env bash
# Builds ULIBC's MPI suites against Debian's MPICH and runs them at 1-4 ranks (tests/mpi): the distributed code
# must not depend on Open MPI. scripts/setup.sh installs MPICH beside Open MPI, which stays the default (Debian's
# mpi alternatives: Open MPI 50, MPICH 40); this build names MPICH's compilers and launcher itself.
# Not part of scripts/test.sh: MPICH's waiting ranks spin (4 ranks on 2 cores took GMRES's suite 50-110 s), and
# the default build already runs the same suites under Open MPI.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build-mpich -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
  -DCMAKE_COMPILE_WARNING_AS_ERROR=ON -DULIBC_BUILD_PEERS=OFF -DULIBC_BUILD_TOOLS=OFF \
  -DMPI_C_COMPILER=/usr/bin/mpicc.mpich -DMPI_CXX_COMPILER=/usr/bin/mpicxx.mpich \
  -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich >/dev/null
cmake --build build-mpich --target ulibc_mpi_suites
ctest --test-dir build-mpich -L mpi --output-on-failure -j 2 --timeout 600
