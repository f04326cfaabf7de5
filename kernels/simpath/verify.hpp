// simpath/verify.hpp — known path counts and the checks of a ZDD of paths, for the tests and `ulibc bench simpath`.
//
// A count is trusted when it matches OEIS A007764 (grids) and the ZDD that
// gave it is a well-formed reduced ZDD whose sets, counted again by another
// method, are as many.
#pragma once
#include <string>

#include "simpath/zdd.hpp"

namespace ulibc::simpath {

// The simple paths between opposite corners of the K x K-cell grid, OEIS
// A007764 (whose n is K + 1), in decimal; nullptr beyond the K known here.
const char* oeis_grid_paths(int cells);
inline constexpr int kOeisGridCells = 15;  // the largest K known here

// The first way `zdd` is not a reduced ZDD, or "" when it is one: a level per
// edge; every arc (and the root) a terminal or a node of a later step; no hi
// arc to the 0-terminal; no two nodes of a step with the same children; every
// node reachable from the root. An empty family is the 0-terminal alone.
std::string reduced_zdd_defect(const Zdd& zdd);

// The sets of a well-formed `zdd` (reduced_zdd_defect() empty), counted top
// down in any precision: the paths from the root to each node, summed into
// the 1-terminal. It shares nothing with solve()'s bottom-up count but the arcs.
std::string count_sets_top_down(const Zdd& zdd);

// reduced_zdd_defect(), then whether the ZDD has `count` sets: "" when both hold.
std::string zdd_defect(const Zdd& zdd, const std::string& count);

// `zdd` with its nodes renumbered canonically: bottom up, each step's nodes
// sorted by their children's new numbers. Two ZDDs are the same diagram
// exactly when their canonical forms are equal; the parallel search numbers
// its nodes as its threads' timing has it.
Zdd canonical_form(const Zdd& zdd);

}  // namespace ulibc::simpath
