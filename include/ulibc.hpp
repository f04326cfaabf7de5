// ulibc.hpp — the C++ API of ULIBC: the machine (Topology), a policy and the
// thread → processor table it gives (Mapping), and binding by it (affinity).
// Errors are ulibc::Error.
#pragma once
#include "ulibc/affinity.hpp"
#include "ulibc/cpuset.hpp"
#include "ulibc/error.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"
