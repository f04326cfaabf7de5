// lab.cpp — the team shapes and failure wording shared by the guest checks.
#include "lab.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <exception>
#include <set>

namespace lab {

const ulibc::Topology& live() {
  static const ulibc::Topology topo = ulibc::Topology::load();
  return topo;
}

std::vector<ulibc::Mapping> team_mappings(const ulibc::Topology& topo) {
  // Shapes from the description, not from the topology under test.
  const int usable = machine().usable().count();
  const std::set<int> counts{1, std::min(2, usable), std::max(1, usable / 2), usable};
  std::vector<ulibc::Mapping> candidates;
  for (auto kind : {ulibc::PolicyKind::scatter, ulibc::PolicyKind::compact, ulibc::PolicyKind::compact_plus})
    for (int n : counts) candidates.push_back(ulibc::Mapping::build(topo, ulibc::Policy(kind), n));
  std::vector<int> order = machine().usable().ids();
  std::reverse(order.begin(), order.end());
  candidates.push_back(ulibc::Mapping::build(topo, ulibc::Policy::explicit_list(order), usable));
  // Policies often agree (one thread, or every processor of a small
  // machine): a placement already checked is not checked again, which keeps
  // each emulated machine's run to seconds.
  std::set<std::vector<int>> seen;
  std::vector<ulibc::Mapping> out;
  for (auto& map : candidates) {
    std::vector<int> procs;
    for (const auto& p : map.threads()) procs.push_back(p.proc);
    if (seen.insert(procs).second) out.push_back(std::move(map));
  }
  return out;
}

std::string where(const ulibc::Mapping& map) {
  return "machine " + machine().name + ", policy " + map.policy().name() + ", " + std::to_string(map.size()) +
         (map.size() == 1 ? " thread" : " threads");
}

std::string where(const std::string& what) { return "machine " + machine().name + ", " + what; }

void check(const std::string& context, const std::function<void()>& body) {
  SCOPED_TRACE(context);
  try {
    body();
  } catch (const std::exception& e) {
    ADD_FAILURE() << context << ": threw " << e.what();
  }
}

std::string describe(const ulibc::PagePlacement& p) {
  std::string s = std::to_string(p.pages) + " pages:";
  for (const auto& [node, pages] : p.per_node)
    s += " node " + std::to_string(node) + ": " + std::to_string(pages) + ",";
  return s + " absent " + std::to_string(p.absent);
}

void touch(void* data, std::size_t bytes) {
  auto* bytes_ptr = static_cast<volatile unsigned char*>(data);
  for (std::size_t off = 0; off < bytes; off += ulibc::page_size()) bytes_ptr[off] = 1;
  if (bytes > 0) bytes_ptr[bytes - 1] = 1;
}

}  // namespace lab
