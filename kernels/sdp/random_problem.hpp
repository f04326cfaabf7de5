// sdp/random_problem.hpp — random semidefinite programs that have an optimum, for tests and benchmarks.
//
// Each constraint matrix is, at random, dense, a tenth full or one or two entries per block it touches, so that all
// three ELEMENTS formulas are chosen; LP blocks are a third full. Both sides are strictly feasible by
// construction — c_k = F_k • I (Y = I is feasible for (D)) and F_0 = Σ F_k x̂_k − I (X = I is feasible for (P)) —
// so an optimal pair exists and the solver must reach pdOPT.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sdp/problem.hpp"

namespace ulibc::sdp {

struct RandomProblemSpec {
  int m = 10;
  std::vector<BlockShape> blocks = {{8, false}, {4, false}, {5, true}};
  std::uint64_t seed = 1;
};

// "random:M:S1,S2,..." (block sizes as SDPA writes them: negative for an LP block; optionally ":SEED"), e.g.
// "random:200:100,50,-50". Error(input) naming the text when it is not of that form.
RandomProblemSpec parse_random_spec(const std::string& text);

// Error(input) for m < 1, no blocks, a block of size < 1, or m beyond the blocks' free entries (the F_k would be
// linearly dependent).
Problem random_problem(const RandomProblemSpec& spec);

}  // namespace ulibc::sdp
