// ulibc/memory.hpp — node-local memory.
//
// Every allocation is whole pages from mmap, bound to nodes with mbind before
// any page exists, so the policy decides where each page lands whoever
// touches it first. Requests are checked against the topology first (a node
// that does not exist, has no memory, or lies outside the cgroup's mems; a
// size of zero or beyond the memory that could hold it) and refused with an
// Error(input) that names the problem, never an abort or an OOM kill later.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ulibc/cpuset.hpp"
#include "ulibc/topology.hpp"

namespace ulibc {

enum class MemBind {
  strict,     // MPOL_BIND: only the given nodes; refused if they cannot hold it
  preferred,  // MPOL_PREFERRED: the node first, others when it is full or memory-less
};

enum class PageKind {
  normal,            // base pages
  transparent_huge,  // THP by madvise(MADV_HUGEPAGE), 2 MiB aligned
  explicit_huge,     // hugetlbfs pages (MAP_HUGETLB), from the reserved pool
};

struct MemOptions {
  MemBind bind = MemBind::strict;
  PageKind pages = PageKind::normal;  // asked for; a fallback is reported, not fatal
};

// An owned, page-aligned block placed by a NUMA policy; unmapped on destruction.
class NumaBuffer {
 public:
  NumaBuffer() = default;
  NumaBuffer(NumaBuffer&& o) noexcept;
  NumaBuffer& operator=(NumaBuffer&& o) noexcept;
  NumaBuffer(const NumaBuffer&) = delete;
  NumaBuffer& operator=(const NumaBuffer&) = delete;
  ~NumaBuffer();

  void* data() const { return data_; }
  std::size_t size() const { return size_; }            // bytes asked for
  std::size_t mapped_bytes() const { return mapped_; }  // whole pages actually mapped
  PageKind pages() const { return pages_; }             // what it got
  // Why it got other pages or nodes than asked ("node 1 has 0 free 2048 kB
  // huge pages, 3 needed: transparent huge pages instead"; "node 2 has no
  // memory: preferring node 0"); "" when it got what was asked.
  const std::string& note() const { return note_; }

  // Keeps the first `bytes` and unmaps the whole pages (of the kind it got)
  // beyond them, giving that memory back at once; the data stays where it
  // is. Nothing changes when bytes >= size(); 0 unmaps it all.
  void shrink(std::size_t bytes);

 private:
  friend class BufferMaker;
  void* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t mapped_ = 0;
  PageKind pages_ = PageKind::normal;
  std::string note_;
};

// `bytes` on node `node` (an OS node id).
NumaBuffer allocate_on_node(const Topology& topo, std::size_t bytes, int node, MemOptions opts = {});
// `bytes` interleaved page by page over `nodes` (OS ids; empty = every node
// with memory that the process may use). opts.bind is ignored.
NumaBuffer allocate_interleaved(const Topology& topo, std::size_t bytes, const NodeSet& nodes, MemOptions opts = {});

// `bytes` bound to no node: each page lands where it is first touched, as
// malloc's memory does, but page-aligned, of the kind asked for, and able to
// shrink. No topology is consulted: beyond a size of zero or one that cannot
// be rounded up (Error(input)), only mmap refuses (Error(system)).
NumaBuffer allocate_first_touch(std::size_t bytes, MemOptions opts = {});

// Consecutive parts of one mapping, each bound strictly to its own node: a
// block distribution, as NodeArray lays out its nodes' parts. node -1 leaves
// a part unbound (first touch decides). A part meant for a node without
// memory, or outside the process's allowed memory nodes, goes to
// nearest_memory_node() and note() says so. Every part but the last must be
// a multiple of page_granule(opts.pages) bytes; opts.bind is ignored.
struct MemPart {
  std::size_t bytes = 0;
  int node = -1;
};
NumaBuffer allocate_parts(const Topology& topo, const std::vector<MemPart>& parts, MemOptions opts = {});

// Where memory meant for `node` goes: the node itself when it has memory the
// process may use, else the nearest such node by the topology's distances
// (ties: the lower id); -1 when there is none. Error(input) for an unknown node.
int nearest_memory_node(const Topology& topo, int node);

// Where the base pages of [addr, addr + bytes) are, without moving or
// allocating anything (move_pages with no target nodes). Error(input) when
// the range is not entirely mapped.
struct PagePlacement {
  std::size_t pages = 0;                // pages in the range
  std::map<int, std::size_t> per_node;  // node id → pages present there
  std::size_t absent = 0;               // not yet written (only read: the zero page), or swapped out
};
PagePlacement page_placement(const void* addr, std::size_t bytes);

// The policy the kernel applies to the page at addr, whether or not the page
// exists yet (get_mempolicy MPOL_F_ADDR): how an allocation was bound.
enum class MemPolicyMode {
  none,        // MPOL_DEFAULT: the thread's own policy, normally first touch
  bind,        // MemBind::strict
  preferred,   // MemBind::preferred
  interleave,  // allocate_interleaved
  other,       // a mode ULIBC does not set (MPOL_LOCAL, MPOL_PREFERRED_MANY, ...)
};
struct MemPolicy {
  MemPolicyMode mode = MemPolicyMode::none;
  NodeSet nodes;
};
MemPolicy memory_policy(const void* addr);

std::size_t page_size();  // the base page size
// Bytes of one page of `kind` on this machine: the base page, the THP size,
// or the default hugetlb page size (the THP size where there is none).
std::size_t page_granule(PageKind kind);

}  // namespace ulibc
