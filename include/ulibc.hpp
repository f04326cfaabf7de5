// ulibc.hpp — the C++ API of ULIBC: the machine (Topology) and its x86 APIC
// ids (apic), a policy and the thread → processor table it gives (Mapping),
// binding by it (affinity), node-local memory (memory, NodeArray), the NUMA
// barrier and loops, fork/join tasks (tasks), the environment that places an
// unmodified OpenMP program (openmp_environment), and where a running
// process's threads and memory really are (inspect).
// Errors are ulibc::Error.
#pragma once
#include "ulibc/affinity.hpp"
#include "ulibc/apic.hpp"
#include "ulibc/barrier.hpp"
#include "ulibc/cpuset.hpp"
#include "ulibc/error.hpp"
#include "ulibc/inspect.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/node_array.hpp"
#include "ulibc/node_loop.hpp"
#include "ulibc/openmp_environment.hpp"
#include "ulibc/partition.hpp"
#include "ulibc/rank_share.hpp"
#include "ulibc/tasks.hpp"
#include "ulibc/topology.hpp"
