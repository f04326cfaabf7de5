// simpath/frontier.cpp — the slot layout of every step.
#include "simpath/frontier.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ulibc/error.hpp"

namespace ulibc::simpath::detail {

namespace {

// Step::enter and Step::gather, for a working layout of at most 16 slots.
void set_lanes(Step& st) {
  if (st.work_width > 16) return;
  for (int p = st.width; p < st.work_width; ++p) st.enter[p] = static_cast<std::uint8_t>(p);
  const int lu = st.u_leaves ? st.u : 255, lv = st.v_leaves ? st.v : 255;
  int q = 0;
  for (int p = 0; p < 16; ++p) st.renumber[p] = static_cast<std::uint8_t>(p - (p > lu) - (p > lv));
  for (int p = 0; p < st.work_width; ++p)
    if (p != lu && p != lv) st.gather[q++] = static_cast<std::uint8_t>(p);
  for (; q < 16; ++q) st.gather[q] = 0x80;
}

}  // namespace

FrontierPlan::FrontierPlan(const PathProblem& problem, std::vector<PathEdge> order) : edges_(std::move(order)) {
  const auto m = static_cast<int>(edges_.size());
  std::vector<int> first(problem.vertices, -1), last(problem.vertices, -1);
  for (int i = 0; i < m; ++i)
    for (Vertex x : {edges_[i].u, edges_[i].v}) {
      if (first[x] < 0) first[x] = i;
      last[x] = i;
    }
  std::vector<Vertex> frontier;  // vertices in slot order
  const auto slot_of = [&](Vertex x) {
    const auto it = std::find(frontier.begin(), frontier.end(), x);
    return it == frontier.end() ? static_cast<int>(kAbsent) : static_cast<int>(it - frontier.begin());
  };
  steps_.resize(m);
  for (int i = 0; i < m; ++i) {
    const PathEdge e = edges_[i];
    Step& st = steps_[i];
    st.width = static_cast<std::uint8_t>(frontier.size());
    for (Vertex x : {e.u, e.v})
      if (first[x] == i) frontier.push_back(x);
    if (frontier.size() > static_cast<std::size_t>(kMaxFrontier))
      throw input_error(
          fmt::format("the frontier grows to {} vertices at edge {} of {} ({{{}, {}}}); a state holds "
                      "at most {}: this graph is beyond frontier-based search in this order",
                      frontier.size(), i + 1, m, e.u, e.v, kMaxFrontier));
    st.work_width = static_cast<std::uint8_t>(frontier.size());
    max_width_ = std::max(max_width_, static_cast<int>(frontier.size()));
    st.u = static_cast<std::uint8_t>(slot_of(e.u));
    st.v = static_cast<std::uint8_t>(slot_of(e.v));
    st.s_slot = static_cast<std::uint8_t>(slot_of(problem.s));
    st.t_slot = static_cast<std::uint8_t>(slot_of(problem.t));
    st.u_leaves = last[e.u] == i;
    st.v_leaves = last[e.v] == i;
    st.last = i == m - 1;
    std::erase_if(frontier, [&](Vertex x) { return last[x] == i; });
    st.next_width = static_cast<std::uint8_t>(frontier.size());
    set_lanes(st);
  }
}

}  // namespace ulibc::simpath::detail
