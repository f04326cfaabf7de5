// tasks/task_memory.cpp — where task objects live: small ones in per-thread free lists of fixed blocks.
#include <cstddef>
#include <new>

#include "ulibc/tasks.hpp"

namespace ulibc::tasks::detail {

namespace {

constexpr std::size_t kBlock = 128;     // a task of up to this many bytes takes a block (most lambdas do)
constexpr std::size_t kMaxCached = 4096;  // blocks a thread keeps; the rest go back to the allocator

struct Node {
  Node* next;
};
void* fresh_block() { return ::operator new(kBlock, std::align_val_t{alignof(std::max_align_t)}); }
void free_block(void* p) { ::operator delete(p, kBlock, std::align_val_t{alignof(std::max_align_t)}); }

// Plain data, so that reaching it is one load from the thread pointer (a thread_local with a destructor is reached
// through a wrapper function). The blocks go back to the allocator when the thread ends, by a second thread_local
// touched only when the thread first keeps a block.
struct FreeList {
  Node* head = nullptr;
  std::size_t count = 0;
  bool returned_at_exit = false;  // t_return made (a thread may only free blocks that others made)
};
thread_local FreeList t_free __attribute__((tls_model("initial-exec")));

struct ReturnBlocks {
  bool armed = false;
  ~ReturnBlocks() {
    while (Node* n = t_free.head) {
      t_free.head = n->next;
      free_block(n);
    }
    t_free.count = 0;
  }
};
thread_local ReturnBlocks t_return;

}  // namespace

void* Task::operator new(std::size_t bytes) {
  if (bytes > kBlock) return ::operator new(bytes);
  FreeList& f = t_free;
  if (Node* n = f.head) {
    f.head = n->next;
    --f.count;
    return n;
  }
  return fresh_block();
}

void Task::operator delete(void* p, std::size_t bytes) {
  if (bytes > kBlock) {
    ::operator delete(p, bytes);
    return;
  }
  FreeList& f = t_free;
  if (f.count >= kMaxCached) {
    free_block(p);
    return;
  }
  if (!f.returned_at_exit) {  // the first block this thread keeps: return its blocks when it ends
    t_return.armed = true;
    f.returned_at_exit = true;
  }
  f.head = new (p) Node{f.head};
  ++f.count;
}

}  // namespace ulibc::tasks::detail
