// capi/memory_api.cpp — ulibc_lmalloc* and ulibc_lfree (ulibc.h). Every block
// is a NumaBuffer kept in a registry by address, so that ulibc_lfree needs
// only the pointer and can refuse one it did not hand out.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "capi/state.hpp"
#include "ulibc/error.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/ulibc.h"

using ulibc::capi::current;
using ulibc::capi::guarded;

namespace {

std::string pointer_text(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

class Registry {
 public:
  void* add(ulibc::NumaBuffer b) {
    void* p = b.data();
    std::lock_guard lock(mutex_);
    blocks_.emplace(p, std::move(b));
    return p;
  }

  // Takes the block out; the caller's copy unmaps it, outside the lock.
  ulibc::NumaBuffer take(const void* p) {
    std::lock_guard lock(mutex_);
    auto it = blocks_.find(p);
    if (it == blocks_.end()) throw ulibc::input_error(not_ours(p));
    ulibc::NumaBuffer b = std::move(it->second);
    blocks_.erase(it);
    return b;
  }

  // Valid until the block is freed: map nodes do not move.
  const char* note(const void* p) {
    std::lock_guard lock(mutex_);
    auto it = blocks_.find(p);
    if (it == blocks_.end()) throw ulibc::input_error(not_ours(p));
    return it->second.note().c_str();
  }

 private:
  // Caller holds the lock. An address inside a block is named as such: the
  // usual mistake is freeing a pointer that was advanced.
  std::string not_ours(const void* p) const {
    auto it = blocks_.upper_bound(p);
    if (it != blocks_.begin()) {
      --it;
      const auto start = reinterpret_cast<std::uintptr_t>(it->first);
      if (reinterpret_cast<std::uintptr_t>(p) < start + it->second.mapped_bytes())
        return "pointer " + pointer_text(p) + " points inside the block at " + pointer_text(it->first) +
               "; pass the pointer ulibc_lmalloc returned";
    }
    return "pointer " + pointer_text(p) + " was not returned by ulibc_lmalloc*, or was already freed";
  }

  std::mutex mutex_;
  std::map<const void*, ulibc::NumaBuffer, std::less<>> blocks_;  // std::less: a total order on pointers
};

// Never destroyed: a block may still be in use while static destructors run.
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

ulibc::MemOptions options_of(int flags) {
  constexpr int kKnown = ULIBC_MEM_PREFERRED | ULIBC_MEM_THP | ULIBC_MEM_HUGETLB;
  if ((flags & ~kKnown) != 0)
    throw ulibc::input_error("memory flags " + std::to_string(flags) +
                             " hold unknown bits; accepted: ULIBC_MEM_STRICT, ULIBC_MEM_PREFERRED, ULIBC_MEM_THP, "
                             "ULIBC_MEM_HUGETLB");
  ulibc::MemOptions opts;
  opts.bind = (flags & ULIBC_MEM_PREFERRED) ? ulibc::MemBind::preferred : ulibc::MemBind::strict;
  if (flags & ULIBC_MEM_THP) opts.pages = ulibc::PageKind::transparent_huge;
  if (flags & ULIBC_MEM_HUGETLB) opts.pages = ulibc::PageKind::explicit_huge;  // it falls back to THP itself
  return opts;
}

ulibc::NodeSet node_set_of(const int* node_ids, int count) {
  if (count < 0) throw ulibc::input_error("node count " + std::to_string(count) + " is negative");
  if (count > 0 && !node_ids)
    throw ulibc::input_error("node_ids is NULL with a node count of " + std::to_string(count));
  ulibc::NodeSet nodes;
  for (int i = 0; i < count; ++i) {
    if (node_ids[i] < 0 || node_ids[i] > ulibc::NodeSet::kMaxId)
      throw ulibc::input_error("node " + std::to_string(node_ids[i]) + " does not exist");
    nodes.set(node_ids[i]);
  }
  return nodes;
}

// The node index of the current mapping as an OS node id; -1 under policy none.
int node_of_index(const ulibc::capi::State& s, int node_index) {
  const auto& ids = s.map.node_ids();
  if (node_index < 0 || node_index >= static_cast<int>(ids.size()))
    throw ulibc::input_error("node index " + std::to_string(node_index) + " is outside 0.." +
                             std::to_string(ids.size() - 1) + " (the nodes of the current mapping)");
  return ids[node_index];
}

}  // namespace

extern "C" {

void* ulibc_lmalloc(size_t size, int node_index) {
  return guarded(
      [&] {
        const ulibc::capi::State& s = current();
        const int node = node_of_index(s, node_index);
        // Policy none maps threads to no node: the block is left to first touch, as a NodeArray is.
        if (node < 0) return registry().add(ulibc::allocate_parts(s.topo, {{.bytes = size, .node = -1}}));
        return registry().add(ulibc::allocate_on_node(s.topo, size, node));
      },
      static_cast<void*>(nullptr));
}

void* ulibc_lmalloc_nearest(size_t size, int node_index) {
  return guarded(
      [&] {
        const ulibc::capi::State& s = current();
        // One part: allocate_parts sends it to the nearest memory and notes it, as NodeArray's parts go.
        return registry().add(ulibc::allocate_parts(s.topo, {{.bytes = size, .node = node_of_index(s, node_index)}}));
      },
      static_cast<void*>(nullptr));
}

void* ulibc_lmalloc_node(size_t size, int node_id, int flags) {
  return guarded(
      [&] { return registry().add(ulibc::allocate_on_node(current().topo, size, node_id, options_of(flags))); },
      static_cast<void*>(nullptr));
}

void* ulibc_lmalloc_interleaved(size_t size, const int* node_ids, int count, int flags) {
  return guarded(
      [&] {
        const ulibc::NodeSet nodes = node_set_of(node_ids, count);
        return registry().add(ulibc::allocate_interleaved(current().topo, size, nodes, options_of(flags)));
      },
      static_cast<void*>(nullptr));
}

int ulibc_lfree(void* ptr) {
  if (!ptr) return 0;  // as free(NULL)
  return guarded(
      [&] {
        registry().take(ptr);  // the returned buffer unmaps the block as it goes
        return 0;
      },
      -1);
}

const char* ulibc_lmalloc_note(const void* ptr) {
  return guarded([&] { return registry().note(ptr); }, static_cast<const char*>(nullptr));
}

long ulibc_pages_on_node(const void* addr, size_t size, int node_id) {
  return guarded(
      [&] {
        const ulibc::PagePlacement where = ulibc::page_placement(addr, size);
        if (node_id == -1) return static_cast<long>(where.absent);
        if (node_id < 0)
          throw ulibc::input_error("node " + std::to_string(node_id) + " is negative (-1 counts absent pages)");
        const auto it = where.per_node.find(node_id);
        return static_cast<long>(it == where.per_node.end() ? 0 : it->second);
      },
      -1L);
}

}  // extern "C"
