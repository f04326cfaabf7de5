// simpath/reduce.cpp — bottom-up reduction and counting, a step at a time.
//
// A step's nodes are taken in batches: their children's reduced nodes and
// counts are fetched, then each node that stays (hi child not the
// 0-terminal) is looked up by its children in one open-addressing table and
// becomes a new reduced node if none is there yet. The batches hide the
// waits for memory: every lookup is two random reads (the table's slot, then
// the key it names), each prefetched for the whole batch before it is used.
//
// On a team the table is shared: a slot is claimed with a compare-and-swap,
// each thread numbers its new nodes in a list of its own, and the lists are
// laid end to end once the step is done. The reduced ZDD is the same for any
// team up to the order of each step's nodes.
#include "simpath/reduce.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <span>

#include "simpath/big_integer.hpp"
#include "simpath/state_words.hpp"
#include "simpath/wide_count.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"
#include "ulibc/range.hpp"

namespace ulibc::simpath::detail {

std::string to_decimal(const std::uint64_t* limbs, int n) {
  boost::multiprecision::cpp_int value;
  import_bits(value, limbs, limbs + n, 64, false);
  return value.str();
}

namespace {

// Steps with fewer nodes are reduced by one thread: a team's barriers would cost more.
constexpr std::size_t kTeamStep = 4096;
// The distance in nodes between the stages of the reduction's pipeline, and the ring that holds them.
constexpr std::size_t kAhead = 8;
constexpr std::size_t kRing = 32;
static_assert(kRing > 3 * kAhead && std::has_single_bit(kRing));
// The search's steps are freed as the ZDD grows: their memory is handed back
// to the kernel every so often, or the process would hold both whole.
constexpr std::uint64_t kReleaseEvery = std::uint64_t{16} << 20;
// A thread's new node is named, until the step's lists are laid end to end,
// by the thread in the index's bits from 32 up and its place in the list below.
constexpr int kMaxTeam = 256;

std::uint64_t hash_node(const ZddNode& n) {
  const std::uint64_t w[2] = {n.lo, n.hi};
  return hash_words(w, 2);
}

constexpr std::uint64_t kZeroCount[1] = {0};
constexpr std::uint64_t kOneCount[1] = {1};

// The reduction of one diagram, from its last step up. run() is the parallel
// skeleton; a step is reduced by one thread when small or by the team, in
// three phases: set_up (one thread), add_nodes (each thread a share of the
// nodes), lay_out (each thread its list and its share's names).
class Reduction {
 public:
  Reduction(const FrontierPlan& plan, Diagram& diagram, int threads, MemoryBudget& budget)
      : diagram_(diagram),
        budget_(budget),
        threads_(std::min(threads, kMaxTeam)),
        m_(plan.steps()),
        counts_(m_),
        kept_bytes_(m_, 0),
        lists_(threads_),
        thread_bits_(threads_, 0),
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
                                    ulibc::format_bytes(budget_.limit()), failed_step_ + 1, m_));
    result_.zdd.root = resolve(diagram_.root);
    int limbs;
    const std::uint64_t* root_count = count_of(diagram_.root, limbs);
    result_.count = to_decimal(root_count, limbs);
    return std::move(result_);
  }

 private:
  // A node in the pipeline of add_nodes: its children, then its key.
  struct Pending {
    ZddNode key;
    std::uint64_t hash;
  };

  // A small step, by the one thread that calls it: no barriers, no atomics.
  void reduce_alone(int i) {
    set_up(i, 1);
    if (failed()) return;
    add_nodes<false>(i, {0, sizes_[i]}, 0);
    number(i, 1);
    if (!failed()) lay_out(i, 0, {0, sizes_[i]}, false);
    finish();
  }

  // A large step, by every thread of the team, which all return the same:
  // false when the budget ran out.
  bool reduce_in_team(int i, int tid, int team) {
#pragma omp single
    set_up(i, team);
    if (failed()) return false;
    const Range share = even_share(Range{0, sizes_[i]}, tid, team);
    add_nodes<true>(i, share, tid);
#pragma omp barrier
#pragma omp single
    number(i, team);
    if (failed()) return false;
    lay_out(i, tid, share, true);
#pragma omp barrier
#pragma omp single
    finish();
    return true;
  }

  bool failed() const { return failed_step_ >= 0; }
  // A search node's reduced node.
  NodeRef resolve(NodeRef r) const { return is_terminal(r) ? r : counts_[ref_step(r)].tag(ref_index(r)); }
  NodeRef& name(int i, std::size_t x) { return counts_[i].tag(x); }
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
  void prefetch_resolve(NodeRef r) const {
    if (!is_terminal(r)) __builtin_prefetch(counts_[ref_step(r)].at(ref_index(r)) - 1);  // the tag, then the count
  }

  // Step i's names, counts, keys and table, taken from the budget.
  void set_up(int i, int team) {
    const std::size_t n = sizes_[i];
    fit(keys_, n);
    const int limbs = WideCounts::limbs_for_sum(widest_bits_);
    // The memory of the step last let go, if it fits without much to spare:
    // all of it is resident.
    if (const std::size_t words = n * (limbs + 1); spare_.size() > words + words / 4 + 512) spare_ = {};
    counts_[i] = WideCounts(n, limbs, std::move(spare_));
    std::size_t slots = 64;
    while (slots < 2 * n) slots *= 2;
    fit(table_, slots);
    std::fill(table_.begin(), table_.end(), 0);
    shift_ = 64 - std::countr_zero(slots);
    kept_bytes_[i] = counts_[i].bytes();
    scratch_bytes_ = 2 * n * sizeof(ZddNode) + slots * sizeof(std::uint32_t);  // keys, lists, table
    if (!budget_.take(scratch_bytes_ + kept_bytes_[i])) failed_step_ = i;
    for (int t = 0; t < team; ++t) {  // room for every node, so that the lists are not copied as they grow
      fit(lists_[t].nodes, team == 1 ? n : n / team + n / 8, false);
    }
    std::fill(thread_bits_.begin(), thread_bits_.end(), 0);
  }

  // The nodes of `range`: each one's count, and its reduced node (its lo
  // child's, a reduced node found by its children, or a new one in thread
  // t's list). Shared: other threads add to the table at the same time.
  //
  // A pipeline, node x in four stages a distance kAhead apart: its children
  // read and their names and counts prefetched; those used (count, key,
  // hash) and its table slot prefetched; the slot read and the key it names
  // prefetched; the lookup. Each wait for memory overlaps with other nodes' work.
  template <bool kShared>
  void add_nodes(int i, Range range, int t) {
    Pending ring[kRing];
    std::span<const NodeChildren> run;  // the nodes from the first stage's on, side by side
    int bits = 0;
    const std::size_t end = range.end + 3 * kAhead;
    for (std::size_t x = range.begin; x < end; ++x) {
      if (x < range.end) {
        if (run.empty()) run = diagram_.levels[i].run_from(x);
        Pending& p = ring[x % kRing];
        p.key = {diagram_.child(i, x, run.front(), false), diagram_.child(i, x, run.front(), true)};
        run = run.subspan(1);
        prefetch_resolve(p.key.lo), prefetch_resolve(p.key.hi);
      }
      if (const std::size_t y = x - kAhead; x >= range.begin + kAhead && y < range.end) {
        Pending& p = ring[y % kRing];
        bits = std::max(bits, add_count(i, y, p.key.lo, p.key.hi));
        p.key = {resolve(p.key.lo), resolve(p.key.hi)};
        p.hash = hash_node(p.key);
        if (p.key.hi != kZero) __builtin_prefetch(&table_[home(p.hash)]);
      }
      if (const std::size_t y = x - 2 * kAhead; x >= range.begin + 2 * kAhead && y < range.end) {
        const Pending& p = ring[y % kRing];
        if (p.key.hi != kZero)
          if (const std::uint32_t there = load<kShared>(table_[home(p.hash)]); there != 0)
            __builtin_prefetch(&keys_[there - 1]);
      }
      if (const std::size_t y = x - 3 * kAhead; x >= range.begin + 3 * kAhead && y < range.end) {
        const Pending& p = ring[y % kRing];
        if (p.key.hi == kZero)
          name(i, y) = p.key.lo;  // zero-suppressed: the node is its lo child
        else
          add_node<kShared>(i, y, p, t);
      }
    }
    thread_bits_[t] = std::max(thread_bits_[t], bits);
  }

  // Node x's count from its children's; the bits it takes.
  int add_count(int i, std::size_t x, NodeRef lo, NodeRef hi) {
    WideCounts& count = counts_[i];
    int lo_limbs, hi_limbs;
    const std::uint64_t* lo_count = count_of(lo, lo_limbs);
    const std::uint64_t* hi_count = count_of(hi, hi_limbs);
    count.set_sum(x, lo_count, lo_limbs, hi_count, hi_limbs);
    return WideCounts::bits(count.at(x), count.limbs());
  }

  // The reduced node of node x (p its key): the one with its key if the table has it, else
  // a new one. A table slot holds (the first node with its key) + 1.
  template <bool kShared>
  void add_node(int i, std::size_t x, const Pending& p, int t) {
    const std::size_t mask = table_.size() - 1;
    for (std::size_t j = home(p.hash);; j = (j + 1) & mask) {
      std::uint32_t there = load<kShared>(table_[j]);
      if (there == 0) {
        keys_[x] = p.key;
        name(i, x) = make_ref(i, static_cast<std::uint64_t>(t) << 32 | lists_[t].nodes.size());
        if (claim<kShared>(table_[j], static_cast<std::uint32_t>(x + 1), there)) {
          lists_[t].nodes.push_back(p.key);
          return;
        }
      }
      if (keys_[there - 1] == p.key) {
        name(i, x) = name(i, there - 1);
        return;
      }
    }
  }
  template <bool kShared>
  static std::uint32_t load(std::uint32_t& slot) {
    if constexpr (kShared) return std::atomic_ref<std::uint32_t>(slot).load(std::memory_order_acquire);
    return slot;
  }
  // Writes `mine` into an empty slot; false, with the winner in `there`, when another thread was first.
  template <bool kShared>
  static bool claim(std::uint32_t& slot, std::uint32_t mine, std::uint32_t& there) {
    if constexpr (kShared) return std::atomic_ref<std::uint32_t>(slot).compare_exchange_strong(there, mine);
    slot = mine;
    return true;
  }

  // Numbers the threads' lists one after the other and makes room for them;
  // frees what no step above needs any more.
  void number(int i, int team) {
    base_.assign(team + 1, 0);
    for (int t = 0; t < team; ++t) base_[t + 1] = base_[t] + lists_[t].nodes.size();
    if (!budget_.take(base_[team] * sizeof(ZddNode))) failed_step_ = i;
    result_.zdd.levels[i].reserve(base_[team]);
    if (team > 1) result_.zdd.levels[i].resize(base_[team]);
    for (int bits : thread_bits_) widest_bits_ = std::max(widest_bits_, bits);
    release_search_step(i);
    // Steps beyond i + max_skip have no parent left above them.
    if (const int gone = i + diagram_.max_skip; gone < m_ && counts_[gone].limbs() > 0) {
      spare_ = std::move(counts_[gone]).release();
      budget_.give(kept_bytes_[gone]);
    }
  }

  // Thread t's list into place, and the names of its share's nodes made final.
  void lay_out(int i, int t, Range share, bool team) {
    if (!team) {
      // Copied into a level of its exact size: the list, reserved for every
      // node of the step, is kept for the next step instead.
      result_.zdd.levels[i].assign(lists_[0].nodes.begin(), lists_[0].nodes.end());
      return;  // thread 0's names are final already
    }
    std::copy(lists_[t].nodes.begin(), lists_[t].nodes.end(), result_.zdd.levels[i].begin() + base_[t]);
    for (std::size_t x = share.begin; x < share.end; ++x) {
      const NodeRef r = name(i, x);
      if (ref_step(r) != i) continue;  // another step's node: the lo child of a zero-suppressed node
      const std::uint64_t index = ref_index(r);
      name(i, x) = make_ref(i, base_[index >> 32] + (index & 0xFFFFFFFF));
    }
  }

  void finish() { budget_.give(scratch_bytes_); }

  // `v` resized to n (or emptied with room for n), its memory given back
  // when it held four times that: the steps shrink towards the root, where
  // the ZDD is largest.
  template <class T>
  static void fit(std::vector<T>& v, std::size_t n, bool resize = true) {
    if (v.capacity() > 4 * std::max<std::size_t>(n, 1024)) std::vector<T>().swap(v);
    if (resize) return v.resize(n);
    v.clear();
    v.reserve(n);
  }

  // Frees the search's step i, handing the heap back every kReleaseEvery bytes.
  void release_search_step(int i) {
    released_bytes_ += diagram_.levels[i].bytes();
    diagram_.levels[i].release(budget_);
    if (released_bytes_ >= kReleaseEvery) ulibc::release_free_heap(), released_bytes_ = 0;
  }

  std::size_t home(std::uint64_t h) const { return static_cast<std::size_t>(h >> shift_); }

  Diagram& diagram_;
  MemoryBudget& budget_;
  const int threads_;
  const int m_;
  Reduced result_;
  // Per step, each search node's count, tagged with its reduced node. A
  // node's children lie at most max_skip steps below it: only that many steps are kept.
  std::vector<WideCounts> counts_;
  harness::PageArray<std::uint64_t> spare_;  // the counts of the step last let go, for the next step's
  std::vector<std::uint64_t> kept_bytes_;
  int widest_bits_ = 1;  // the widest count so far: the 1-terminal's
  // The step being reduced: each staying node's key, the table of keys, and each thread's new nodes.
  std::vector<ZddNode> keys_;
  std::vector<std::uint32_t> table_;
  int shift_ = 64;
  struct alignas(64) List {  // a line of its own: each thread appends to its list at every new node
    std::vector<ZddNode> nodes;
  };
  std::vector<List> lists_;
  std::vector<int> thread_bits_;
  std::vector<std::uint64_t> base_;
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
