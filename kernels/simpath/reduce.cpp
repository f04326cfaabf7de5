// simpath/reduce.cpp — bottom-up reduction and counting, a step at a time.
//
// Within a step the work is parallel: the nodes' children are resolved and
// their counts summed in a parallel loop; the merging of equal nodes is split
// by hash into kParts partitions, each merged by one thread in node order, so
// the reduced nodes are numbered the same for any team.
#include "simpath/reduce.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <array>

#include "harness/process_memory.hpp"
#include "simpath/big_integer.hpp"
#include "simpath/state_words.hpp"
#include "simpath/wide_count.hpp"
#include "ulibc/error.hpp"
#include "ulibc/range.hpp"

namespace ulibc::simpath::detail {

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

// The reduction of one diagram, from its last step up. run() is the parallel
// skeleton; a step is reduced by one thread when small (reduce_alone) or by
// the team (reduce_in_team), in the phases below: set_up, resolve_nodes
// (over a share of the nodes), merge (per partition), number, place (per
// partition), map_nodes (per thread).
class Reduction {
 public:
  Reduction(const FrontierPlan& plan, Diagram& diagram, int threads, MemoryBudget& budget)
      : diagram_(diagram),
        budget_(budget),
        threads_(threads),
        m_(plan.steps()),
        maps_(m_),
        counts_(m_),
        kept_bytes_(m_, 0),
        buckets_(threads),
        ids_(threads),
        thread_bits_(threads, 0),
        sizes_(m_) {
    result_.zdd.edges = plan.edges();
    result_.zdd.levels.resize(m_);
    // Read before any step is released: every thread must take the same branches.
    for (int i = 0; i < m_; ++i) sizes_[i] = diagram.levels[i].size();
  }

  Reduced run() {
    if (is_terminal(diagram_.root)) {
      result_.zdd.root = diagram_.root;
      // Built, then moved in: assigning the literal trips GCC 12's -Wrestrict false positive (bug 105329).
      result_.count = std::string(diagram_.root == kOne ? "1" : "0");
      return std::move(result_);
    }
#pragma omp parallel num_threads(threads_)
    {
      const int tid = omp_get_thread_num(), team = omp_get_num_threads();
      for (int i = m_ - 1; i >= 0 && !failed(); --i) {
        if (sizes_[i] == 0) continue;
        if (sizes_[i] < kTeamStep || team == 1) {
#pragma omp single
          reduce_alone(i);
        } else if (!reduce_in_team(i, tid, team)) {
          break;
        }
      }
    }
    if (failed())
      throw input_error(fmt::format("reducing the diagram outgrew the memory limit of {} at edge {} of {}",
                                    harness::format_bytes(budget_.limit()), failed_step_ + 1, m_));
    result_.zdd.root = resolve(diagram_.root);
    int limbs;
    const std::uint64_t* root_count = count_of(diagram_.root, limbs);
    result_.count = to_decimal(root_count, limbs);
    return std::move(result_);
  }

 private:
  // A small step, by the one thread that calls it: no barriers.
  void reduce_alone(int i) {
    set_up(i);
    if (!failed()) {
      resolve_nodes(i, {0, sizes_[i]}, 0);
      for (int p = 0; p < kParts; ++p) merge(p);
      number(i);
    }
    if (!failed()) {
      for (int p = 0; p < kParts; ++p) place(i, p);
      map_nodes(i, 0);
    }
    budget_.give(scratch_bytes_);
  }

  // A large step, by every thread of the team, which all return the same:
  // false when the budget ran out.
  bool reduce_in_team(int i, int tid, int team) {
#pragma omp single
    set_up(i);
    if (failed()) return false;
    resolve_nodes(i, even_share(Range{0, sizes_[i]}, tid, team), tid);
#pragma omp barrier
#pragma omp for schedule(dynamic, 1)
    for (int p = 0; p < kParts; ++p) merge(p);
#pragma omp single
    number(i);
    if (failed()) return false;
#pragma omp for schedule(dynamic, 1)
    for (int p = 0; p < kParts; ++p) place(i, p);
    map_nodes(i, tid);
#pragma omp barrier
#pragma omp single
    budget_.give(scratch_bytes_);
    return true;
  }

  bool failed() const { return failed_step_ >= 0; }
  // A search node's reduced node.
  NodeRef resolve(NodeRef r) const { return is_terminal(r) ? r : maps_[ref_step(r)][ref_index(r)]; }
  // A search node's count, of `limbs` limbs.
  const std::uint64_t* count_of(NodeRef r, int& limbs) const {
    if (is_terminal(r)) {
      limbs = 1;
      return r == kOne ? kOneCount : kZeroCount;
    }
    const WideCounts& c = counts_[ref_step(r)];
    limbs = c.limbs();
    return c.at(ref_index(r));
  }

  // Step i's maps, counts and scratch, taken from the budget.
  void set_up(int i) {
    const std::size_t n = sizes_[i];
    maps_[i].assign(n, kZero);
    keys_.resize(n);
    counts_[i] = WideCounts(n, WideCounts::limbs_for_sum(widest_bits_));
    kept_bytes_[i] = n * sizeof(NodeRef) + counts_[i].bytes();
    scratch_bytes_ = n * (sizeof(ZddNode) + 12);  // keys, bucket entries, ids
    if (!budget_.take(scratch_bytes_ + kept_bytes_[i])) failed_step_ = i;
    for (auto& b : buckets_)
      for (auto& list : b) list.clear();
    std::fill(thread_bits_.begin(), thread_bits_.end(), 0);
  }

  // Resolves the children of the nodes in `range`, sums their counts and
  // buckets the nodes that stay; thread `tid` writes its own buckets only.
  void resolve_nodes(int i, Range range, int tid) {
    const LevelNodes& nodes = diagram_.levels[i];
    WideCounts& count = counts_[i];
    std::vector<NodeRef>& map = maps_[i];
    auto& buckets = buckets_[tid];
    int bits = 0;
    for (std::size_t x = range.begin; x < range.end; ++x) {
      const NodeChildren c = nodes[x];
      int lo_limbs, hi_limbs;
      const std::uint64_t* lo_count = count_of(c.lo, lo_limbs);
      const std::uint64_t* hi_count = count_of(c.hi, hi_limbs);
      count.set_sum(x, lo_count, lo_limbs, hi_count, hi_limbs);
      bits = std::max(bits, WideCounts::bits(count.at(x), count.limbs()));
      const ZddNode key{resolve(c.lo), resolve(c.hi)};
      if (key.hi == kZero) {
        map[x] = key.lo;  // zero-suppressed: the node is its lo child
      } else {
        keys_[x] = key;
        buckets[part_of(hash_node(key))].push_back(x);
      }
    }
    thread_bits_[tid] = std::max(thread_bits_[tid], bits);
  }

  // Merges partition p's equal nodes, in node order (the threads' buckets hold ascending ranges).
  void merge(int p) {
    std::size_t expected = 0;
    for (const auto& b : buckets_) expected += b[p].size();
    tables_[p].reset(expected);
    for (std::size_t t = 0; t < buckets_.size(); ++t) {
      ids_[t][p].resize(buckets_[t][p].size());
      for (std::size_t k = 0; k < buckets_[t][p].size(); ++k)
        ids_[t][p][k] = tables_[p].find_or_insert(keys_[buckets_[t][p][k]]);
    }
  }

  // Numbers the partitions' nodes one after the other and makes room for
  // them; frees what no step above needs any more.
  void number(int i) {
    for (int p = 0; p < kParts; ++p) base_[p + 1] = base_[p] + tables_[p].nodes.size();
    if (!budget_.take(base_[kParts] * sizeof(ZddNode))) failed_step_ = i;
    result_.zdd.levels[i].resize(base_[kParts]);
    for (int bits : thread_bits_) widest_bits_ = std::max(widest_bits_, bits);
    release_search_step(i);
    // Steps beyond i + max_skip have no parent left above them.
    if (const int gone = i + diagram_.max_skip; gone < m_ && counts_[gone].limbs() > 0) {
      std::vector<NodeRef>().swap(maps_[gone]);
      counts_[gone] = WideCounts();
      budget_.give(kept_bytes_[gone]);
    }
  }

  // Frees the search's step i, handing the heap back every kReleaseEvery bytes.
  void release_search_step(int i) {
    released_bytes_ += diagram_.levels[i].bytes();
    diagram_.levels[i].release(budget_);
    if (released_bytes_ >= kReleaseEvery) harness::release_free_heap(), released_bytes_ = 0;
  }

  void place(int i, int p) {
    std::copy(tables_[p].nodes.begin(), tables_[p].nodes.end(), result_.zdd.levels[i].begin() + base_[p]);
  }

  // The numbers of thread t's nodes that stay (its range, so its cache lines).
  void map_nodes(int i, int t) {
    for (int p = 0; p < kParts; ++p)
      for (std::size_t k = 0; k < buckets_[t][p].size(); ++k)
        maps_[i][buckets_[t][p][k]] = make_ref(i, base_[p] + ids_[t][p][k]);
  }

  Diagram& diagram_;
  MemoryBudget& budget_;
  const int threads_;
  const int m_;
  Reduced result_;
  // Per step, search node -> reduced node and its count. A node's children
  // lie at most max_skip steps below it: only that many steps are kept.
  std::vector<std::vector<NodeRef>> maps_;
  std::vector<WideCounts> counts_;
  std::vector<std::uint64_t> kept_bytes_;
  int widest_bits_ = 1;  // the widest count so far: the 1-terminal's
  std::vector<ZddNode> keys_;
  // buckets_[t][p]: the nodes of thread t's range in partition p, ascending;
  // ids_[t][p]: their numbers within the partition. Kept apart per thread
  // and partition, so that no two threads write to one cache line.
  std::vector<std::array<std::vector<std::uint64_t>, kParts>> buckets_;
  std::vector<std::array<std::vector<std::uint32_t>, kParts>> ids_;
  std::vector<int> thread_bits_;
  std::array<UniqueTable, kParts> tables_;
  std::array<std::uint64_t, kParts + 1> base_{};
  std::vector<std::size_t> sizes_;  // nodes per step of the search
  std::uint64_t scratch_bytes_ = 0;
  std::uint64_t released_bytes_ = 0;  // of the search's nodes, since the heap was last trimmed
  int failed_step_ = -1;
};

}  // namespace

Reduced reduce_and_count(const FrontierPlan& plan, Diagram& diagram, int threads, MemoryBudget& budget) {
  return Reduction(plan, diagram, threads, budget).run();
}

}  // namespace ulibc::simpath::detail
