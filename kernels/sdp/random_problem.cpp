// sdp/random_problem.cpp — random constraint matrices and the feasible data built around them.
#include "sdp/random_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "ulibc/error.hpp"

namespace ulibc::sdp {

namespace {

// A random symmetric block's upper-triangle entries: `count` distinct positions (`own` among them, when given),
// values in [−1, 1] away from 0.
std::vector<Entry> random_entries(const BlockShape& shape, long count, const std::pair<int, int>* own,
                                  std::mt19937_64& rng) {
  std::uniform_int_distribution<int> index(0, shape.size - 1);
  std::uniform_real_distribution<double> value(0.1, 1.0);
  std::map<std::pair<int, int>, double> chosen;
  if (own) chosen[*own] = value(rng);
  while (static_cast<long>(chosen.size()) < count) {
    int i = index(rng), j = shape.diagonal ? i : index(rng);
    if (i > j) std::swap(i, j);
    chosen[{i, j}] = (rng() & 1 ? 1 : -1) * value(rng);
  }
  std::vector<Entry> entries;
  for (const auto& [at, v] : chosen) entries.push_back({at.first, at.second, v});
  return entries;
}

// F_0's entries while they are summed: (block, i, j) → value, in the order a ConstraintMatrix stores them.
using BlockMatrixEntries = std::map<std::tuple<int, int, int>, double>;

long positions(const BlockShape& s) { return s.diagonal ? s.size : static_cast<long>(s.size) * (s.size + 1) / 2; }

// How many entries constraint k gets in a block: dense, a tenth, or one or two (LP blocks: a third or one).
long entries_for(const BlockShape& s, std::mt19937_64& rng) {
  const long all = positions(s);
  switch (rng() % 3) {
    case 0:
      return s.diagonal ? std::max(1L, all / 3) : all;
    case 1:
      return std::max(1L, all / 10);
    default:
      return std::min(all, 1 + static_cast<long>(rng() % 2));
  }
}

}  // namespace

RandomProblemSpec parse_random_spec(const std::string& text) {
  const auto refuse = [&] {
    return input_error(fmt::format("{}: expected random:M:S1,S2,...[:SEED] (negative sizes: LP blocks)", text));
  };
  std::vector<std::string> fields;
  std::stringstream in(text);
  for (std::string field; std::getline(in, field, ':');) fields.push_back(field);
  if (fields.size() < 3 || fields.size() > 4 || fields[0] != "random") throw refuse();
  RandomProblemSpec spec{.blocks = {}};
  try {
    std::size_t used = 0;
    spec.m = std::stoi(fields[1], &used);
    if (used != fields[1].size()) throw refuse();
    std::stringstream sizes(fields[2]);
    for (std::string size; std::getline(sizes, size, ',');) {
      const int s = std::stoi(size, &used);
      if (used != size.size()) throw refuse();
      spec.blocks.push_back({std::abs(s), s < 0});
    }
    if (fields.size() == 4) spec.seed = std::stoull(fields[3], &used);
    if (fields.size() == 4 && used != fields[3].size()) throw refuse();
  } catch (const std::logic_error&) {  // std::stoi's invalid_argument and out_of_range
    throw refuse();
  }
  return spec;
}

Problem random_problem(const RandomProblemSpec& spec) {
  long free_entries = 0;
  for (const BlockShape& s : spec.blocks) {
    if (s.size < 1) throw input_error(fmt::format("random problem: a block of size {}", s.size));
    free_entries += positions(s);
  }
  if (spec.blocks.empty()) throw input_error("random problem: no blocks");
  if (spec.m < 1 || spec.m > free_entries)
    throw input_error(
        fmt::format("random problem: m = {} outside 1..{} (the blocks' free entries)", spec.m, free_entries));
  std::mt19937_64 rng(spec.seed);
  Problem p{.blocks = spec.blocks, .c = std::vector<double>(static_cast<std::size_t>(spec.m)), .f = {}};
  p.f.resize(static_cast<std::size_t>(spec.m) + 1);
  std::normal_distribution<double> normal;
  BlockMatrixEntries f0;  // Σ F_k x̂_k − I, accumulated by position
  // Constraint k has a position of its own (the k-th of all positions, block by block), so that the F_k are
  // linearly independent whatever else they share.
  std::vector<std::pair<int, std::pair<int, int>>> own;
  for (int b = 0; b < static_cast<int>(spec.blocks.size()); ++b)
    for (int j = 0; j < spec.blocks[b].size; ++j)
      for (int i = spec.blocks[b].diagonal ? j : 0; i <= j; ++i) own.push_back({b, {i, j}});
  for (int k = 1; k <= spec.m; ++k) {
    const double xk = normal(rng);
    const auto& [own_block, own_at] = own[k - 1];
    for (int b = 0; b < static_cast<int>(spec.blocks.size()); ++b) {
      if (b != own_block && rng() % 2) continue;  // each block but its own one at random
      const long count = entries_for(spec.blocks[b], rng);
      SparseBlock sb{.block = b,
                     .entries = random_entries(spec.blocks[b], count, b == own_block ? &own_at : nullptr, rng)};
      for (const Entry& e : sb.entries) {
        if (e.i == e.j) p.c[k - 1] += e.value;  // F_k • I
        f0[{b, e.i, e.j}] += xk * e.value;
      }
      p.f[k].blocks.push_back(std::move(sb));
    }
  }
  for (int b = 0; b < static_cast<int>(spec.blocks.size()); ++b)
    for (int i = 0; i < spec.blocks[b].size; ++i) f0[{b, i, i}] -= 1;
  for (const auto& [at, v] : f0) {
    const auto [b, i, j] = at;
    if (v == 0) continue;
    if (p.f[0].blocks.empty() || p.f[0].blocks.back().block != b) p.f[0].blocks.push_back({.block = b, .entries = {}});
    p.f[0].blocks.back().entries.push_back({i, j, v});
  }
  return p;
}

}  // namespace ulibc::sdp
