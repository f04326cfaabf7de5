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

#include "harness/process_memory.hpp"
#include "simpath/state_words.hpp"
#include "simpath/wide_count.hpp"
#include "ulibc/error.hpp"

namespace ulibc::simpath {

std::string to_decimal(const std::uint64_t* limbs, int n) {
  boost::multiprecision::cpp_int value;
  import_bits(value, limbs, limbs + n, 64, false);
  return value.str();
}

namespace {

constexpr int kParts = 64;
// Steps with fewer nodes are reduced by one thread: a team's barriers would cost more.
constexpr std::size_t kTeamStep = 4096;
// The search's steps are freed as the ZDD grows: their memory is handed back
// to the kernel every so often, or the process would hold both whole.
constexpr std::uint64_t kReleaseEvery = std::uint64_t{64} << 20;

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
  if (is_terminal(diagram.root)) {
    result.zdd.root = diagram.root;
    result.count = diagram.root == kOne ? "1" : "0";
    return result;
  }
  // Per step, search node -> reduced node and its count. A node's children
  // lie at most max_skip steps below it: only that many steps are kept.
  std::vector<std::vector<NodeRef>> maps(m);
  std::vector<WideCounts> counts(m);
  std::vector<std::uint64_t> kept_bytes(m, 0);
  int widest_bits = 1;  // the widest count so far: the 1-terminal's
  std::vector<ZddNode> keys;
  // buckets[t][p]: the nodes of thread t's range in partition p, ascending;
  // ids[t][p]: their numbers within the partition. Kept apart per thread
  // and partition, so that no two threads write to one cache line.
  std::vector<std::array<std::vector<std::uint64_t>, kParts>> buckets(threads);
  std::vector<std::array<std::vector<std::uint32_t>, kParts>> ids(threads);
  std::vector<int> thread_bits(threads, 0);
  std::array<UniqueTable, kParts> tables;
  std::array<std::uint64_t, kParts + 1> base{};
  std::uint64_t scratch_bytes = 0;
  std::uint64_t released_bytes = 0;  // of the search's nodes, since the heap was last trimmed
  int failed_step = -1;

  const auto resolve = [&](NodeRef r) { return is_terminal(r) ? r : maps[ref_step(r)][ref_index(r)]; };
  const auto count_of = [&](NodeRef r, int& limbs) {
    if (is_terminal(r)) {
      limbs = 1;
      return r == kOne ? kOneCount : kZeroCount;
    }
    const WideCounts& c = counts[ref_step(r)];
    limbs = c.limbs();
    return c.at(ref_index(r));
  };

  // The phases of one step, over a range of its nodes or one partition.
  const auto set_up = [&](int i, std::size_t n) {
    maps[i].assign(n, kZero);
    keys.resize(n);
    counts[i] = WideCounts(n, WideCounts::limbs_for_sum(widest_bits));
    kept_bytes[i] = n * sizeof(NodeRef) + counts[i].bytes();
    scratch_bytes = n * (sizeof(ZddNode) + 12);  // keys, bucket entries, ids
    if (!budget.take(scratch_bytes + kept_bytes[i])) failed_step = i;
    for (auto& b : buckets)
      for (auto& list : b) list.clear();
    std::fill(thread_bits.begin(), thread_bits.end(), 0);
  };
  // Resolve the children, sum the counts, bucket the nodes that stay.
  const auto resolve_nodes = [&](int i, std::size_t begin, std::size_t end, int tid) {
    const LevelNodes& nodes = diagram.levels[i];
    WideCounts& count = counts[i];
    int bits = 0;
    for (std::size_t x = begin; x < end; ++x) {
      const NodeChildren c = nodes[x];
      int lo_limbs, hi_limbs;
      const std::uint64_t* lo_count = count_of(c.lo, lo_limbs);
      const std::uint64_t* hi_count = count_of(c.hi, hi_limbs);
      count.set_sum(x, lo_count, lo_limbs, hi_count, hi_limbs);
      bits = std::max(bits, WideCounts::bits(count.at(x), count.limbs()));
      const ZddNode key{resolve(c.lo), resolve(c.hi)};
      if (key.hi == kZero) {
        maps[i][x] = key.lo;  // zero-suppressed: the node is its lo child
      } else {
        keys[x] = key;
        buckets[tid][part_of(hash_node(key))].push_back(x);
      }
    }
    thread_bits[tid] = std::max(thread_bits[tid], bits);
  };
  // Merge a partition's equal nodes, in node order (threads' buckets hold ascending ranges).
  const auto merge = [&](int p) {
    std::size_t expected = 0;
    for (const auto& b : buckets) expected += b[p].size();
    tables[p].reset(expected);
    for (std::size_t t = 0; t < buckets.size(); ++t) {
      ids[t][p].resize(buckets[t][p].size());
      for (std::size_t k = 0; k < buckets[t][p].size(); ++k) ids[t][p][k] = tables[p].find_or_insert(keys[buckets[t][p][k]]);
    }
  };
  const auto number = [&](int i) {
    for (int p = 0; p < kParts; ++p) base[p + 1] = base[p] + tables[p].nodes.size();
    if (!budget.take(base[kParts] * sizeof(ZddNode))) failed_step = i;
    result.zdd.levels[i].resize(base[kParts]);
    for (int bits : thread_bits) widest_bits = std::max(widest_bits, bits);
    released_bytes += diagram.levels[i].bytes();
    diagram.levels[i].release(budget);
    if (released_bytes >= kReleaseEvery) harness::release_free_heap(), released_bytes = 0;
    // Steps beyond i + max_skip have no parent left above them.
    if (const int gone = i + diagram.max_skip; gone < m && counts[gone].limbs() > 0) {
      std::vector<NodeRef>().swap(maps[gone]);
      counts[gone] = WideCounts();
      budget.give(kept_bytes[gone]);
    }
  };
  const auto place = [&](int i, int p) {
    std::copy(tables[p].nodes.begin(), tables[p].nodes.end(), result.zdd.levels[i].begin() + base[p]);
  };
  // The numbers of thread t's nodes that stay (its range, so its cache lines).
  const auto map_nodes = [&](int i, int t) {
    for (int p = 0; p < kParts; ++p)
      for (std::size_t k = 0; k < buckets[t][p].size(); ++k)
        maps[i][buckets[t][p][k]] = make_ref(i, base[p] + ids[t][p][k]);
  };

  // Read before any step is released: every thread must take the same branches.
  std::vector<std::size_t> sizes(m);
  for (int i = 0; i < m; ++i) sizes[i] = diagram.levels[i].size();

#pragma omp parallel num_threads(threads)
  {
    const int tid = omp_get_thread_num(), team = omp_get_num_threads();
    for (int i = m - 1; i >= 0 && failed_step < 0; --i) {
      const std::size_t n = sizes[i];
      if (n == 0) continue;
      if (n < kTeamStep || team == 1) {
        // A small step: one thread does it all, sparing the team its barriers.
#pragma omp single
        {
          set_up(i, n);
          if (failed_step < 0) {
            resolve_nodes(i, 0, n, tid);
            for (int p = 0; p < kParts; ++p) merge(p);
            number(i);
          }
          if (failed_step < 0) {
            for (int p = 0; p < kParts; ++p) place(i, p);
            map_nodes(i, tid);
          }
          budget.give(scratch_bytes);
        }
        continue;
      }
#pragma omp single
      set_up(i, n);
      if (failed_step >= 0) break;
      const std::size_t begin = n * tid / team, end = n * (tid + 1) / team;
      resolve_nodes(i, begin, end, tid);
#pragma omp barrier
#pragma omp for schedule(dynamic, 1)
      for (int p = 0; p < kParts; ++p) merge(p);
#pragma omp single
      number(i);
      if (failed_step >= 0) break;
#pragma omp for schedule(dynamic, 1)
      for (int p = 0; p < kParts; ++p) place(i, p);
      map_nodes(i, tid);
#pragma omp barrier
#pragma omp single
      budget.give(scratch_bytes);
    }
  }
  if (failed_step >= 0)
    throw input_error(fmt::format("reducing the diagram outgrew the memory limit of {} at edge {} of {}",
                                  harness::format_bytes(budget.limit()), failed_step + 1, m));
  result.zdd.root = resolve(diagram.root);
  int limbs;
  const std::uint64_t* root_count = count_of(diagram.root, limbs);
  result.count = to_decimal(root_count, limbs);
  return result;
}

}  // namespace ulibc::simpath
