// tasks/worker_line.cpp — the order of a task runtime's workers, and the order in which each looks at the others.
#include "tasks/worker_line.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <tuple>

namespace ulibc::tasks::detail {

std::vector<Placement> worker_line(const Mapping& map) {
  std::vector<Placement> line = map.threads();
  std::stable_sort(line.begin(), line.end(),
                   [](const Placement& a, const Placement& b) { return a.node_index < b.node_index; });
  for (int w = 0; w < static_cast<int>(line.size()); ++w) line[w].thread = w;
  return line;
}

std::vector<int> nearest_workers(const std::vector<Placement>& line, int w,
                                 const std::vector<std::vector<int>>& node_order) {
  const Placement& me = line[w];
  std::vector<int> rank(node_order.size(), 0);
  for (std::size_t k = 0; k < node_order[me.node_index].size(); ++k)
    rank[node_order[me.node_index][k]] = static_cast<int>(k) + 1;
  const auto key = [&](int v) {
    const Placement& p = line[v];
    const bool same_core = p.node_index == me.node_index && p.core_index == me.core_index && me.core_index >= 0;
    return std::tuple(rank[p.node_index], same_core ? 0 : 1, std::abs(v - w), v);
  };
  std::vector<int> out;
  for (int v = 0; v < static_cast<int>(line.size()); ++v)
    if (v != w) out.push_back(v);
  std::sort(out.begin(), out.end(), [&](int a, int b) { return key(a) < key(b); });
  return out;
}

int worker_at(double x, int workers) { return std::clamp(static_cast<int>(std::floor(x + 1e-9)), 0, workers - 1); }

bool spans_workers(double begin, double end) { return std::floor(begin + 1e-9) != std::floor(end + 1e-9); }

}  // namespace ulibc::tasks::detail
