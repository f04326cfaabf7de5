# cmake/sources.cmake — where the source files of the layers and kernels are found, the one place that names any.
#
# A layer or kernel is a folder: its sources are every .cpp file in it (ulibc_sources), so adding a file or a kernel
# names no file here. What is named is what some build takes apart from the rest: the readers that the fuzz targets
# instrument alone (they need no OpenMP, MPI or BLAS), GMRES's cycle (a library of its own, without MPI), and the
# files that compile outside a unity source. Read by layers/ and kernels/ (their libraries) and tests/fuzz (a clang
# project whose objects are instrumented for libFuzzer). Paths are absolute, so that any project can include it.
get_filename_component(ULIBC_SOURCE_ROOT ${CMAKE_CURRENT_LIST_DIR} DIRECTORY)
set(_l ${ULIBC_SOURCE_ROOT}/layers)
set(_k ${ULIBC_SOURCE_ROOT}/kernels)

# ulibc_sources(OUT FOLDER): the .cpp files of FOLDER (layers/graph, kernels/bfs), but a kernel's harness adapter
# <k>/<k>_bench.cpp, which only the kernel's library compiles (it registers command-line options).
function(ulibc_sources out folder)
  file(GLOB sources CONFIGURE_DEPENDS ${ULIBC_SOURCE_ROOT}/${folder}/*.cpp)
  cmake_path(GET folder FILENAME name)
  list(FILTER sources EXCLUDE REGEX "/${name}_bench\\.cpp$")
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

# The file formats of the graph layer, the MPI profile and GMRES's tuning file (keyed JSON), SDPA files.
set(ULIBC_GRAPH_FILE_SOURCES ${_l}/graph/edge_io.cpp ${_l}/graph/dimacs_io.cpp ${_l}/graph/weighted_graph.cpp
                             ${_l}/graph/csr_offsets.cpp)
set(ULIBC_MPI_PROFILE_SOURCES ${_l}/mpi/keyed_file.cpp ${_l}/mpi/comm_profile.cpp)
set(ULIBC_GMRES_TUNING_FILE_SOURCES ${_k}/gmres/tuning_file.cpp)
set(ULIBC_SDP_FILE_SOURCES ${_k}/sdp/problem.cpp ${_k}/sdp/sdpa_format.cpp)
# The --grid RxC reader of the BFS across ranks, apart from its MPI code.
set(ULIBC_BFS_GRID_SHAPE_SOURCES ${_k}/bfs/distributed/grid_shape.cpp)
# GMRES's restarted cycle on one process (no MPI), which the eigensolver's correction equation runs too.
set(ULIBC_GMRES_CYCLE_SOURCES ${_k}/gmres/givens.cpp ${_k}/gmres/gram_schmidt.cpp ${_k}/gmres/krylov.cpp)

# Files that compile on their own, never in a unity source: dimacs_io.cpp's internal names repeat another file's;
# bfs.cpp's Bfs::Impl derives from a class of its anonymous namespace, which GCC questions in any file but the one
# compiled (-Wsubobject-linkage).
set(ULIBC_ALONE_SOURCES ${_l}/graph/dimacs_io.cpp ${_k}/bfs/bfs.cpp)
unset(_l)
unset(_k)
