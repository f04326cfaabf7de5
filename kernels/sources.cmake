# kernels/sources.cmake — the source files of the graph layer and of each kernel, listed once.
#
# Read by kernels/CMakeLists.txt (the kernels' libraries), tests/numa_lab (a static guest program that compiles the
# graph kernels again, with fmt header-only: Debian ships no static libfmt) and tests/fuzz (a clang project whose
# objects are instrumented for libFuzzer). Neither can link the release build's objects, so each compiles these
# lists itself; none names a kernel's file again. Paths are absolute, so that any project can include this file.
set(_d ${CMAKE_CURRENT_LIST_DIR})

# The process's memory: what it holds, and whether a size still fits (the kernels refuse what cannot fit).
set(ULIBC_PROCESS_MEMORY_SOURCES ${_d}/harness/process_memory.cpp ${_d}/harness/memory_check.cpp)

# The graph layer (GAP-style: one header per concern). Its files: the readers and writers, which need no OpenMP and
# of the library only its headers (the fuzz targets build them alone), and the parallel builders and generators.
set(ULIBC_GRAPH_FILE_SOURCES ${_d}/graph/edge_io.cpp ${_d}/graph/dimacs_io.cpp ${_d}/graph/weighted_graph.cpp
                             ${_d}/graph/csr_offsets.cpp)
set(ULIBC_GRAPH_SOURCES ${ULIBC_GRAPH_FILE_SOURCES} ${_d}/graph/csr_graph.cpp ${_d}/graph/builder.cpp
                        ${_d}/graph/generator.cpp ${_d}/graph/road_generator.cpp)

# The sparse-matrix layer the sparse solvers share: compressed sparse rows (real and complex), the Matrix Market
# reader, the model problems and the test matrices with known spectra.
set(ULIBC_SPARSE_SOURCES ${_d}/sparse/csr_matrix.cpp ${_d}/sparse/matrix_market.cpp
                         ${_d}/sparse/convection_diffusion.cpp ${_d}/sparse/tridiagonal_toeplitz.cpp
                         ${_d}/sparse/prescribed_spectrum.cpp)

# The MPI layer of the distributed kernels (library ulibc_mpi, ulibc::mpi): the session and error convention, where
# each rank runs, the stored profile of MPI's costs in a keyed file (these files need no MPI: the fuzz targets build
# them alone) and the measurements that make it.
set(ULIBC_MPI_PROFILE_SOURCES ${_d}/mpi/keyed_file.cpp ${_d}/mpi/comm_profile.cpp)
set(ULIBC_MPI_SOURCES ${_d}/mpi/comm.cpp ${_d}/mpi/rank_placement.cpp ${ULIBC_MPI_PROFILE_SOURCES}
                      ${_d}/mpi/micro.cpp)

# Each kernel: its algorithm and its verifier. The harness adapter, <k>/<k>_bench.cpp, is added by ulibc_kernel()
# in kernels/CMakeLists.txt: the programs outside the harness (the NUMA lab) leave it out.
set(ULIBC_STREAM_SOURCES ${_d}/stream/stream.cpp ${_d}/stream/verify.cpp)
set(ULIBC_EPCC_SOURCES ${_d}/epcc/delay.cpp ${_d}/epcc/sync_overheads.cpp ${_d}/epcc/schedule_overheads.cpp
                       ${_d}/epcc/verify.cpp)
set(ULIBC_ZBLAS_SOURCES ${_d}/zblas/zblas.cpp ${_d}/zblas/verify.cpp)
set(ULIBC_SPAWN_SOURCES ${_d}/spawn/spawn.cpp ${_d}/spawn/verify.cpp)
set(ULIBC_CILKSORT_SOURCES ${_d}/cilksort/cilksort.cpp ${_d}/cilksort/verify.cpp)
set(ULIBC_HEAT_SOURCES ${_d}/heat/heat.cpp ${_d}/heat/verify.cpp)
set(ULIBC_BFS_SOURCES ${_d}/bfs/bfs.cpp ${_d}/bfs/search_graph.cpp ${_d}/bfs/verify.cpp ${_d}/bfs/graph500.cpp)
set(ULIBC_SIMPATH_SOURCES
    ${_d}/simpath/path_problem.cpp ${_d}/simpath/edge_order.cpp ${_d}/simpath/frontier.cpp ${_d}/simpath/build.cpp
    ${_d}/simpath/reduce.cpp ${_d}/simpath/zdd.cpp ${_d}/simpath/sample.cpp ${_d}/simpath/simpath.cpp
    ${_d}/simpath/verify.cpp)
set(ULIBC_SSSP_SOURCES
    ${_d}/sssp/dijkstra.cpp ${_d}/sssp/delta_stepping.cpp ${_d}/sssp/verify.cpp ${_d}/sssp/placed_graph.cpp
    ${_d}/sssp/many_query.cpp ${_d}/sssp/road_problem.cpp ${_d}/sssp/sssp.cpp ${_d}/sssp/check_lines.cpp)
# GMRES's tuning file needs no MPI either (a fuzz target builds it alone).
set(ULIBC_GMRES_TUNING_FILE_SOURCES ${_d}/gmres/tuning_file.cpp)
set(ULIBC_GMRES_SOURCES
    ${ULIBC_GMRES_TUNING_FILE_SOURCES} ${_d}/gmres/team.cpp ${_d}/gmres/distributed_matrix.cpp ${_d}/gmres/exchange.cpp ${_d}/gmres/spmv.cpp
    ${_d}/gmres/orthogonalize.cpp ${_d}/gmres/preconditioner.cpp ${_d}/gmres/givens.cpp ${_d}/gmres/arnoldi.cpp
    ${_d}/gmres/krylov.cpp ${_d}/gmres/tuner.cpp
    ${_d}/gmres/gmres.cpp ${_d}/gmres/recall.cpp ${_d}/gmres/verify.cpp)
# The Jacobi–Davidson eigensolver (JDQR): its long vectors and products, the small dense problems, the method.
set(ULIBC_EIGEN_SOURCES ${_d}/eigen/space.cpp ${_d}/eigen/projected.cpp ${_d}/eigen/jdqr.cpp ${_d}/eigen/verify.cpp
                        ${_d}/eigen/problem.cpp)
# The semidefinite-programming solver: the problem and its SDPA files (these need no OpenMP or BLAS: the fuzz
# target builds them alone), then the interior-point method and its Schur complement (ELEMENTS).
set(ULIBC_SDP_FILE_SOURCES ${_d}/sdp/problem.cpp ${_d}/sdp/sdpa_format.cpp)
set(ULIBC_SDP_SOURCES
    ${ULIBC_SDP_FILE_SOURCES} ${_d}/sdp/block_matrix.cpp ${_d}/sdp/dense.cpp ${_d}/sdp/cone.cpp ${_d}/sdp/elements.cpp
    ${_d}/sdp/schur_system.cpp ${_d}/sdp/outcome.cpp ${_d}/sdp/sdp.cpp ${_d}/sdp/random_problem.cpp
    ${_d}/sdp/verify.cpp ${_d}/sdp/result_file.cpp)
unset(_d)
