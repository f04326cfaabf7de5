// bfs/distributed/exchange.hpp — the collectives a distributed BFS is made of, each counting the bytes it moves.
//
// A count is this rank's: bytes it sent to and received from other ranks, not what it copied to itself, so that
// a one-rank job moves nothing. MPI's counts are ints: every exchange here moves at most one element per vertex of
// a block (a frontier, a bitmap word, a discovered vertex per sender) or a round of bounded size, far below 2^31.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "mpi/comm.hpp"

namespace ulibc::bfs::distributed {

struct Bytes {
  std::int64_t sent = 0;
  std::int64_t received = 0;
  Bytes& operator+=(const Bytes& b) {
    sent += b.sent;
    received += b.received;
    return *this;
  }
};

// Elements move as 4- or 8-byte unsigned words: the MPI type, and how many words an element is.
template <class T>
struct Words {
  static_assert(sizeof(T) % 4 == 0, "elements are moved as 4- or 8-byte words");
  static constexpr std::int64_t bytes = sizeof(T) % 8 == 0 ? 8 : 4;
  static constexpr std::int64_t per_element = static_cast<std::int64_t>(sizeof(T)) / bytes;
  static MPI_Datatype type() { return bytes == 8 ? MPI_UINT64_T : MPI_UINT32_T; }
  static int of(std::size_t elements) { return static_cast<int>(static_cast<std::int64_t>(elements) * per_element); }
};

// Every rank's `mine`, in rank order; `from` (optional) gets where each rank's part begins, in elements (size + 1
// entries).
template <class T>
std::vector<T> allgather(std::span<const T> mine, MPI_Comm comm, Bytes& bytes, std::vector<int>* from = nullptr) {
  using W = Words<T>;
  const mpi::Place me = mpi::place_in(comm);
  std::vector<int> counts(static_cast<std::size_t>(me.size)), displs(counts.size() + 1, 0);
  int count = W::of(mine.size());
  mpi::check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm), "MPI_Allgather");
  for (std::size_t r = 0; r < counts.size(); ++r) displs[r + 1] = displs[r] + counts[r];
  std::vector<T> all(static_cast<std::size_t>(displs.back() / W::per_element));
  mpi::check(MPI_Allgatherv(mine.data(), count, W::type(), all.data(), counts.data(), displs.data(), W::type(), comm),
             "MPI_Allgatherv");
  bytes.sent += W::bytes * count * (me.size - 1);
  bytes.received += W::bytes * (displs.back() - count);
  if (from) {
    from->assign(displs.begin(), displs.end());
    for (int& d : *from) d = static_cast<int>(d / W::per_element);
  }
  return all;
}

// Words of a bitmap gathered in place: rank r's `counts[r]` words land at `displs[r]` of `all`, its own already
// there.
void allgather_words(std::span<std::uint64_t> all, const std::vector<int>& counts, const std::vector<int>& displs,
                     MPI_Comm comm, Bytes& bytes);

// Per destination, the lists to send there: one (out[d]), or one per thread (out[t][d]), packed in thread order.
template <class T>
using Outbox = std::vector<std::vector<T>>;
template <class T>
using ThreadOutboxes = std::vector<Outbox<T>>;

// What every rank sent to this one, in rank order, from `threads`' outboxes (one outbox per thread; each has one
// list per rank of `comm`). `from` (optional) gets where each rank's part begins, in elements (size + 1 entries).
template <class T>
std::vector<T> alltoall(const ThreadOutboxes<T>& threads, MPI_Comm comm, Bytes& bytes,
                        std::vector<int>* from = nullptr) {
  using W = Words<T>;
  const mpi::Place me = mpi::place_in(comm);
  const auto size = static_cast<std::size_t>(me.size);
  std::vector<int> send_counts(size, 0), send_displs(size + 1, 0), recv_counts(size), recv_displs(size + 1, 0);
  for (std::size_t d = 0; d < size; ++d) {
    for (const Outbox<T>& t : threads) send_counts[d] += W::of(t[d].size());
    send_displs[d + 1] = send_displs[d] + send_counts[d];
  }
  mpi::check(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm), "MPI_Alltoall");
  for (std::size_t d = 0; d < size; ++d) recv_displs[d + 1] = recv_displs[d] + recv_counts[d];
  std::vector<T> packed;
  packed.reserve(static_cast<std::size_t>(send_displs.back() / W::per_element));
  for (std::size_t d = 0; d < size; ++d)
    for (const Outbox<T>& t : threads) packed.insert(packed.end(), t[d].begin(), t[d].end());
  std::vector<T> in(static_cast<std::size_t>(recv_displs.back() / W::per_element));
  mpi::check(MPI_Alltoallv(packed.data(), send_counts.data(), send_displs.data(), W::type(), in.data(),
                           recv_counts.data(), recv_displs.data(), W::type(), comm),
             "MPI_Alltoallv");
  const auto mine = static_cast<std::size_t>(me.rank);
  bytes.sent += W::bytes * (send_displs.back() - send_counts[mine]);
  bytes.received += W::bytes * (recv_displs.back() - recv_counts[mine]);
  if (from) {
    from->assign(recv_displs.begin(), recv_displs.end());
    for (int& d : *from) d = static_cast<int>(d / W::per_element);
  }
  return in;
}

// The same from one outbox, which the exchange takes over.
template <class T>
std::vector<T> alltoall(Outbox<T>&& out, MPI_Comm comm, Bytes& bytes, std::vector<int>* from = nullptr) {
  ThreadOutboxes<T> one;
  one.push_back(std::move(out));
  return alltoall(one, comm, bytes, from);
}

// Empties every list of `threads`' outboxes (one per thread, `destinations` lists each), keeping their memory for
// the next exchange.
template <class T>
void clear_outboxes(ThreadOutboxes<T>& threads, std::size_t destinations) {
  for (Outbox<T>& t : threads) {
    t.resize(destinations);
    for (std::vector<T>& list : t) list.clear();
  }
}

// Sums of int64 values across the ranks, in place. Counted as the values sent once and the sums received once
// (what any reduction tree moves per rank, give or take its depth).
void sum_in_place(std::span<std::int64_t> values, MPI_Comm comm, Bytes& bytes);

}  // namespace ulibc::bfs::distributed
