# kernels/sources.cmake — the source files of the graph layer and of each kernel, listed once.
#
# Read by kernels/CMakeLists.txt (the kernels' libraries), tests/numa_lab (a static guest program that compiles the
# graph kernels again, with fmt header-only: Debian ships no static libfmt) and tests/fuzz (a clang project whose
# objects are instrumented for libFuzzer). Neither can link the release build's objects, so each compiles these
# lists itself; none names a kernel's file again. Paths are absolute, so that any project can include this file.
set(_d ${CMAKE_CURRENT_LIST_DIR})

# The graph layer (GAP-style: one header per concern). Its files: the readers and writers, which need neither
# OpenMP nor the library (the fuzz targets build them alone), and the parallel builders and generators.
set(ULIBC_GRAPH_FILE_SOURCES ${_d}/graph/edge_io.cpp ${_d}/graph/dimacs_io.cpp ${_d}/graph/weighted_graph.cpp
                             ${_d}/graph/csr_offsets.cpp)
set(ULIBC_GRAPH_SOURCES ${ULIBC_GRAPH_FILE_SOURCES} ${_d}/graph/csr_graph.cpp ${_d}/graph/builder.cpp
                        ${_d}/graph/generator.cpp ${_d}/graph/road_generator.cpp)
