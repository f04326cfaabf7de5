// ulibc.hpp — the C++ API of ULIBC: the machine (Topology), a policy and the
// thread → processor table it gives (Mapping). Errors are ulibc::Error.
#pragma once
#include "ulibc/cpuset.hpp"
#include "ulibc/error.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"
