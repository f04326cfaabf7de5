// global_memory/global_memory.cpp — the windows over the ranks' shares, the cache's fetches and stores through
// them, and checkouts.
#include "global_memory/global_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "mpi/comm.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::global {

namespace {

constexpr std::size_t kMaxBlock = std::size_t{1} << 30;  // one MPI_Get or MPI_Put of int-counted bytes
constexpr std::uint64_t kLine = 64;

// Where byte `byte` of the array lives: its home, its displacement in bytes in the home's share, and how many bytes
// from it on the home holds in one run.
struct Piece {
  int home;
  std::uint64_t displacement, run;
};
Piece piece_at(const Distribution& dist, std::uint64_t byte) {
  const Distribution::Place p = dist.locate(byte / dist.unit());
  const std::uint64_t inside = byte % dist.unit();
  return {p.home, p.index * dist.unit() + inside, p.run * dist.unit() - inside};
}

// f(home, displacement, at, length) for each piece of [offset, offset + bytes) that one home holds in one run:
// `at` counts from offset.
template <class F>
void for_each_piece(const Distribution& dist, std::uint64_t offset, std::uint64_t bytes, F&& f) {
  for (std::uint64_t at = 0; at < bytes;) {
    const Piece p = piece_at(dist, offset + at);
    const std::uint64_t length = std::min(bytes - at, p.run);
    f(p.home, p.displacement, at, length);
    at += length;
  }
}

void check_options(const Distribution& dist, const GlobalOptions& o, int ranks) {
  if (dist.ranks() != ranks)
    throw input_error(
        fmt::format("global array: distributed over {} ranks, but the communicator has {}", dist.ranks(), ranks));
  if (o.block_bytes == 0 || o.block_bytes > kMaxBlock || o.cache_blocks == 0)
    throw input_error(
        fmt::format("global array: a cache of {} blocks of {} bytes; it needs 1 or more blocks of 1 "
                    "to {} bytes",
                    o.cache_blocks, o.block_bytes, kMaxBlock));
}

}  // namespace

// The ranks' shares: MPI_Win_allocate_shared among the ranks of this machine (when sharing), and one window over
// the whole communicator for the others, every rank in a passive-target epoch on both for the windows' life.
struct GlobalMemory::Windows {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Win shared = MPI_WIN_NULL;
  MPI_Win all = MPI_WIN_NULL;
  std::byte* own = nullptr;
  std::uint64_t own_bytes = 0;
  std::vector<std::byte*> local;  // by rank: its share's memory when this rank may touch it directly, else nullptr
  bool pending = false;           // puts or gets issued and not flushed

  Windows(MPI_Comm comm, std::uint64_t bytes, bool share) : own_bytes(bytes) {
    const mpi::Place me = mpi::place_in(comm);
    local.assign(static_cast<std::size_t>(me.size), nullptr);
    // Whole cache lines a rank: MPICH 4.0 put a rank whose predecessor's share was 1208 bytes 8 bytes away from
    // where the others' MPI_Get and MPI_Put reached it.
    const auto size = static_cast<MPI_Aint>((bytes + kLine - 1) / kLine * kLine);
    void* base = nullptr;
    if (share) {
      mpi::check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me.rank, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
      mpi::check(MPI_Win_allocate_shared(size, 1, MPI_INFO_NULL, node, &base, &shared), "MPI_Win_allocate_shared");
      // The window over the whole communicator only when some rank is on another machine (Open MPI 4.1 refused
      // MPI_Win_create on a lone rank's shared memory).
      if (!everyone_here(comm)) mpi::check(MPI_Win_create(base, size, 1, MPI_INFO_NULL, comm, &all), "MPI_Win_create");
      find_neighbours(comm);
      mpi::check(MPI_Win_lock_all(MPI_MODE_NOCHECK, shared), "MPI_Win_lock_all");
    } else {
      mpi::check(MPI_Win_allocate(size, 1, MPI_INFO_NULL, comm, &base, &all), "MPI_Win_allocate");
    }
    own = static_cast<std::byte*>(base);
    local[static_cast<std::size_t>(me.rank)] = own;
    if (all != MPI_WIN_NULL) mpi::check(MPI_Win_lock_all(MPI_MODE_NOCHECK, all), "MPI_Win_lock_all");
  }

  // Collective: whether every rank of comm shares this machine, as every rank sees it.
  bool everyone_here(MPI_Comm comm) const {
    int here = mpi::place_in(node).size == mpi::place_in(comm).size ? 1 : 0;
    mpi::check(MPI_Allreduce(MPI_IN_PLACE, &here, 1, MPI_INT, MPI_LAND, comm), "MPI_Allreduce");
    return here != 0;
  }

  // Each rank of this machine's share, by its rank in comm.
  void find_neighbours(MPI_Comm comm) {
    MPI_Group node_group = MPI_GROUP_NULL, comm_group = MPI_GROUP_NULL;
    mpi::check(MPI_Comm_group(node, &node_group), "MPI_Comm_group");
    mpi::check(MPI_Comm_group(comm, &comm_group), "MPI_Comm_group");
    const int neighbours = mpi::place_in(node).size;
    for (int q = 0; q < neighbours; ++q) {
      int in_comm = MPI_UNDEFINED;
      mpi::check(MPI_Group_translate_ranks(node_group, 1, &q, comm_group, &in_comm), "MPI_Group_translate_ranks");
      MPI_Aint size = 0;
      int unit = 0;
      void* base = nullptr;
      mpi::check(MPI_Win_shared_query(shared, q, &size, &unit, &base), "MPI_Win_shared_query");
      local[static_cast<std::size_t>(in_comm)] = static_cast<std::byte*>(base);
    }
    MPI_Group_free(&node_group);
    MPI_Group_free(&comm_group);
  }

  void complete() {
    if (pending) mpi::check(MPI_Win_flush_all(all), "MPI_Win_flush_all");
    pending = false;
  }

  // Direct loads and stores (this rank's own share, the machine's other shares) made one with what the other ranks
  // see through the windows: under MPI's separate memory model a rank's stores to its own window reach the others'
  // MPI_Get only after MPI_Win_sync, and under the unified one it orders them.
  void sync() {
    if (shared != MPI_WIN_NULL) mpi::check(MPI_Win_sync(shared), "MPI_Win_sync");
    if (all != MPI_WIN_NULL) mpi::check(MPI_Win_sync(all), "MPI_Win_sync");
  }

  ~Windows() {
    if (all != MPI_WIN_NULL) {
      MPI_Win_unlock_all(all);
      MPI_Win_free(&all);
    }
    if (shared != MPI_WIN_NULL) {
      MPI_Win_unlock_all(shared);
      MPI_Win_free(&shared);
    }
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
  }
};

// The cache's fetches and stores: a copy for a home this rank may touch, MPI_Get or MPI_Put for the others.
class GlobalMemory::Backing : public BlockCache::Backing {
 public:
  Backing(const Distribution& dist, std::size_t block_bytes, Windows& w) : dist_(dist), block_(block_bytes), w_(w) {}

  void fetch(std::uint64_t block, std::span<std::byte> into) override {
    for_each_piece(dist_, block * block_, into.size(), [&](int home, std::uint64_t at_home, std::uint64_t at, auto n) {
      if (std::byte* mine = w_.local[static_cast<std::size_t>(home)]) {
        std::memcpy(into.data() + at, mine + at_home, n);
        return;
      }
      mpi::check(MPI_Get(into.data() + at, static_cast<int>(n), MPI_BYTE, home, static_cast<MPI_Aint>(at_home),
                         static_cast<int>(n), MPI_BYTE, w_.all),
                 "MPI_Get");
      w_.pending = true;
    });
    w_.complete();
  }

  void store(std::uint64_t block, std::uint64_t offset, std::span<const std::byte> bytes) override {
    for_each_piece(dist_, block * block_ + offset, bytes.size(), [&](int home, std::uint64_t at_home, auto at, auto n) {
      if (std::byte* mine = w_.local[static_cast<std::size_t>(home)]) {
        std::memcpy(mine + at_home, bytes.data() + at, n);
        return;
      }
      mpi::check(MPI_Put(bytes.data() + at, static_cast<int>(n), MPI_BYTE, home, static_cast<MPI_Aint>(at_home),
                         static_cast<int>(n), MPI_BYTE, w_.all),
                 "MPI_Put");
      w_.pending = true;
    });
  }

  void complete() override { w_.complete(); }

 private:
  const Distribution& dist_;
  std::uint64_t block_;
  Windows& w_;
};

GlobalMemory::GlobalMemory(MPI_Comm comm, const Distribution& dist, const GlobalOptions& options)
    : comm_(comm), dist_(dist) {
  const mpi::Place me = mpi::place_in(comm);
  const std::uint64_t share = dist.elements_on(me.rank) * dist.unit();
  mpi::together(comm, [&] {
    check_options(dist, options, me.size);
    if (share > available_memory())
      throw input_error(fmt::format("global array: rank {}'s share, {}, is more than the {} this machine has free",
                                    me.rank, format_bytes(share), format_bytes(available_memory())));
  });
  // Blocks of whole elements, so that a block's pieces split at elements.
  const std::size_t block = (options.block_bytes + dist.unit() - 1) / dist.unit() * dist.unit();
  windows_ = std::make_unique<Windows>(comm, share, options.share_machine);
  backing_ = std::make_unique<Backing>(dist_, block, *windows_);
  cache_ = std::make_unique<BlockCache>(dist.bytes(), block, options.cache_blocks, *backing_);
}

GlobalMemory::~GlobalMemory() {
  try {
    release();
  } catch (...) {  // a failed write-back cannot be reported from here; the windows are freed all the same
  }
  cache_.reset();
  windows_.reset();
}

std::span<std::byte> GlobalMemory::own() { return {windows_->own, static_cast<std::size_t>(windows_->own_bytes)}; }

std::byte* GlobalMemory::direct(std::uint64_t offset, std::size_t bytes) const {
  const Piece p = piece_at(dist_, offset);
  std::byte* home = windows_->local[static_cast<std::size_t>(p.home)];
  return home && p.run >= bytes ? home + p.displacement : nullptr;
}

GlobalMemory::Checkout GlobalMemory::checkout(std::uint64_t offset, std::size_t bytes, Access access) {
  if (offset > dist_.bytes() || bytes > dist_.bytes() - offset)
    throw input_error(fmt::format("checkout of {} bytes from byte {}: outside the global array's {} bytes", bytes,
                                  offset, dist_.bytes()));
  return Checkout(this, offset, bytes, access);
}

GlobalMemory::Checkout::Checkout(GlobalMemory* owner, std::uint64_t offset, std::size_t bytes, Access access)
    : owner_(owner), offset_(offset), bytes_(bytes), access_(access) {
  if (bytes > 0) owner_->open(*this);
}

GlobalMemory::Checkout::Checkout(Checkout&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)),
      offset_(other.offset_),
      bytes_(other.bytes_),
      access_(other.access_),
      data_(other.data_),
      pinned_(std::move(other.pinned_)),
      staging_(std::move(other.staging_)) {
  if (!staging_.empty()) data_ = staging_.data();
}

GlobalMemory::Checkout::~Checkout() {
  if (owner_) owner_->close(*this);
}

void GlobalMemory::open(Checkout& c) {
  if ((c.data_ = direct(c.offset_, c.bytes_))) {
    ++stats_.direct;
    return;
  }
  const std::size_t block = cache_->block_bytes();
  const std::uint64_t first = c.offset_ / block, last = (c.offset_ + c.bytes_ - 1) / block;
  if (last - first + 1 > cache_->capacity())
    throw input_error(fmt::format("checkout of {} bytes spans {} blocks of {} bytes; the cache holds {}", c.bytes_,
                                  last - first + 1, block, cache_->capacity()));
  try {
    for (std::uint64_t b = first; b <= last; ++b) c.pinned_.push_back(cache_->pin(b, c.access_ != Access::write));
  } catch (...) {
    for (std::uint64_t b = first; b < first + c.pinned_.size(); ++b) cache_->unpin(b, 0, 0, false);
    c.pinned_.clear();
    throw;
  }
  if (c.pinned_.size() == 1) {
    c.data_ = c.pinned_[0] + c.offset_ % block;
    return;
  }
  c.staging_.resize(c.bytes_);
  c.data_ = c.staging_.data();
  if (c.access_ != Access::write) stage(c, true);
}

void GlobalMemory::stage(Checkout& c, bool in) {
  const std::size_t block = cache_->block_bytes();
  const std::uint64_t first = c.offset_ / block;
  for (std::uint64_t at = 0; at < c.bytes_;) {
    const std::uint64_t byte = c.offset_ + at;
    const std::size_t inside = byte % block;
    const std::size_t n = std::min<std::uint64_t>(block - inside, c.bytes_ - at);
    std::byte* cached = c.pinned_[byte / block - first] + inside;
    if (in)
      std::memcpy(c.staging_.data() + at, cached, n);
    else
      std::memcpy(cached, c.staging_.data() + at, n);
    at += n;
  }
}

void GlobalMemory::close(Checkout& c) noexcept {
  if (c.pinned_.empty()) return;
  const bool wrote = c.access_ != Access::read;
  if (wrote && !c.staging_.empty()) stage(c, false);
  const std::size_t block = cache_->block_bytes();
  const std::uint64_t first = c.offset_ / block, end = c.offset_ + c.bytes_;
  for (std::uint64_t b = first; b < first + c.pinned_.size(); ++b) {
    const std::uint64_t from = std::max(c.offset_, b * block), to = std::min(end, (b + 1) * block);
    cache_->unpin(b, static_cast<std::size_t>(from - b * block), static_cast<std::size_t>(to - from), wrote);
  }
  c.pinned_.clear();
}

void GlobalMemory::release() {
  cache_->write_back();
  windows_->sync();
}

void GlobalMemory::acquire() {
  cache_->invalidate();
  windows_->sync();
}

void GlobalMemory::barrier() {
  release();
  mpi::check(MPI_Barrier(comm_), "MPI_Barrier");
  acquire();
}

const GlobalMemory::Stats& GlobalMemory::stats() {
  stats_.cache = cache_->stats();
  return stats_;
}

}  // namespace ulibc::global
