// mapping/policy.cpp — the placement policies by name, and the policy and thread count from the environment.
#include <algorithm>

#include "config/environment.hpp"
#include "ulibc/error.hpp"
#include "ulibc/mapping.hpp"

namespace ulibc {

namespace {
constexpr std::string_view kAccepted = "scatter, compact, compact+, none, list:<cpulist> (e.g. list:0,8,16-23)";

// A cpulist whose order matters: "3,1,4-6" → 3 1 4 5 6. Each item is checked
// by the set parser so that errors read the same as everywhere else.
std::vector<int> parse_ordered_list(std::string_view text) {
  std::vector<int> order;
  std::size_t pos = 0;
  do {
    const std::size_t comma = text.find(',', pos);
    const std::string_view item = text.substr(pos, comma == text.npos ? text.npos : comma - pos);
    if (item.empty()) throw input_error("policy list:" + std::string(text) + ": empty item");
    CpuSet range;
    try {
      range = CpuSet::parse_list(item);
    } catch (const Error& e) {
      throw input_error("policy list:" + std::string(text) + ": " + e.what());
    }
    for (int id : range) order.push_back(id);
    pos = comma == text.npos ? text.npos : comma + 1;
  } while (pos != text.npos);
  return order;
}
}  // namespace

Policy Policy::explicit_list(std::vector<int> order) {
  if (order.empty()) throw input_error("policy list: needs at least one processor");
  Policy p(PolicyKind::list);
  p.order_ = std::move(order);
  return p;
}

Policy Policy::parse(std::string_view text) {
  if (text == "scatter") return Policy(PolicyKind::scatter);
  if (text == "compact") return Policy(PolicyKind::compact);
  if (text == "compact+" || text == "compact_plus") return Policy(PolicyKind::compact_plus);
  if (text == "none") return Policy(PolicyKind::none);
  if (text.substr(0, 5) == "list:") {
    if (text.size() == 5) throw input_error("policy \"list:\" names no processor; e.g. list:0,8,16-23");
    return explicit_list(parse_ordered_list(text.substr(5)));
  }
  throw input_error("unknown policy \"" + std::string(text) + "\"; accepted: " + std::string(kAccepted));
}

std::string Policy::name() const {
  switch (kind_) {
    case PolicyKind::none:
      return "none";
    case PolicyKind::scatter:
      return "scatter";
    case PolicyKind::compact:
      return "compact";
    case PolicyKind::compact_plus:
      return "compact+";
    case PolicyKind::list:
      break;
  }
  std::string s = "list:";
  for (std::size_t i = 0; i < order_.size(); ++i) s += (i ? "," : "") + std::to_string(order_[i]);
  return s;
}

Policy policy_from_env(const Policy& fallback) {
  const auto text = config::policy();
  if (!text) return fallback;
  try {
    return Policy::parse(*text);
  } catch (const Error& e) {
    throw input_error(std::string(config::kPolicy) + ": " + e.what());
  }
}

int threads_from_env(int fallback) { return config::thread_count().value_or(fallback); }

// At least 1, so that a machine with no usable processor reaches
// Mapping::build and gets its error there.
int threads_from_env(const Topology& topo) { return threads_from_env(std::max(1, topo.usable().count())); }

}  // namespace ulibc
