// simpath/zdd.cpp — the ZDD's size and text form.
#include "simpath/zdd.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace ulibc::simpath {

std::uint64_t Zdd::size() const {
  std::uint64_t n = 0;
  for (const auto& l : levels) n += l.size();
  return n;
}

void write_zdd(const Zdd& zdd, Vertex s, Vertex t, std::ostream& out) {
  // Ids: 0 and 1 the terminals, then the nodes of the last step, … of step 0.
  std::vector<std::uint64_t> first_id(zdd.levels.size() + 1, 2);
  for (std::size_t i = zdd.levels.size(); i-- > 0;) first_id[i] = first_id[i + 1] + zdd.levels[i].size();
  const auto id = [&](NodeRef r) { return is_terminal(r) ? r : first_id[ref_step(r) + 1] + ref_index(r); };
  fmt::print(out, "ulibc-zdd 1\n# the simple paths from s to t: each path is the set of edges its hi arcs take\n");
  fmt::print(out, "s {}\nt {}\nedges {}\n", s, t, zdd.edges.size());
  for (std::size_t i = 0; i < zdd.edges.size(); ++i) fmt::print(out, "{} {} {}\n", i, zdd.edges[i].u, zdd.edges[i].v);
  fmt::print(out, "nodes {}\n", zdd.size());
  for (std::size_t i = zdd.levels.size(); i-- > 0;)
    for (std::size_t x = 0; x < zdd.levels[i].size(); ++x)
      fmt::print(out, "{} {} {} {}\n", id(make_ref(static_cast<int>(i), x)), i, id(zdd.levels[i][x].lo),
                 id(zdd.levels[i][x].hi));
  fmt::print(out, "root {}\n", id(zdd.root));
}

}  // namespace ulibc::simpath
