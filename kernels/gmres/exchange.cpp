// gmres/exchange.cpp — the plan of the exchanges and the five ways to run one.
#include "gmres/exchange.hpp"

#include <fmt/format.h>

#include "harness/named.hpp"
#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

namespace {

constexpr int kTag = 17;
constexpr std::array<const char*, 5> kCommNames = {"allgather", "bcast", "p2p", "isend", "irecv"};

double now() { return MPI_Wtime(); }

}  // namespace

std::string comm_name(Comm c) { return harness::name_of(c, kCommNames); }
Comm parse_comm(const std::string& name) { return harness::parse_name<Comm>(name, kCommNames, "communication"); }

bool overlaps(Comm c) { return c == Comm::isend || c == Comm::irecv; }

// Ghosts are sorted by global column, so each owner's ghosts are one run; the owners learn what to send from an
// all-to-all of the counts and then of the rows wanted.
Exchange::Exchange(const DistributedMatrix& a) : a_(a) {
  const RowBlocks& blocks = a.blocks();
  const int ranks = blocks.ranks();
  std::vector<int> want(static_cast<std::size_t>(ranks), 0), owed(want.size(), 0);
  const auto ghosts = a.ghosts();
  for (std::size_t g = 0; g < ghosts.size();) {
    Peer p{blocks.owner(ghosts[g])};
    p.first = static_cast<int>(g);
    while (g < ghosts.size() && blocks.owner(ghosts[g]) == p.rank) ++g;
    p.count = static_cast<int>(g) - p.first;
    want[p.rank] = p.count;
    recv_.push_back(p);
  }
  mpi::check(MPI_Alltoall(want.data(), 1, MPI_INT, owed.data(), 1, MPI_INT, a.comm()), "MPI_Alltoall");
  std::vector<int> send_displs(want.size() + 1, 0), recv_displs(want.size() + 1, 0);
  for (int r = 0; r < ranks; ++r) {
    send_displs[r + 1] = send_displs[r] + want[r];
    recv_displs[r + 1] = recv_displs[r] + owed[r];
  }
  std::vector<int> wanted(ghosts.size()), asked(static_cast<std::size_t>(recv_displs.back()));
  for (std::size_t g = 0; g < ghosts.size(); ++g) wanted[g] = static_cast<int>(ghosts[g]);
  mpi::check(MPI_Alltoallv(wanted.data(), want.data(), send_displs.data(), MPI_INT, asked.data(), owed.data(),
                           recv_displs.data(), MPI_INT, a.comm()),
             "MPI_Alltoallv");
  const Index first_row = a.own().begin;
  for (int r = 0; r < ranks; ++r) {
    if (owed[r] == 0) continue;
    Peer p{r};
    for (int k = recv_displs[r]; k < recv_displs[r + 1]; ++k)
      p.positions.push_back(static_cast<int>(asked[k] - first_row));
    p.count = owed[r];
    p.buffer.resize(static_cast<std::size_t>(p.count));
    send_.push_back(std::move(p));
  }
  counts_ = blocks.counts();
  displs_ = blocks.displacements();
  send_to_.assign(static_cast<std::size_t>(ranks), nullptr);
  receive_from_.assign(static_cast<std::size_t>(ranks), nullptr);
  for (const Peer& p : send_) send_to_[p.rank] = &p;
  for (const Peer& p : recv_) receive_from_[p.rank] = &p;
  requests_.reserve(send_.size() + recv_.size());
}

double Exchange::bytes_received(Comm how) const {
  if (how == Comm::allgather || how == Comm::bcast)
    return static_cast<double>(a_.global_rows() - a_.rows()) * sizeof(double);
  return static_cast<double>(a_.ghosts().size()) * sizeof(double);
}

void Exchange::pack(const double* x_own) {
  for (Peer& p : send_)
    for (std::size_t k = 0; k < p.positions.size(); ++k) p.buffer[k] = x_own[p.positions[k]];
}

void Exchange::gather_whole(Comm how, const double* x_own, double* ghosts) {
  whole_.resize(static_cast<std::size_t>(a_.global_rows()));
  const MPI_Comm comm = a_.comm();
  const int me = a_.rank();
  if (how == Comm::allgather) {
    mpi::check(
        MPI_Allgatherv(x_own, counts_[me], MPI_DOUBLE, whole_.data(), counts_.data(), displs_.data(), MPI_DOUBLE, comm),
        "MPI_Allgatherv");
  } else {
    std::copy(x_own, x_own + counts_[me], whole_.data() + displs_[me]);
    for (int r = 0; r < static_cast<int>(counts_.size()); ++r)
      mpi::check(MPI_Bcast(whole_.data() + displs_[r], counts_[r], MPI_DOUBLE, r, comm), "MPI_Bcast");
  }
  const auto g = a_.ghosts();
  for (std::size_t k = 0; k < g.size(); ++k) ghosts[k] = whole_[g[k]];
}

double Exchange::start(Comm how, const double* x_own, double* ghosts) {
  const double started = now();
  requests_.clear();
  if (how == Comm::allgather || how == Comm::bcast) {
    gather_whole(how, x_own, ghosts);
  } else if (how == Comm::p2p) {
    exchange_pairwise(x_own, ghosts);
  } else {
    pack(x_own);
    const auto post_sends = [&] {
      for (Peer& p : send_) {
        requests_.emplace_back();
        mpi::check(MPI_Isend(p.buffer.data(), p.count, MPI_DOUBLE, p.rank, kTag, a_.comm(), &requests_.back()),
                   "MPI_Isend");
      }
    };
    const auto post_receives = [&] {
      for (const Peer& p : recv_) {
        requests_.emplace_back();
        mpi::check(MPI_Irecv(ghosts + p.first, p.count, MPI_DOUBLE, p.rank, kTag, a_.comm(), &requests_.back()),
                   "MPI_Irecv");
      }
    };
    if (how == Comm::isend) {
      post_sends();
      post_receives();
    } else {
      post_receives();
      post_sends();
    }
  }
  return now() - started;
}

double Exchange::finish() {
  if (requests_.empty()) return 0;
  const double started = now();
  mpi::check(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  requests_.clear();
  return now() - started;
}

// Pairwise by distance d: send to me+d while receiving from me-d; MPI_PROC_NULL where nothing is owed, so that no
// rank waits for a message that never comes and no cycle of blocking sends can form.
void Exchange::exchange_pairwise(const double* x_own, double* ghosts) {
  pack(x_own);
  const int ranks = a_.blocks().ranks(), me = a_.rank();
  for (int d = 1; d < ranks; ++d) {
    const Peer* s = send_to_[(me + d) % ranks];
    const Peer* r = receive_from_[(me - d + ranks) % ranks];
    if (!s && !r) continue;
    mpi::check(MPI_Sendrecv(s ? s->buffer.data() : nullptr, s ? s->count : 0, MPI_DOUBLE, s ? s->rank : MPI_PROC_NULL,
                            kTag, r ? ghosts + r->first : nullptr, r ? r->count : 0, MPI_DOUBLE,
                            r ? r->rank : MPI_PROC_NULL, kTag, a_.comm(), MPI_STATUS_IGNORE),
               "MPI_Sendrecv");
  }
}

}  // namespace ulibc::gmres
