// global_memory/global_array.hpp — a global array of T over the ranks: GlobalMemory in elements, its checkouts as
// spans of T.
//
// T must be trivially copyable (its bytes go through MPI and the cache as they are) and aligned to at most 16 bytes
// (what the cache's and the staging buffers' allocations give). Collective as GlobalMemory: construction,
// destruction, barrier().
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "global_memory/global_memory.hpp"
#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::global {

// A checkout of elements: T for read-write and write-only ones, const T for read-only ones.
template <class T>
class Elements {
 public:
  explicit Elements(GlobalMemory::Checkout c) : c_(std::move(c)) {}
  std::span<T> span() const { return {reinterpret_cast<T*>(c_.data()), c_.size() / sizeof(T)}; }
  T& operator[](std::size_t i) const { return span()[i]; }
  std::size_t size() const { return c_.size() / sizeof(T); }

 private:
  GlobalMemory::Checkout c_;
};

template <class T>
requires std::is_trivially_copyable_v<T> &&(alignof(T) <= 16) class GlobalArray {
 public:
  // n elements in blocks over comm's ranks (shares differing by at most one), or in chunks of `chunk` dealt round
  // robin. Errors as GlobalMemory's.
  static GlobalArray block(MPI_Comm comm, std::uint64_t n, const GlobalOptions& options = {}) {
    return GlobalArray(comm, Distribution::block(n, sizeof(T), mpi::place_in(comm).size), options);
  }
  static GlobalArray cyclic(MPI_Comm comm, std::uint64_t n, std::uint64_t chunk, const GlobalOptions& options = {}) {
    return GlobalArray(comm, Distribution::cyclic(n, sizeof(T), mpi::place_in(comm).size, chunk), options);
  }

  std::uint64_t size() const { return memory_.distribution().elements(); }
  std::span<T> own() { return {reinterpret_cast<T*>(memory_.own().data()), memory_.own().size() / sizeof(T)}; }

  // Elements [first, first + count). Error(input) as GlobalMemory::checkout, in elements' bytes.
  Elements<const T> read(std::uint64_t first, std::size_t count) { return take<const T>(first, count, Access::read); }
  Elements<T> write(std::uint64_t first, std::size_t count) { return take<T>(first, count, Access::write); }
  Elements<T> read_write(std::uint64_t first, std::size_t count) { return take<T>(first, count, Access::read_write); }

  GlobalMemory& memory() { return memory_; }  // release, acquire, barrier, stats

 private:
  GlobalArray(MPI_Comm comm, const Distribution& d, const GlobalOptions& o) : memory_(comm, d, o) {}
  template <class U>
  Elements<U> take(std::uint64_t first, std::size_t count, Access access) {
    if (first > size() || count > size() - first)
      throw input_error("global array: elements [" + std::to_string(first) + ", " + std::to_string(first) + " + " +
                        std::to_string(count) + ") outside its " + std::to_string(size()));
    return Elements<U>(memory_.checkout(first * sizeof(T), count * sizeof(T), access));
  }

  GlobalMemory memory_;
};

}  // namespace ulibc::global
