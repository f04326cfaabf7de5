// simpath/reduce.cpp — bottom-up reduction and counting, a step at a time.
//
// Within a step the work is parallel: the nodes' children are resolved and
// their counts summed in a parallel loop; the merging of equal nodes is split
// by hash into kParts partitions, each merged by one thread in node order, so
// the reduced nodes are numbered the same for any team.
#include "simpath/reduce.hpp"

#include <omp.h>

#include <array>

#include <boost/multiprecision/cpp_int.hpp>
#include <fmt/format.h>

#include "simpath/state_table.hpp"
#include "simpath/wide_count.hpp"
#include "ulibc/error.hpp"
#include "ulibc/memory.hpp"

namespace ulibc::simpath {

std::string to_decimal(const std::uint64_t* limbs, int n) {
  boost::multiprecision::cpp_int value;
  import_bits(value, limbs, limbs + n, 64, false);
  return value.str();
}

namespace {

constexpr int kParts = 64;
constexpr std::uint8_t kNoPart = 0xFF;  // the node is replaced by its lo child

std::uint64_t hash_node(const ZddNode& n) {
  const std::uint64_t w[2] = {n.lo, n.hi};
  return hash_words(w, 2);
}
int part_of(std::uint64_t hash) { return static_cast<int>(hash >> 58); }  // kParts == 64

// One partition's distinct nodes of a step, numbered as first seen.
class UniqueTable {
 public:
  void reset(std::size_t expected) {
    nodes.clear();
    std::size_t size = 16;
    while (size < 2 * expected) size *= 2;
    slots_.assign(size, 0);
  }
  std::uint32_t find_or_insert(const ZddNode& key) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash_node(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == 0) {
        nodes.push_back(key);
        slots_[i] = static_cast<std::uint32_t>(nodes.size());
        return slots_[i] - 1;
      }
      if (nodes[slots_[i] - 1] == key) return slots_[i] - 1;
    }
  }
  std::vector<ZddNode> nodes;

 private:
  std::vector<std::uint32_t> slots_;  // 0 empty, else index + 1
};

constexpr std::uint64_t kZeroCount[1] = {0};
constexpr std::uint64_t kOneCount[1] = {1};

}  // namespace

Reduced reduce_and_count(const FrontierPlan& plan, Diagram& diagram, int threads, MemoryBudget& budget) {
  Reduced result;
  const int m = plan.steps();
  result.zdd.edges = plan.edges();
  result.zdd.levels.resize(m);
  if (m == 0) {
    result.count = "0";
    return result;
  }
  // Step i+1's map (search node -> reduced node) and counts, and step i's.
  std::vector<NodeRef> next_map, map;
  WideCounts next_counts(0, 1), counts;
  int next_bits = 1;  // the widest count below: the 1-terminal's
  std::vector<ZddNode> keys;
  std::vector<std::uint8_t> part;
  std::vector<std::uint32_t> local;
  std::vector<std::array<std::vector<std::uint32_t>, kParts>> buckets(threads);
  std::vector<int> thread_bits(threads, 0);
  std::array<UniqueTable, kParts> tables;
  std::array<std::uint64_t, kParts + 1> base{};
  std::uint64_t scratch_bytes = 0;
  int failed_step = -1;

#pragma omp parallel num_threads(threads)
  {
    const int tid = omp_get_thread_num(), team = omp_get_num_threads();
    for (int i = m - 1; i >= 0; --i) {
#pragma omp single
      {
        const std::size_t n = diagram.levels[i].size();
        map.assign(n, kZero);
        keys.resize(n);
        part.resize(n);
        local.resize(n);
        counts = WideCounts(n, WideCounts::limbs_for_sum(next_bits));
        scratch_bytes = n * (sizeof(NodeRef) + sizeof(ZddNode) + 5) + counts.bytes();
        if (!budget.take(scratch_bytes)) failed_step = i;
        for (auto& b : buckets)
          for (auto& list : b) list.clear();
      }
      if (failed_step >= 0) break;
      // Resolve the children, sum the counts, bucket the nodes that stay.
      const LevelNodes& nodes = diagram.levels[i];
      int bits = 0;
      const auto resolve = [&](Child c) { return c == kZeroChild ? kZero : c == kOneChild ? kOne : next_map[c]; };
      const auto count_of = [&](Child c, int& limbs) {
        limbs = c >= kOneChild ? 1 : next_counts.limbs();
        return c == kZeroChild ? kZeroCount : c == kOneChild ? kOneCount : next_counts.at(c);
      };
#pragma omp for schedule(static)
      for (std::size_t x = 0; x < map.size(); ++x) {
        const NodeChildren c = nodes[static_cast<std::uint32_t>(x)];
        int lo_limbs, hi_limbs;
        const std::uint64_t* lo_count = count_of(c.lo, lo_limbs);
        const std::uint64_t* hi_count = count_of(c.hi, hi_limbs);
        counts.set_sum(x, lo_count, lo_limbs, hi_count, hi_limbs);
        bits = std::max(bits, WideCounts::bits(counts.at(x), counts.limbs()));
        const ZddNode key{resolve(c.lo), resolve(c.hi)};
        if (key.hi == kZero) {
          map[x] = key.lo;
          part[x] = kNoPart;
        } else {
          keys[x] = key;
          part[x] = static_cast<std::uint8_t>(part_of(hash_node(key)));
          buckets[tid][part[x]].push_back(static_cast<std::uint32_t>(x));
        }
      }
      thread_bits[tid] = bits;
      // Merge equal nodes, one partition per thread at a time, in node order.
#pragma omp for schedule(dynamic, 1)
      for (int p = 0; p < kParts; ++p) {
        std::size_t expected = 0;
        for (int t = 0; t < team; ++t) expected += buckets[t][p].size();
        tables[p].reset(expected);
        for (int t = 0; t < team; ++t)
          for (std::uint32_t x : buckets[t][p]) local[x] = tables[p].find_or_insert(keys[x]);
      }
#pragma omp single
      {
        for (int p = 0; p < kParts; ++p) base[p + 1] = base[p] + tables[p].nodes.size();
        if (!budget.take(base[kParts] * sizeof(ZddNode))) failed_step = i;
        result.zdd.levels[i].resize(base[kParts]);
        if (i + 1 < m) diagram.levels[i + 1].release(budget);
        next_bits = 0;
        for (int t = 0; t < team; ++t) next_bits = std::max(next_bits, thread_bits[t]);
      }
      if (failed_step >= 0) break;
#pragma omp for schedule(dynamic, 1)
      for (int p = 0; p < kParts; ++p)
        std::copy(tables[p].nodes.begin(), tables[p].nodes.end(), result.zdd.levels[i].begin() + base[p]);
#pragma omp for schedule(static)
      for (std::size_t x = 0; x < map.size(); ++x)
        if (part[x] != kNoPart) map[x] = make_ref(i, base[part[x]] + local[x]);
#pragma omp single
      {
        std::swap(map, next_map);
        std::swap(counts, next_counts);
        budget.give(scratch_bytes);
      }
    }
  }
  if (failed_step >= 0)
    throw input_error(fmt::format("reducing the diagram outgrew the memory limit of {} at edge {} of {}",
                                  format_bytes(budget.limit()), failed_step + 1, m));
  diagram.levels[0].release(budget);
  result.zdd.root = next_map[0];
  result.count = to_decimal(next_counts.at(0), next_counts.limbs());
  return result;
}

}  // namespace ulibc::simpath
