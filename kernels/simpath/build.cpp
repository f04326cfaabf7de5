// simpath/build.cpp — the sequential search and the edge-based pipeline.
#include "simpath/build.hpp"

#include <omp.h>

#include <atomic>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "simpath/request_queue.hpp"
#include "simpath/state_table.hpp"
#include "ulibc/error.hpp"
#include "ulibc/memory.hpp"

namespace ulibc::simpath {

namespace {

constexpr int kMaxStateWords = 256 / 8;
// Child states are looked up in batches, their table slots and then their
// states prefetched first (state_table.hpp says why).
constexpr int kBatch = 16;
static_assert(kBatch <= RequestQueue::kMinBlockRecords);

const Mate* bytes(const std::uint64_t* words) { return reinterpret_cast<const Mate*>(words); }

// Sets node `index`'s terminal children and hands each node child to
// `deliver(parent, taken, state)`, which returns false to stop the search.
template <class Deliver>
bool expand(const Step& st, LevelNodes& nodes, std::uint32_t index, const std::uint64_t* state, Deliver&& deliver) {
  for (const bool take : {false, true}) {
    std::uint64_t out[kMaxStateWords];
    switch (child(st, bytes(state), take, reinterpret_cast<Mate*>(out))) {
      case Outcome::zero:
        (take ? nodes[index].hi : nodes[index].lo) = kZeroChild;
        break;
      case Outcome::one:
        (take ? nodes[index].hi : nodes[index].lo) = kOneChild;
        break;
      case Outcome::node:
        if (!deliver(index, take, out)) return false;
        break;
    }
  }
  return true;
}

// Step i's node for `state` (of hash h), made if new: the table and the node array grow together.
StateTable::Found add_state(StateTable& table, LevelNodes& nodes, const std::uint64_t* state, std::uint64_t h,
                            MemoryBudget& budget) {
  StateTable::Found f = table.find_or_insert(state, h);
  if (f.index != StateTable::kFull && f.inserted && !nodes.push(budget)) f.index = StateTable::kFull;
  return f;
}

std::uint64_t total_nodes(const std::vector<LevelNodes>& levels) {
  std::uint64_t n = 0;
  for (const LevelNodes& l : levels) n += l.size();
  return n;
}

[[noreturn]] void out_of_memory(const FrontierPlan& plan, int step, const std::vector<LevelNodes>& levels,
                                const MemoryBudget& budget) {
  throw input_error(fmt::format(
      "the search outgrew its memory limit of {} at edge {} of {}, with {} nodes made (frontier up to {} vertices): "
      "allow more with --memory-limit, or try another --order",
      format_bytes(budget.limit()), step + 1, plan.steps(), total_nodes(levels), plan.max_width()));
}

void build_sequential(const FrontierPlan& plan, Diagram& d, MemoryBudget& budget) {
  auto table = std::make_unique<StateTable>(plan.state_words(0), budget);
  const std::uint64_t root[kMaxStateWords] = {};
  if (add_state(*table, d.levels[0], root, table->hash(root), budget).index == StateTable::kFull)
    out_of_memory(plan, 0, d.levels, budget);
  // Children waiting for their lookup.
  struct Pending {
    std::uint32_t parent;
    bool take;
    std::uint64_t hash;
    std::uint64_t state[kMaxStateWords];
  };
  std::vector<Pending> batch(2 * kBatch);
  for (int i = 0; i < plan.steps(); ++i) {
    auto next = std::make_unique<StateTable>(plan.state_words(i + 1), budget);
    if (!next->reserve(table->size())) out_of_memory(plan, i, d.levels, budget);  // steps change size gradually
    LevelNodes& nodes = d.levels[i];
    LevelNodes* next_nodes = i + 1 < plan.steps() ? &d.levels[i + 1] : nullptr;
    int pending = 0;
    const auto defer = [&](std::uint32_t parent, bool take, const std::uint64_t* state) {
      Pending& p = batch[pending++];
      p.parent = parent;
      p.take = take;
      std::copy(state, state + plan.state_words(i + 1), p.state);
      p.hash = next->hash(p.state);
      next->prefetch_slot(p.hash);
      return true;
    };
    for (std::uint32_t x0 = 0; x0 < table->size(); x0 += kBatch) {
      const std::uint32_t x1 = std::min<std::uint32_t>(table->size(), x0 + kBatch);
      for (std::uint32_t x = x0; x < x1; ++x) expand(plan.step(i), nodes, x, table->state(x), defer);
      for (int j = 0; j < pending; ++j) next->prefetch_state(batch[j].hash);
      for (int j = 0; j < pending; ++j) {
        const Pending& p = batch[j];
        const StateTable::Found f = add_state(*next, *next_nodes, p.state, p.hash, budget);
        if (f.index == StateTable::kFull) out_of_memory(plan, i, d.levels, budget);
        (p.take ? nodes[p.parent].hi : nodes[p.parent].lo) = f.index;
      }
      pending = 0;
    }
    table = std::move(next);
  }
}

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// The edge-based pipeline on a team of `threads`.
void build_edge_based(const FrontierPlan& plan, Diagram& d, MemoryBudget& budget, int threads) {
  const int m = plan.steps();
  std::vector<std::unique_ptr<RequestQueue>> queues(m + 1);  // queues[i]: child states for step i
  for (int i = 1; i < m; ++i) queues[i] = std::make_unique<RequestQueue>(plan.state_words(i), budget);
  std::atomic<bool> stop{false};
  std::atomic<int> failed_step{m};
  const auto fail = [&](int step) {
    int expected = m;
    failed_step.compare_exchange_strong(expected, step);
    stop.store(true, std::memory_order_relaxed);
  };

#pragma omp parallel num_threads(threads)
  {
    const int k = omp_get_num_threads();
    for (int i = omp_get_thread_num(); i < m && !stop.load(std::memory_order_relaxed); i += k) {
      StateTable table(plan.state_words(i), budget);
      // This thread's previous step (i - k) is done: its size is a hint for this one's.
      bool ok = i < k || table.reserve(d.levels[i - k].size());
      LevelNodes& nodes = d.levels[i];
      RequestQueue* out = queues[i + 1].get();  // null after the last step: its children are terminals
      const auto deliver = [&](std::uint32_t parent, bool take, const std::uint64_t* state) {
        return out->push(std::uint64_t{parent} << 1 | static_cast<std::uint64_t>(take), state);
      };
      const auto add_and_expand = [&](const std::uint64_t* state, std::uint64_t h, Child* slot) {
        const StateTable::Found f = add_state(table, nodes, state, h, budget);
        if (slot) *slot = f.index;
        if (f.index == StateTable::kFull) return false;
        return !f.inserted || expand(plan.step(i), nodes, f.index, state, deliver);
      };
      if (ok && i == 0) {
        const std::uint64_t root[kMaxStateWords] = {};
        ok = add_and_expand(root, table.hash(root), nullptr);
      } else if (ok) {
        LevelNodes& parents = d.levels[i - 1];
        int idle = 0;
        for (bool done = false; ok && !done && !stop.load(std::memory_order_relaxed);) {
          const std::uint64_t* batch[kBatch];
          std::uint64_t hash[kBatch];
          int n = 0;
          while (n < kBatch && (batch[n] = queues[i]->pop(done)) != nullptr) {
            hash[n] = table.hash(batch[n] + 1);
            table.prefetch_slot(hash[n++]);
          }
          for (int j = 0; j < n; ++j) table.prefetch_state(hash[j]);
          if (n == 0 && !done) {
            if (++idle < 256) relax();
            else std::this_thread::yield();
            continue;
          }
          idle = 0;
          for (int j = 0; ok && j < n; ++j) {
            NodeChildren& parent = parents[static_cast<std::uint32_t>(batch[j][0] >> 1)];
            ok = add_and_expand(batch[j] + 1, hash[j], (batch[j][0] & 1) ? &parent.hi : &parent.lo);
          }
        }
        if (ok && !stop.load()) queues[i].reset();  // drained and closed: nobody touches it again
      }
      if (!ok) fail(i);
      if (out) out->close();
    }
  }
  if (stop.load()) out_of_memory(plan, failed_step.load(), d.levels, budget);
}

}  // namespace

std::vector<std::uint64_t> Diagram::states() const {
  std::vector<std::uint64_t> n;
  for (const LevelNodes& l : levels) n.push_back(l.size());
  return n;
}

Diagram build_diagram(const FrontierPlan& plan, int threads, MemoryBudget& budget) {
  if (threads < 1) throw input_error(fmt::format("the search needs at least one thread, not {}", threads));
  Diagram d;
  d.levels.resize(static_cast<std::size_t>(std::max(plan.steps(), 1)));
  if (plan.steps() == 0) {
    // No edges: the root is the only node, and no path exists.
    if (!d.levels[0].push(budget)) out_of_memory(plan, 0, d.levels, budget);
    d.levels[0][0] = {kZeroChild, kZeroChild};
    return d;
  }
  if (threads == 1) build_sequential(plan, d, budget);
  else build_edge_based(plan, d, budget, threads);
  return d;
}

}  // namespace ulibc::simpath
