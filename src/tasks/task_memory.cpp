// tasks/task_memory.cpp — where task objects live: small ones in blocks that go back to the thread that made them.
//
// A spawning worker makes tasks that thieves run and free. Had the thieves given the blocks to the C allocator (or
// kept them), the spawner would allocate afresh for ever, and glibc's arenas serialise such cross-thread frees: a
// linear spawn tree of a million tasks spent half its time in malloc's locks. So each block remembers its home
// thread, as mimalloc's pages do: a free by the home thread pushes it on the home's list; a free by another thread
// pushes it on the home's remote stack (a lock-free push), which the home takes whole when its list runs dry.
#include <atomic>
#include <cstddef>
#include <new>

#include "ulibc/tasks.hpp"

namespace ulibc::tasks::detail {

namespace {

struct Node {
  Node* next;
};

// One thread's blocks. Plain data with a constant initialiser, so that reaching it is one load from the thread
// pointer (no wrapper function); the blocks go back to the allocator when the thread ends (Release below).
struct Home {
  Node* free = nullptr;                 // home-thread frees
  std::atomic<Node*> remote = nullptr;  // other threads' frees, taken whole
  bool releasing = false;               // Release armed
};
thread_local Home t_home __attribute__((tls_model("initial-exec")));

struct alignas(16) Header {
  Home* home;
};
constexpr std::size_t kBlock = 128;                        // a block: the header and a task of up to 112 bytes
constexpr std::size_t kPayload = kBlock - sizeof(Header);  // (most tasks are a lambda of a few references)
constexpr std::align_val_t kAlign{alignof(Header)};

void release_list(Node* n) {
  while (n) {
    Node* next = n->next;
    ::operator delete(n, kBlock, kAlign);
    n = next;
  }
}

struct Release {
  ~Release() {
    release_list(t_home.free);
    release_list(t_home.remote.exchange(nullptr, std::memory_order_acquire));
    t_home.free = nullptr;
  }
};
thread_local Release t_release;

Node* take_block(Home& h) {
  Node* n = h.free;
  if (!n) n = h.remote.exchange(nullptr, std::memory_order_acquire);
  if (!n) return nullptr;
  h.free = n->next;
  return n;
}

}  // namespace

void* Task::operator new(std::size_t bytes) {
  if (bytes > kPayload) return ::operator new(bytes);
  Home& h = t_home;
  void* block = take_block(h);
  if (!block) {
    if (!h.releasing) {  // the first block this thread makes: give its blocks back when it ends
      (void)&t_release;
      h.releasing = true;
    }
    block = ::operator new(kBlock, kAlign);
  }
  auto* header = new (block) Header{&h};
  return header + 1;
}

void Task::operator delete(void* p, std::size_t bytes) {
  if (bytes > kPayload) {
    ::operator delete(p, bytes);
    return;
  }
  Header* header = static_cast<Header*>(p) - 1;
  Home* home = header->home;
  Node* n = new (static_cast<void*>(header)) Node{nullptr};
  if (home == &t_home) {
    n->next = home->free;
    home->free = n;
    return;
  }
  Node* top = home->remote.load(std::memory_order_relaxed);
  do {
    n->next = top;
  } while (!home->remote.compare_exchange_weak(top, n, std::memory_order_release, std::memory_order_relaxed));
}

}  // namespace ulibc::tasks::detail
