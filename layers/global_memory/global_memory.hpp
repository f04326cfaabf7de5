// global_memory/global_memory.hpp — a global array of bytes spread over the ranks of a communicator, read and
// written through checkouts (the model of Itoyori: Shiina and Taura, "Itoyori: Reconciling Global Address Space and
// Global Fork-Join Task Parallelism", SC'23).
//
// A checkout of a range gives a local pointer for its scope: straight into the home's memory when the home is a
// rank of this machine (an MPI shared-memory window: no copy), else into this rank's software cache (BlockCache),
// whose blocks come by MPI_Get and whose written bytes go home by MPI_Put. Coherence is for programs free of data
// races: release() sends this rank's written bytes home, acquire() drops its cached copies, and a barrier() is a
// release, MPI_Barrier and an acquire; a task runtime releases at a fork and at a task's end and acquires at a join
// and when a stolen task starts.
//
// Collective: the constructor and the destructor (the windows are created and freed by every rank), barrier().
// Checkouts, release() and acquire() are this rank's own, called from the thread that started MPI.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "global_memory/block_cache.hpp"
#include "global_memory/distribution.hpp"

namespace ulibc::global {

struct GlobalOptions {
  std::size_t block_bytes = 4096;  // the cache's block (rounded up to whole elements)
  std::size_t cache_blocks = 256;  // its capacity
  // Ranks of this machine read each other's memory directly. Off: every other rank's memory goes through the
  // cache, as on a cluster (for tests, and for measuring what the cache costs).
  bool share_machine = true;
};

enum class Access { read, write, read_write };

class GlobalMemory {
 public:
  // Collective over comm: each rank allocates the share `dist` gives it (dist.ranks() must be comm's size). Every
  // rank refuses together (Error(input), mpi::together) when a share exceeds the memory this machine has available
  // or the options are unusable.
  GlobalMemory(MPI_Comm comm, const Distribution& dist, const GlobalOptions& options = {});
  ~GlobalMemory();  // collective
  GlobalMemory(const GlobalMemory&) = delete;
  GlobalMemory& operator=(const GlobalMemory&) = delete;

  const Distribution& distribution() const { return dist_; }
  // This rank's own elements (distribution().elements_on(rank)), in its home memory.
  std::span<std::byte> own();

  // Bytes [offset, offset + bytes) of the array, readable and/or writable through data() until the checkout ends.
  // Writes reach other ranks at the next release. Error(input) for a range outside the array, or one whose blocks
  // outnumber the cache.
  class Checkout {
   public:
    Checkout(Checkout&& other) noexcept;
    Checkout& operator=(Checkout&&) = delete;
    ~Checkout();
    std::byte* data() const { return data_; }
    std::size_t size() const { return bytes_; }

   private:
    friend class GlobalMemory;
    Checkout(GlobalMemory* owner, std::uint64_t offset, std::size_t bytes, Access access);
    GlobalMemory* owner_;
    std::uint64_t offset_;
    std::size_t bytes_;
    Access access_;
    std::byte* data_ = nullptr;
    std::vector<std::byte*> pinned_;  // the range's blocks in the cache, in order; none when direct
    std::vector<std::byte> staging_;  // a range over several blocks, copied in and out
  };
  Checkout checkout(std::uint64_t offset, std::size_t bytes, Access access);

  void release();  // this rank's written bytes home, complete
  void acquire();  // this rank's cached copies dropped; what others released before is visible
  void barrier();  // collective: release, MPI_Barrier, acquire

  struct Stats {
    CacheStats cache;
    std::uint64_t direct = 0;  // checkouts served straight from a home's memory on this machine
  };
  const Stats& stats();

 private:
  struct Windows;
  class Backing;
  // The home's memory on this machine holding [offset, offset + bytes) in one piece, or nullptr.
  std::byte* direct(std::uint64_t offset, std::size_t bytes) const;
  void open(Checkout& c);
  void close(Checkout& c) noexcept;
  void stage(Checkout& c, bool in);  // the pinned blocks into the staging copy, or back

  MPI_Comm comm_;
  Distribution dist_;
  std::unique_ptr<Windows> windows_;
  std::unique_ptr<Backing> backing_;
  std::unique_ptr<BlockCache> cache_;
  Stats stats_;
};

}  // namespace ulibc::global
