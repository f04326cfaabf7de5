// memory/numa_buffer.cpp — node-local allocation: the checks made before
// anything is mapped, the choice of page kind with its fallbacks, mapping and
// binding (both before any page exists), and the page placement query.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "os/memory.hpp"
#include "os/pages.hpp"
#include "os/process.hpp"
#include "ulibc/error.hpp"
#include "ulibc/memory.hpp"

namespace ulibc {

// The plan's types are named outside the anonymous namespace: BufferMaker, the header's friend, holds a plan.

// One mbind over consecutive bytes of the mapping; no mode: left unbound.
struct BufferStretch {
  std::size_t bytes = 0;
  std::optional<os::MemMode> mode;
  NodeSet nodes;
  bool same_binding(const BufferStretch& o) const { return mode == o.mode && nodes == o.nodes; }
};

// A request that passed its checks: what to map and how to bind it.
struct BufferPlan {
  std::string what;  // "4096 bytes on node 1 (strict)": the subject of every error
  std::vector<BufferStretch> stretches;
  std::size_t bytes = 0;
  PageKind pages = PageKind::normal;
  std::vector<std::string> notes;
  bool one_memory_node = false;  // binding cannot change placement: mbind may be missing
  bool live = true;              // checked against the live machine, not a snapshot
};

namespace {

[[noreturn]] void refuse(const BufferPlan& plan, const std::string& why) { throw input_error(plan.what + ": " + why); }

std::string size_text(std::size_t bytes) { return std::to_string(bytes) + " bytes"; }
std::string node_text(int node) { return "node " + std::to_string(node); }
std::string kb_text(std::size_t bytes) { return std::to_string(bytes >> 10) + " kB"; }
std::string address_text(std::uintptr_t addr) {
  char buf[2 + 2 * sizeof addr + 1];
  std::snprintf(buf, sizeof buf, "0x%jx", static_cast<std::uintmax_t>(addr));
  return buf;
}

NodeSet memory_nodes(const Topology& topo) {
  NodeSet out;
  for (const Node& n : topo.nodes())
    if (n.has_memory() && n.allowed) out.set(n.id);
  return out;
}

std::uint64_t memory_of(const Topology& topo, const NodeSet& nodes) {
  std::uint64_t total = 0;
  for (int id : nodes) total += topo.node(id)->memory_bytes;
  return total;
}

NodeSet node_ids(const Topology& topo) {
  NodeSet out;
  for (const Node& n : topo.nodes()) out.set(n.id);
  return out;
}

BufferPlan plan_for(std::string what, std::size_t bytes, PageKind pages) {
  BufferPlan plan{.what = std::move(what), .bytes = bytes, .pages = pages};
  if (bytes == 0) refuse(plan, "the size is 0; nothing to allocate");
  // Room to round up to the page and, for THP, to over-map by one page to align.
  const std::size_t granule = page_granule(pages);
  if (bytes > std::numeric_limits<std::size_t>::max() - 2 * granule)
    refuse(plan, "the size does not fit in the address space once rounded up to whole " + kb_text(granule) + " pages");
  return plan;
}

BufferPlan plan_for(const Topology& topo, std::string what, std::size_t bytes, PageKind pages) {
  BufferPlan plan = plan_for(std::move(what), bytes, pages);
  plan.one_memory_node = memory_nodes(topo).count() <= 1;
  plan.live = topo.is_live();
  return plan;
}

std::string no_such_node(const Topology& topo, int id) {
  return node_text(id) + " does not exist (the machine's nodes are " + node_ids(topo).to_list() + ")";
}

const Node& existing_node(const Topology& topo, const BufferPlan& plan, int id) {
  const Node* n = topo.node(id);
  if (!n) refuse(plan, no_such_node(topo, id));
  // The kernel's allowed memory nodes never include a node without memory;
  // the callers deal with those (refused when strict, redirected when preferred).
  if (n->has_memory() && !n->allowed)
    refuse(plan,
           node_text(id) + " is outside the memory nodes this process may use (" + memory_nodes(topo).to_list() + ")");
  return *n;
}

void check_capacity(const BufferPlan& plan, std::uint64_t bytes, std::uint64_t memory, const std::string& holder) {
  if (bytes > memory)
    refuse(plan, "larger than the memory of " + holder + " (" + size_text(static_cast<std::size_t>(memory)) + ")");
}

std::size_t round_up(std::size_t bytes, std::size_t granule) { return (bytes + granule - 1) / granule * granule; }

// The transparent huge page: 2 MiB (x86-64's PMD) where the kernel does not say.
std::size_t thp_bytes() { return os::thp_page_size().value_or(std::size_t{2} << 20); }

// Anonymous memory, or Error(system) naming the size and the kernel's reason.
void* map_or_throw(std::size_t bytes) {
  void* p = nullptr;
  if (const int err = os::map_anonymous(bytes, &p); err != 0)
    throw system_error("mmap of " + std::to_string(bytes) + " bytes: " + std::strerror(err));
  return p;
}

std::string kind_text(PageKind kind) {
  switch (kind) {
    case PageKind::normal:
      return "base pages";
    case PageKind::transparent_huge:
      return "transparent huge pages";
    case PageKind::explicit_huge:
      return "explicit huge pages";
  }
  return "?";
}

}  // namespace

// Maps a BufferPlan with the page kind it can get, falling back from explicit
// huge pages to THP to base pages, then binds every stretch, all before any
// page is touched.
class BufferMaker {
 public:
  explicit BufferMaker(BufferPlan plan) : plan_(std::move(plan)) {}

  NumaBuffer make() {
    NumaBuffer b;
    b.size_ = plan_.bytes;
    try {
      const bool mapped =
          (plan_.pages == PageKind::explicit_huge && map_hugetlb(b)) || (plan_.pages != PageKind::normal && map_thp(b));
      if (!mapped) map_normal(b);
    } catch (const Error& e) {
      throw system_error(plan_.what + ": " + e.what());
    }
    if (b.pages_ != plan_.pages) plan_.notes.push_back(join(reasons_, "; ") + ": using " + kind_text(b.pages_));
    bind(b);
    b.note_ = join(plan_.notes, "; ");
    return b;
  }

 private:
  static std::string join(const std::vector<std::string>& parts, const char* sep) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
    return out;
  }

  bool map_hugetlb(NumaBuffer& b) {
    const auto default_huge = os::default_huge_page_size();
    if (!default_huge) return give_up("the kernel offers no explicit huge pages");
    const std::size_t huge = *default_huge;
    if (!stretches_aligned_to(huge))
      return give_up("the parts are not multiples of the " + kb_text(huge) + " explicit huge page");
    const std::size_t bytes = round_up(plan_.bytes, huge);
    if (!pool_holds(bytes / huge, huge) || !nodes_hold(huge)) return false;
    void* p = nullptr;
    if (const int err = os::map_hugetlb(bytes, huge, &p); err != 0)
      return give_up(std::string("mmap(MAP_HUGETLB): ") + std::strerror(err));
    set(b, p, bytes, PageKind::explicit_huge);
    return true;
  }

  // hugetlb reservations are global: mmap succeeds while the pages a
  // strictly bound node would fault in are missing there, and that first
  // touch is a SIGBUS. So every node a stretch is bound to must have its
  // share free now.
  bool nodes_hold(std::size_t huge) {
    std::map<int, std::uint64_t> need;
    std::size_t offset = 0;
    for (std::size_t i = 0; i < plan_.stretches.size(); ++i) {
      const BufferStretch& s = plan_.stretches[i];
      const std::size_t bytes = i + 1 == plan_.stretches.size() ? round_up(plan_.bytes, huge) - offset : s.bytes;
      offset += bytes;
      if (s.mode == os::MemMode::bind || s.mode == os::MemMode::interleave) {
        const std::uint64_t pages = bytes / huge;
        const std::uint64_t share = (pages + static_cast<std::uint64_t>(s.nodes.count()) - 1) / s.nodes.count();
        for (int id : s.nodes) need[id] += share;
      }
    }
    for (const auto& [node, pages] : need) {
      const std::uint64_t free = os::free_huge_pages(node, huge).value_or(0);
      if (free < pages)
        return give_up(node_text(node) + " has " + std::to_string(free) + " free " + kb_text(huge) + " huge pages, " +
                       std::to_string(pages) + " needed (a first touch there would get SIGBUS)");
    }
    return true;
  }

  bool pool_holds(std::uint64_t pages, std::size_t huge) {
    const auto pool = os::huge_pool(huge);
    const std::uint64_t available = pool && pool->free > pool->reserved ? pool->free - pool->reserved : 0;
    if (available >= pages) return true;
    return give_up("the machine has " + std::to_string(available) + " unreserved free " + kb_text(huge) +
                   " huge pages, " + std::to_string(pages) + " needed");
  }

  bool stretches_aligned_to(std::size_t granule) const {
    for (std::size_t i = 0; i + 1 < plan_.stretches.size(); ++i)
      if (plan_.stretches[i].bytes % granule != 0) return false;
    return true;
  }

  bool map_thp(NumaBuffer& b) {
    const auto mode = os::thp_mode();
    if (!mode) return give_up("the kernel has no transparent huge pages");
    switch (*mode) {
      case os::ThpMode::never:
        return give_up("transparent huge pages are disabled (transparent_hugepage/enabled: never)");
      case os::ThpMode::always:
      case os::ThpMode::madvise:
        break;
    }
    if (os::thp_disabled_for_process().value_or(false))
      return give_up("transparent huge pages are disabled for this process (prctl PR_SET_THP_DISABLE)");
    const std::size_t huge = thp_bytes();
    const std::size_t bytes = round_up(plan_.bytes, huge);
    // Only a huge-page-aligned range can be backed by huge pages: over-map by
    // one huge page and trim both ends to the aligned part.
    auto* raw = static_cast<char*>(map_or_throw(bytes + huge));
    const auto addr = reinterpret_cast<std::uintptr_t>(raw);
    char* aligned = raw + (round_up(addr, huge) - addr);
    os::unmap(raw, static_cast<std::size_t>(aligned - raw));
    os::unmap(aligned + bytes, static_cast<std::size_t>(raw + bytes + huge - (aligned + bytes)));
    if (const int err = os::advise_huge(aligned, bytes); err != 0) {
      os::unmap(aligned, bytes);
      return give_up(std::string("madvise(MADV_HUGEPAGE): ") + std::strerror(err));
    }
    set(b, aligned, bytes, PageKind::transparent_huge);
    return true;
  }

  void map_normal(NumaBuffer& b) {
    const std::size_t bytes = round_up(plan_.bytes, page_size());
    set(b, map_or_throw(bytes), bytes, PageKind::normal);
    // With THP "always" the kernel would back the range with 2 MiB pages,
    // each on one node, and interleave would alternate every 512 pages.
    if (interleaves())
      if (const int err = os::advise_huge(b.data_, bytes, false); err != 0)
        plan_.notes.push_back(std::string("madvise(MADV_NOHUGEPAGE): ") + std::strerror(err) +
                              ": the kernel may interleave whole huge pages");
  }

  bool interleaves() const {
    for (const BufferStretch& s : plan_.stretches)
      if (s.mode == os::MemMode::interleave) return true;
    return false;
  }

  void bind(NumaBuffer& b) {
    std::size_t offset = 0;
    for (std::size_t i = 0; i < plan_.stretches.size(); ++i) {
      const BufferStretch& s = plan_.stretches[i];
      // The last stretch also covers the rounding up to whole pages.
      const std::size_t bytes = i + 1 == plan_.stretches.size() ? b.mapped_ - offset : s.bytes;
      if (s.mode && !bind_stretch(static_cast<char*>(b.data_) + offset, bytes, s)) return;
      offset += bytes;
    }
  }

  // False when binding was skipped because the kernel cannot bind and it would change nothing.
  bool bind_stretch(char* addr, std::size_t bytes, const BufferStretch& s) {
    const int err = os::bind_memory(addr, bytes, *s.mode, s.nodes);
    if (err == 0) return true;
    if ((err == ENOSYS || err == EPERM) && plan_.one_memory_node) {
      plan_.notes.push_back(std::string("mbind is unavailable (") + std::strerror(err) +
                            "): pages left to the kernel, harmless with one memory node");
      return false;
    }
    throw system_error(plan_.what + ": mbind to nodes " + s.nodes.to_list() + ": " + std::strerror(err) +
                       (plan_.live ? "" : " (the topology is a snapshot, not this machine)"));
  }

  bool give_up(std::string reason) {
    reasons_.push_back(std::move(reason));
    return false;
  }

  static void set(NumaBuffer& b, void* data, std::size_t mapped, PageKind pages) {
    b.data_ = data;
    b.mapped_ = mapped;
    b.pages_ = pages;
  }

  BufferPlan plan_;
  std::vector<std::string> reasons_;  // why a page kind asked for was not taken
};

NumaBuffer::NumaBuffer(NumaBuffer&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      mapped_(std::exchange(o.mapped_, 0)),
      pages_(o.pages_),
      note_(std::move(o.note_)) {}

NumaBuffer& NumaBuffer::operator=(NumaBuffer&& o) noexcept {
  if (this == &o) return *this;
  os::unmap(data_, mapped_);
  data_ = std::exchange(o.data_, nullptr);
  size_ = std::exchange(o.size_, 0);
  mapped_ = std::exchange(o.mapped_, 0);
  pages_ = o.pages_;
  note_ = std::move(o.note_);
  return *this;
}

NumaBuffer::~NumaBuffer() { os::unmap(data_, mapped_); }

void NumaBuffer::shrink(std::size_t bytes) {
  if (bytes >= size_) return;
  const std::size_t kept = round_up(bytes, page_granule(pages_));
  os::unmap(static_cast<char*>(data_) + kept, mapped_ - kept);
  size_ = bytes;
  mapped_ = kept;
  if (kept == 0) data_ = nullptr;
}

NumaBuffer allocate_on_node(const Topology& topo, std::size_t bytes, int node, MemOptions opts) {
  const bool strict = opts.bind == MemBind::strict;
  const std::string what = size_text(bytes) + " on " + node_text(node) + (strict ? " (strict)" : " (preferred)");
  BufferPlan plan = plan_for(topo, what, bytes, opts.pages);
  const Node& n = existing_node(topo, plan, node);
  const std::size_t rounded = round_up(bytes, page_granule(opts.pages));
  if (strict) {
    if (!n.has_memory())
      refuse(plan, node_text(node) +
                       " has no memory (a memory-less node); MemBind::preferred would use the nearest "
                       "node with memory");
    check_capacity(plan, rounded, n.memory_bytes, node_text(node));
    plan.stretches.push_back({.bytes = bytes, .mode = os::MemMode::bind, .nodes = {node}});
    return BufferMaker(std::move(plan)).make();
  }
  check_capacity(plan, rounded, memory_of(topo, memory_nodes(topo)), "the nodes this process may use");
  // The kernel refuses a preferred node without memory (EINVAL), so prefer the
  // node it would fall back to.
  const int target = nearest_memory_node(topo, node);
  if (target < 0) refuse(plan, "no node has memory this process may use");
  if (target != node)
    plan.notes.push_back(node_text(node) + " has no memory: preferring " + node_text(target) +
                         ", the nearest with memory");
  plan.stretches.push_back({.bytes = bytes, .mode = os::MemMode::preferred, .nodes = {target}});
  return BufferMaker(std::move(plan)).make();
}

NumaBuffer allocate_first_touch(std::size_t bytes, MemOptions opts) {
  BufferPlan plan = plan_for(size_text(bytes) + " placed by first touch", bytes, opts.pages);
  plan.stretches.push_back({.bytes = bytes});
  return BufferMaker(std::move(plan)).make();
}

NumaBuffer allocate_interleaved(const Topology& topo, std::size_t bytes, const NodeSet& nodes, MemOptions opts) {
  const NodeSet asked = nodes.empty() ? memory_nodes(topo) : nodes;
  BufferPlan plan = plan_for(topo, size_text(bytes) + " interleaved over nodes " + asked.to_list(), bytes, opts.pages);
  NodeSet used;
  for (int id : asked)
    if (existing_node(topo, plan, id).has_memory()) used.set(id);
  if (used.empty())
    refuse(plan, asked.empty() ? "no node has memory this process may use" : "none of these nodes has memory");
  if (used != asked)
    plan.notes.push_back("no memory on nodes " + (asked - used).to_list() + ": interleaved over " + used.to_list());
  check_capacity(plan, round_up(bytes, page_granule(opts.pages)), memory_of(topo, memory_nodes(topo)),
                 "the nodes this process may use");
  plan.stretches.push_back({.bytes = bytes, .mode = os::MemMode::interleave, .nodes = used});
  return BufferMaker(std::move(plan)).make();
}

namespace {

std::size_t total_of(const std::vector<MemPart>& parts) {
  std::size_t total = 0;
  for (const MemPart& p : parts) {
    if (p.bytes > std::numeric_limits<std::size_t>::max() - total)
      throw input_error("allocating parts: their sizes add up beyond the address space");
    total += p.bytes;
  }
  return total;
}

// Where the parts go: bytes per target node, and the nodes whose parts moved.
struct PartTargets {
  std::map<int, std::uint64_t> bytes;
  std::set<int> moved;
};

// A part as a stretch, bound to its node or to where that node's memory goes (noted once per node).
BufferStretch stretch_of(const Topology& topo, BufferPlan& plan, const MemPart& part, PartTargets& targets) {
  if (part.node == -1) return {.bytes = part.bytes};
  const Node* n = topo.node(part.node);
  if (!n) refuse(plan, no_such_node(topo, part.node));
  const int target = nearest_memory_node(topo, part.node);
  if (target < 0) refuse(plan, "no node has memory this process may use");
  if (target != part.node && targets.moved.insert(part.node).second)
    plan.notes.push_back(node_text(part.node) +
                         (n->has_memory() ? " is outside the allowed memory nodes" : " has no memory") +
                         ": its part is on " + node_text(target) + ", the nearest with memory");
  targets.bytes[target] += part.bytes;
  return {.bytes = part.bytes, .mode = os::MemMode::bind, .nodes = {target}};
}

}  // namespace

NumaBuffer allocate_parts(const Topology& topo, const std::vector<MemPart>& parts, MemOptions opts) {
  const std::size_t total = total_of(parts);
  const std::string count = parts.size() == 1 ? "1 part" : std::to_string(parts.size()) + " parts";
  BufferPlan plan = plan_for(topo, size_text(total) + " in " + count, total, opts.pages);
  const std::size_t granule = page_granule(opts.pages);
  PartTargets targets;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i + 1 < parts.size() && parts[i].bytes % granule != 0)
      refuse(plan, "part " + std::to_string(i) + " (" + size_text(parts[i].bytes) + ") is not a multiple of the " +
                       kb_text(granule) + " page");
    if (parts[i].bytes == 0) continue;
    BufferStretch s = stretch_of(topo, plan, parts[i], targets);
    // Neighbours with the same binding are one mbind (and one kernel VMA).
    if (!plan.stretches.empty() && plan.stretches.back().same_binding(s))
      plan.stretches.back().bytes += s.bytes;
    else
      plan.stretches.push_back(std::move(s));
  }
  for (const auto& [node, bytes] : targets.bytes)
    check_capacity(plan, bytes, topo.node(node)->memory_bytes, node_text(node));
  check_capacity(plan, total, memory_of(topo, memory_nodes(topo)), "the nodes this process may use");
  return BufferMaker(std::move(plan)).make();
}

int nearest_memory_node(const Topology& topo, int node) {
  const Node* from = topo.node(node);
  if (!from) throw input_error(no_such_node(topo, node));
  if (from->has_memory() && from->allowed) return node;
  int best = -1;
  for (const Node& n : topo.nodes())  // by id, so a tie keeps the lower id
    if (n.has_memory() && n.allowed && (best < 0 || topo.distance(node, n.id) < topo.distance(node, best))) best = n.id;
  return best;
}

MemPolicy memory_policy(const void* addr) {
  MemPolicy policy;
  if (const int err = os::policy_at(addr, &policy); err != 0)
    throw system_error(std::string("get_mempolicy(MPOL_F_ADDR): ") + std::strerror(err));
  return policy;
}

std::size_t page_size() { return os::base_page_size(); }

std::size_t page_granule(PageKind kind) {
  switch (kind) {
    case PageKind::normal:
      return os::base_page_size();
    case PageKind::transparent_huge:
      return thp_bytes();
    case PageKind::explicit_huge:
      return os::default_huge_page_size().value_or(thp_bytes());
  }
  return os::base_page_size();
}

PagePlacement page_placement(const void* addr, std::size_t bytes) {
  PagePlacement out;
  if (bytes == 0) return out;
  const std::size_t page = page_size();
  const auto begin = reinterpret_cast<std::uintptr_t>(addr) / page * page;
  const auto last = reinterpret_cast<std::uintptr_t>(addr) + (bytes - 1);
  if (last < begin)
    throw input_error("page query: " + size_text(bytes) + " from " + address_text(begin) +
                      " wrap around the address space");
  out.pages = (last - begin) / page + 1;
  // Bounded batches: a query over gigabytes needs no gigabyte-sized arrays.
  constexpr std::size_t kBatch = 1024;
  std::vector<const void*> pages(std::min(out.pages, kBatch));
  std::vector<int> status(pages.size());
  for (std::size_t first = 0; first < out.pages; first += kBatch) {
    const std::size_t count = std::min(kBatch, out.pages - first);
    for (std::size_t i = 0; i < count; ++i) pages[i] = reinterpret_cast<const void*>(begin + (first + i) * page);
    if (const int err = os::page_nodes({pages.data(), count}, {status.data(), count}); err != 0)
      throw system_error(std::string("move_pages (page query): ") + std::strerror(err));
    bool faulted = false;
    for (std::size_t i = 0; i < count; ++i) {
      if (status[i] >= 0) {
        ++out.per_node[status[i]];
        continue;
      }
      if (status[i] != -ENOENT && status[i] != -EFAULT)
        throw system_error("page query at " + address_text(begin + (first + i) * page) + ": " +
                           std::strerror(-status[i]));
      ++out.absent;
      faulted = faulted || status[i] == -EFAULT;
    }
    // -EFAULT is both "only read so far (the shared zero page)" and "not mapped".
    if (faulted && os::check_mapped(pages[0], count * page) != 0)
      throw input_error("page query: " + size_text(bytes) + " from " + address_text(begin) + " are not all mapped");
  }
  return out;
}

}  // namespace ulibc
