// simpath/verify.cpp — OEIS A007764 and the checks of a reduced ZDD.
#include "simpath/verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "simpath/big_integer.hpp"

namespace ulibc::simpath {

const char* oeis_grid_paths(int cells) {
  static const char* const counts[kOeisGridCells] = {"2",
                                                     "12",
                                                     "184",
                                                     "8512",
                                                     "1262816",
                                                     "575780564",
                                                     "789360053252",
                                                     "3266598486981642",
                                                     "41044208702632496804",
                                                     "1568758030464750013214100",
                                                     "182413291514248049241470885236",
                                                     "64528039343270018963357185158482118",
                                                     "69450664761521361664274701548907358996488",
                                                     "227449714676812739631826459327989863387613323440",
                                                     "2266745568862672746374567396713098934866324885408319028"};
  return cells >= 1 && cells <= kOeisGridCells ? counts[cells - 1] : nullptr;
}

namespace {

std::string ref_text(NodeRef r) {
  if (is_terminal(r)) return fmt::format("the {}-terminal", r);
  return fmt::format("node {} of step {}", ref_index(r), ref_step(r));
}

// Whether `r` is a terminal or a node of a step after `step`.
bool valid_below(const Zdd& z, NodeRef r, int step) {
  if (is_terminal(r)) return true;
  const int to = ref_step(r);
  return to > step && to < static_cast<int>(z.levels.size()) && ref_index(r) < z.levels[to].size();
}

}  // namespace

std::string reduced_zdd_defect(const Zdd& z) {
  const std::size_t m = z.edges.size();
  if (z.levels.size() != m) return fmt::format("{} steps of nodes for {} edges", z.levels.size(), m);
  if (!valid_below(z, z.root, -1)) return fmt::format("the root, {}, is not a node", z.root);
  for (std::size_t i = 0; i < m; ++i) {
    const auto step = static_cast<int>(i);
    std::vector<std::tuple<NodeRef, NodeRef, std::size_t>> children;
    for (std::size_t x = 0; x < z.levels[i].size(); ++x) {
      const ZddNode& n = z.levels[i][x];
      for (const auto& [arc, to] : {std::pair{"lo", n.lo}, std::pair{"hi", n.hi}})
        if (!valid_below(z, to, step))
          return fmt::format("node {} of step {}: its {} arc, {}, leads to no node of a later step", x, i, arc, to);
      if (n.hi == kZero) return fmt::format("node {} of step {}: a hi arc to the 0-terminal", x, i);
      children.emplace_back(n.lo, n.hi, x);
    }
    std::sort(children.begin(), children.end());
    for (std::size_t k = 1; k < children.size(); ++k)
      if (std::get<0>(children[k]) == std::get<0>(children[k - 1]) &&
          std::get<1>(children[k]) == std::get<1>(children[k - 1]))
        return fmt::format("nodes {} and {} of step {} have the same children ({} and {})",
                           std::get<2>(children[k - 1]), std::get<2>(children[k]), i,
                           ref_text(std::get<0>(children[k])), ref_text(std::get<1>(children[k])));
  }
  std::vector<std::vector<char>> reached(m);
  for (std::size_t i = 0; i < m; ++i) reached[i].assign(z.levels[i].size(), 0);
  std::vector<NodeRef> stack{z.root};
  while (!stack.empty()) {
    const NodeRef r = stack.back();
    stack.pop_back();
    if (is_terminal(r) || reached[ref_step(r)][ref_index(r)]) continue;
    reached[ref_step(r)][ref_index(r)] = 1;
    stack.push_back(z.node(r).lo);
    stack.push_back(z.node(r).hi);
  }
  for (std::size_t i = 0; i < m; ++i) {
    const auto it = std::find(reached[i].begin(), reached[i].end(), 0);
    if (it != reached[i].end())
      return fmt::format("node {} of step {} cannot be reached from the root", it - reached[i].begin(), i);
  }
  return "";
}

std::string count_sets_top_down(const Zdd& z) {
  using boost::multiprecision::cpp_int;
  // Children lie on later steps: a step's nodes have all their paths in once the steps above are done.
  std::vector<std::vector<cpp_int>> paths(z.levels.size());
  for (std::size_t i = 0; i < z.levels.size(); ++i) paths[i].resize(z.levels[i].size());
  cpp_int sets = 0;
  const auto add = [&](NodeRef to, const cpp_int& n) {
    if (to == kOne)
      sets += n;
    else if (to != kZero)
      paths[ref_step(to)][ref_index(to)] += n;
  };
  add(z.root, 1);
  for (std::size_t i = 0; i < z.levels.size(); ++i) {
    for (std::size_t x = 0; x < z.levels[i].size(); ++x) {
      add(z.levels[i][x].lo, paths[i][x]);
      add(z.levels[i][x].hi, paths[i][x]);
    }
    std::vector<cpp_int>().swap(paths[i]);
  }
  return sets.str();
}

std::string zdd_defect(const Zdd& zdd, const std::string& count) {
  if (std::string defect = reduced_zdd_defect(zdd); !defect.empty()) return defect;
  const std::string sets = count_sets_top_down(zdd);
  return sets == count ? "" : fmt::format("the ZDD has {} sets, not {}", sets, count);
}

Zdd canonical_form(const Zdd& z) {
  std::vector<std::vector<std::uint64_t>> rank(z.levels.size());
  const auto renamed = [&](NodeRef r) {
    return is_terminal(r) ? r : make_ref(ref_step(r), rank[ref_step(r)][ref_index(r)]);
  };
  Zdd c{.edges = z.edges, .levels = std::vector<std::vector<ZddNode>>(z.levels.size())};
  for (std::size_t i = z.levels.size(); i-- > 0;) {
    std::vector<std::pair<ZddNode, std::uint64_t>> nodes;
    for (std::uint64_t x = 0; x < z.levels[i].size(); ++x)
      nodes.push_back({{renamed(z.levels[i][x].lo), renamed(z.levels[i][x].hi)}, x});
    std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) {
      return a.first.lo != b.first.lo ? a.first.lo < b.first.lo : a.first.hi < b.first.hi;
    });
    rank[i].resize(nodes.size());
    for (std::uint64_t k = 0; k < nodes.size(); ++k) {
      rank[i][nodes[k].second] = k;
      c.levels[i].push_back(nodes[k].first);
    }
  }
  c.root = renamed(z.root);
  return c;
}

}  // namespace ulibc::simpath
