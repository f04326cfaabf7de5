// ulibc.hpp — the C++ API of ULIBC: the machine (Topology), a policy and the
// thread → processor table it gives (Mapping), binding by it (affinity),
// and node-local memory (memory, NodeArray).
// Errors are ulibc::Error.
#pragma once
#include "ulibc/affinity.hpp"
#include "ulibc/cpuset.hpp"
#include "ulibc/error.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/node_array.hpp"
#include "ulibc/partition.hpp"
#include "ulibc/topology.hpp"
