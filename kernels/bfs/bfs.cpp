// bfs/bfs.cpp — one direction-optimizing search for both kernels.
//
// A search is one OpenMP parallel region whose threads go through phases
// separated by barriers: initialisation, then one phase per level (top-down
// or bottom-up) and one per change of frontier representation (queue to
// bitmap and back). Each thread works on its own part's vertices only; the
// counts that decide the direction are reduced before each barrier, so every
// thread makes the same decision after it.
#include "bfs/bfs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "bfs/frontier.hpp"
#include "bfs/search_graph.hpp"
#include "ulibc/error.hpp"

namespace ulibc::bfs {

namespace {

using namespace detail;

// Work handed out at a time. Top-down: frontier vertices, few enough that a
// handful of huge-degree vertices spread over the threads. Bottom-up: bitmap
// words (64 vertices each), many enough that taking a chunk costs little
// against scanning its unvisited vertices' lists.
constexpr std::int64_t kQueueChunk = 64;
constexpr std::int64_t kWordChunk = 16;

// A part's chunk counters (used by its own threads) and its queue's append
// counters (used by every thread): on separate lines.
struct alignas(64) PartCounters {
  Counter taken[kSlots];
};
struct alignas(64) PartAppends {
  Counter added[kSlots];  // vertices appended to the part's queue in the phase
};
// The team's sums over a phase: vertices discovered, and the degrees of those
// vertices (Beamer's scout count: the edges the next top-down step examines).
struct alignas(64) Totals {
  Counter found[kSlots];
  Counter scout[kSlots];
};

// The per-vertex state of a search, every array split at the part boundaries.
struct State {
  PartArray<Vertex> parent;
  // Part p's queue lies in [first(p), last(p)): a vertex enters at most once
  // per search, so each level's frontier follows the last one there.
  PartArray<Vertex> queue;
  PartArray<Word> visited;
  // The frontier as bitmaps, for bottom-up steps: the current one and the
  // next. Outside bottom-up phases the current one is all zeros.
  PartArray<Word> bits[2];
  // Vertices no search can reach (degree 0), and the bits beyond n: what
  // visited starts as, so that bottom-up steps never look at them.
  PartArray<Word> never;

  State(const Topology* topo, const Layout& l)
      : parent(topo, l.vertex_counts(), l.nodes()),
        queue(topo, l.vertex_counts(), l.nodes()),
        visited(topo, l.word_counts(), l.nodes()),
        bits{{topo, l.word_counts(), l.nodes()}, {topo, l.word_counts(), l.nodes()}},
        never(topo, l.word_counts(), l.nodes()) {}

  std::size_t bytes() const {
    return parent.bytes() + queue.bytes() + visited.bytes() + bits[0].bytes() + bits[1].bytes() + never.bytes();
  }
};

// What a kernel holds: its layout, graph and state, and the counters its searches share.
struct Engine {
  Layout layout;
  SearchGraph graph;
  State state;
  std::vector<QueueBlocks> blocks;  // by thread
  std::unique_ptr<PartCounters[]> counters;
  std::unique_ptr<PartAppends[]> appends;
  Totals totals;
  std::vector<Step> steps;

  // make(layout) gives the graph, laid out for the layout's parts.
  template <class Make>
  Engine(Layout l, const Topology* topo, Make&& make)
      : layout(std::move(l)),
        graph(make(layout)),
        state(topo, layout),
        blocks(static_cast<std::size_t>(layout.threads())),
        counters(std::make_unique<PartCounters[]>(static_cast<std::size_t>(layout.parts()))),
        appends(std::make_unique<PartAppends[]>(static_cast<std::size_t>(layout.parts()))) {
    run_parallel(layout, [&](int t) { prepare(t); });
  }

  // Thread t's share of the state, written first by t (placing the pages of
  // the plain kernel's ordinary allocations), and the never bitmap.
  void prepare(int t) {
    const int p = layout.part_of(t);
    const Interval w = layout.word_slice(t);
    const GraphPart& part = graph.part(p);
    for (std::int64_t i = w.begin; i < w.end; ++i) {
      Word none = 0;
      for (int b = 0; b < kWordBits; ++b) {
        const std::int64_t v = i * kWordBits + b;
        if (v >= part.last || part.degree(static_cast<Vertex>(v)) == 0) none |= Word{1} << b;
      }
      state.never[i] = none;
      state.visited[i] = state.bits[0][i] = state.bits[1][i] = 0;
    }
    const Interval v = vertices_of(t);
    std::fill(state.parent.data() + v.begin, state.parent.data() + v.end, kUnreached);
    std::fill(state.queue.data() + v.begin, state.queue.data() + v.end, 0);
    blocks[t] = QueueBlocks(layout.parts());
  }

  // The vertices of thread t's word slice.
  Interval vertices_of(int t) const {
    const Interval w = layout.word_slice(t);
    const std::int64_t last = layout.last(layout.part_of(t));
    return {std::min(w.begin * kWordBits, last), std::min(w.end * kWordBits, last)};
  }

  // Before a search: every counter zero, the root alone in its part's queue.
  void reset(Vertex root) {
    for (int p = 0; p < layout.parts(); ++p)
      for (int s = 0; s < kSlots; ++s) {
        counters[p].taken[s] = 0;
        appends[p].added[s] = 0;
      }
    for (int s = 0; s < kSlots; ++s) totals.found[s] = totals.scout[s] = 0;
    const int p = layout.owner(root);
    state.queue[layout.first(p)] = root;
    appends[p].added[slot(0)] = 1;
    steps.clear();
  }
};

// One thread's part in one search.
class Searcher {
 public:
  Searcher(Engine& engine, int thread, Vertex root, const Params& params)
      : e_(engine),
        s_(engine.state),
        l_(engine.layout),
        t_(thread),
        p_(l_.part_of(thread)),
        mine_(engine.graph.part(p_)),
        blocks_(engine.blocks[thread]),
        root_(root),
        params_(params),
        end_(static_cast<std::size_t>(l_.parts()), 0) {}

  void run() {
    initialise();
    end_phase();
    if (params_.direction == Direction::bottom_up) {
      for (std::int64_t awake = 1; awake > 0;) awake = bottom_up_level(awake);
      return;
    }
    // Beamer's rule: bottom-up once the frontier's edges (scout) exceed a
    // share of the edges top-down steps have not examined yet; back to
    // top-down once the frontier shrinks below a share of the vertices.
    std::int64_t frontier = 1, scout = root_degree(), unexamined = e_.graph.arcs();
    const double small = static_cast<double>(l_.vertices()) / params_.beta;
    while (frontier > 0) {
      if (params_.direction == Direction::optimizing &&
          static_cast<double>(scout) > static_cast<double>(unexamined) / params_.alpha) {
        queue_to_front();
        end_phase();
        std::int64_t awake = frontier, before = 0;
        do {
          before = awake;
          awake = bottom_up_level(awake);
        } while (awake > 0 && (awake >= before || static_cast<double>(awake) > small));
        front_to_queue();
        end_phase();
      } else {
        unexamined -= scout;
        top_down_step();
        end_phase();
        record(Direction::top_down, frontier);
      }
      frontier = found_total_;
      scout = scout_total_;
    }
  }

 private:
  // Parents unreached, visited = never, the current bitmap clear; the root
  // is set by the thread whose share holds it (the queue already holds it).
  void initialise() {
    const Interval w = l_.word_slice(t_);
    const Interval v = e_.vertices_of(t_);
    std::fill(s_.parent.data() + v.begin, s_.parent.data() + v.end, kUnreached);
    std::copy(s_.never.data() + w.begin, s_.never.data() + w.end, s_.visited.data() + w.begin);
    std::fill(front() + w.begin, front() + w.end, Word{0});
    if (root_ >= v.begin && root_ < v.end) {
      s_.parent[root_] = root_;
      s_.visited[word_of(root_)] |= bit_of(root_);
      if (params_.direction == Direction::bottom_up) front()[word_of(root_)] |= bit_of(root_);
    }
  }

  // Each frontier vertex's unvisited neighbours join the next frontier, in
  // their own part's queue, with the frontier vertex as parent.
  void top_down_step() {
    const Vertex* queue = s_.queue.data() + mine_.first;
    Word* visited = s_.visited.data();
    Vertex* parent = s_.parent.data();
    for_each_dealt(taken(), window_.begin, window_.end, kQueueChunk, [&](std::int64_t i) {
      const Vertex u = queue[i];
      for (const Vertex v : mine_.neighbours_of(u)) {
        if (!claim(visited, v)) continue;
        parent[v] = u;
        ++found_;
        blocks_.push(l_.owner(v), v, appender());
      }
    });
    blocks_.flush_all(appender());
  }

  // Each unvisited vertex of this part looks for a neighbour in the
  // frontier. A word of the bitmaps belongs to one thread here, so no atomics.
  void bottom_up_step() {
    const Word* frontier = front();
    Word* next = s_.bits[cur_ ^ 1].data();
    Word* visited = s_.visited.data();
    const Interval words = l_.words_of(p_);
    for_each_chunk(taken(), words.begin, words.end, kWordChunk, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t w = begin; w < end; ++w) {
        const Word found = ~visited[w] == 0 ? 0 : bottom_up_word(w, frontier);
        next[w] = found;
        visited[w] |= found;
        found_ += std::popcount(found);
      }
    });
  }

  // The unvisited vertices of word w that find a parent in the frontier.
  // First each one's top neighbour, usually the parent, read from an array
  // in vertex order; then the lists of those whose top was not in the
  // frontier, all prefetched first so that their cache misses overlap.
  Word bottom_up_word(std::int64_t w, const Word* frontier) {
    Vertex* parent = s_.parent.data();
    Word found = 0, rest = 0;
    for_each_bit(~s_.visited[w], w, [&](Vertex u) {
      const Vertex top = mine_.top[u - mine_.first];
      if (test(frontier, top)) {
        parent[u] = top;
        found |= bit_of(u);
      } else {
        rest |= bit_of(u);
        __builtin_prefetch(mine_.neighbours_of(u).data() + 1);
      }
    });
    for_each_bit(rest, w, [&](Vertex u) {
      for (const Vertex v : mine_.neighbours_of(u).subspan(1))  // never empty: degree-0 vertices are never unvisited
        if (test(frontier, v)) {
          parent[u] = v;
          found |= bit_of(u);
          break;
        }
    });
    return found;
  }

  std::int64_t bottom_up_level(std::int64_t frontier) {
    bottom_up_step();
    end_phase();
    cur_ ^= 1;
    record(Direction::bottom_up, frontier);
    return found_total_;
  }

  // The queues' last window into the current bitmap (all zeros before).
  void queue_to_front() {
    const Vertex* queue = s_.queue.data() + mine_.first;
    Word* bits = front();
    for_each_chunk(taken(), window_.begin, window_.end, kQueueChunk, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t i = begin; i < end; ++i) set_shared(bits, queue[i]);
    });
  }

  // The current bitmap into the queues, clearing it as it goes: it is the
  // one the next switch to bottom-up fills.
  void front_to_queue() {
    Word* bits = front();
    const Interval words = l_.words_of(p_);
    for_each_chunk(taken(), words.begin, words.end, kWordChunk, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t w = begin; w < end; ++w) {
        if (bits[w] == 0) continue;
        found_ += std::popcount(bits[w]);
        for_each_bit(bits[w], w, [&](Vertex u) { blocks_.push(p_, u, appender()); });
        bits[w] = 0;
      }
    });
    blocks_.flush_all(appender());
  }

  // The barrier that ends a phase. Before it, this thread's counts join the
  // team's; after it, every thread reads the same sums and queue windows,
  // and the counters of the phase after next are cleared (see frontier.hpp).
  void end_phase() {
    const int now = slot(phase_);
    if (found_ != 0) e_.totals.found[now].fetch_add(found_, std::memory_order_relaxed);
    if (scout_ != 0) e_.totals.scout[now].fetch_add(scout_, std::memory_order_relaxed);
    found_ = scout_ = 0;
#pragma omp barrier
    found_total_ = e_.totals.found[now].load(std::memory_order_relaxed);
    scout_total_ = e_.totals.scout[now].load(std::memory_order_relaxed);
    for (int p = 0; p < l_.parts(); ++p) {
      const std::int64_t begin = end_[p];
      end_[p] += e_.appends[p].added[now].load(std::memory_order_relaxed);
      if (p == p_) window_ = {begin, end_[p]};
    }
    ++phase_;
    if (l_.rank(t_) == 0) {
      clear_slot(e_.counters[p_].taken, phase_ + 1);
      clear_slot(e_.appends[p_].added, phase_ + 1);
    }
    if (t_ == 0) {
      clear_slot(e_.totals.found, phase_ + 1);
      clear_slot(e_.totals.scout, phase_ + 1);
    }
  }

  // Appends a block to part p's queue, after the part's current window, and
  // adds its vertices' degrees to the scout count. Summed here, a block at a
  // time, rather than as each vertex is claimed: the claim's locked
  // instruction would let only one of those cache misses be in flight.
  void append(int p, std::span<const Vertex> block) {
    const std::int64_t at =
        e_.appends[p].added[slot(phase_)].fetch_add(static_cast<std::int64_t>(block.size()), std::memory_order_relaxed);
    std::copy(block.begin(), block.end(), s_.queue.data() + l_.first(p) + end_[p] + at);
    const GraphPart& part = e_.graph.part(p);
    for (const Vertex v : block) scout_ += part.degree(v);
  }
  struct Appender {
    Searcher* searcher;
    void operator()(int p, std::span<const Vertex> block) const { searcher->append(p, block); }
  };
  Appender appender() { return {this}; }

  void record(Direction d, std::int64_t frontier) {
    if (t_ == 0) e_.steps.push_back({.direction = d, .frontier = frontier, .discovered = found_total_});
  }

  Counter& taken() { return e_.counters[p_].taken[slot(phase_)]; }
  Word* front() { return s_.bits[cur_].data(); }
  std::int64_t root_degree() const { return e_.graph.part(l_.owner(root_)).degree(root_); }

  Engine& e_;  // what the kernel holds, shared by the team
  State& s_;
  const Layout& l_;
  const int t_;
  const int p_;
  const GraphPart& mine_;
  QueueBlocks& blocks_;
  const Vertex root_;
  const Params params_;

  int phase_ = 0;
  int cur_ = 0;                                     // which of s_.bits is the current frontier
  std::vector<std::int64_t> end_;                   // by part: where its queue's last window ends
  Interval window_;                                 // this part's last window: its frontier, top-down
  std::int64_t found_ = 0, scout_ = 0;              // this thread's, in the current phase
  std::int64_t found_total_ = 0, scout_total_ = 0;  // the team's, in the last phase
};

void check_threads(int threads) {
  if (threads < 1) throw input_error(fmt::format("BFS: a team needs at least 1 thread, not {}", threads));
}

}  // namespace

struct Bfs::Impl : Engine {
  using Engine::Engine;
};

Bfs::Bfs(const CsrGraph& g, int threads) {
  check_threads(threads);
  impl_ = std::make_unique<Impl>(Layout(g.vertices(), threads), nullptr,
                                 [&](const Layout& l) { return SearchGraph(g, l, nullptr); });
}

Bfs::Bfs(const CsrGraph& g, const Topology& topo, const Mapping& map)
    : impl_(std::make_unique<Impl>(Layout(g.vertices(), map), &topo,
                                   [&](const Layout& l) { return SearchGraph(g, l, &topo); })) {}

namespace {

Vertex vertices_of(const graph::Tuples& tuples) {
  if (tuples.vertices() < 0 || tuples.vertices() > graph::kMaxVertices)
    throw input_error(fmt::format("edge list: {} vertices, outside the 0..{} that 32-bit ids allow", tuples.vertices(),
                                  graph::kMaxVertices));
  return static_cast<Vertex>(tuples.vertices());
}

}  // namespace

Bfs::Bfs(const graph::Tuples& tuples, int threads, graph::BuildReport* report) {
  check_threads(threads);
  impl_ = std::make_unique<Impl>(Layout(vertices_of(tuples), threads), nullptr,
                                 [&](const Layout& l) { return SearchGraph(tuples, l, nullptr, report); });
}

Bfs::Bfs(const graph::Tuples& tuples, const Topology& topo, const Mapping& map, graph::BuildReport* report)
    : impl_(std::make_unique<Impl>(Layout(vertices_of(tuples), map), &topo,
                                   [&](const Layout& l) { return SearchGraph(tuples, l, &topo, report); })) {}

Bfs::~Bfs() = default;
Bfs::Bfs(Bfs&&) noexcept = default;
Bfs& Bfs::operator=(Bfs&&) noexcept = default;

std::span<const Vertex> Bfs::search(Vertex root, const Params& params) {
  const Vertex n = vertices();
  if (root < 0 || root >= n)
    throw input_error(n == 0 ? fmt::format("root {} is not a vertex of the graph (it has none)", root)
                             : fmt::format("root {} is not a vertex of the graph (0..{})", root, n - 1));
  if (!(params.alpha > 0) || !(params.beta > 0))
    throw input_error(fmt::format("BFS: alpha ({}) and beta ({}) must be positive", params.alpha, params.beta));
  impl_->reset(root);
  run_parallel(impl_->layout, [&](int t) { Searcher(*impl_, t, root, params).run(); });
  return {impl_->state.parent.data(), static_cast<std::size_t>(n)};
}

const std::vector<Step>& Bfs::steps() const { return impl_->steps; }
int Bfs::threads() const { return impl_->layout.threads(); }
int Bfs::parts() const { return impl_->layout.parts(); }
std::pair<Vertex, Vertex> Bfs::part_range(int p) const {
  if (p < 0 || p >= parts()) throw input_error(fmt::format("BFS: no part {} (0..{})", p, parts() - 1));
  return {impl_->layout.first(p), impl_->layout.last(p)};
}
Vertex Bfs::vertices() const { return impl_->layout.vertices(); }
EdgeIndex Bfs::arcs() const { return impl_->graph.arcs(); }
EdgeIndex Bfs::degree(Vertex v) const {
  if (v < 0 || v >= vertices()) throw input_error(fmt::format("BFS: {} is not a vertex (0..{})", v, vertices() - 1));
  return impl_->graph.part(impl_->layout.owner(v)).degree(v);
}

std::size_t Bfs::bytes() const {
  std::size_t total = impl_->graph.bytes() + impl_->state.bytes();
  for (const QueueBlocks& b : impl_->blocks) total += b.bytes();
  return total;
}

}  // namespace ulibc::bfs
