// lab.hpp — what every guest check shares: the team shapes it runs and the
// words its failures are reported in (machine, policy, threads).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "machine.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/topology.hpp"

namespace lab {

// The live topology, loaded once (the topology check loads its own).
const ulibc::Topology& live();

// scatter, compact and compact+ with 1, 2, half and all usable processors,
// and one list policy (every usable processor, highest id first); each
// distinct placement (processor of every thread) once.
std::vector<ulibc::Mapping> team_mappings(const ulibc::Topology& topo);

// "machine smt_pairs, policy compact, 4 threads": the first words of a failure.
std::string where(const ulibc::Mapping& map);
std::string where(const std::string& what);

// Runs one case of a check under `context` (SCOPED_TRACE): a failed ASSERT
// ends only this case, and an exception is a failure that names the context
// (an escaping one would lose it, and skip the remaining cases).
void check(const std::string& context, const std::function<void()>& body);

// "1024 pages: node 0: 512, node 1: 512, absent 0".
std::string describe(const ulibc::PagePlacement& p);

// Writes one byte per page, so that every page of the range exists.
void touch(void* data, std::size_t bytes);

}  // namespace lab
