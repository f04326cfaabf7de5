// simpath/reduce.hpp — from the search's diagram to the reduced ZDD and its count.
#pragma once
#include <string>

#include "simpath/build.hpp"
#include "simpath/zdd.hpp"

namespace ulibc::simpath::detail {

struct Reduced {
  Zdd zdd;
  std::string count;  // the sets of the family (s-t paths), in decimal
};

// Bottom up, step by step: a node whose hi child is the 0-terminal becomes its
// lo child, and nodes of a step with equal children become one; the family's
// size is counted on the way. Consumes `diagram` (each step freed once done).
// Runs on an OpenMP team of `threads`; the result does not depend on it, up
// to the order of each step's nodes.
// Error(input) when `budget` runs out.
Reduced reduce_and_count(const FrontierPlan& plan, Diagram& diagram, int threads, MemoryBudget& budget);

}  // namespace ulibc::simpath::detail
