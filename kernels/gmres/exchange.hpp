// gmres/exchange.hpp — bringing a rank the values of its ghost columns before a product: the five ways of Katagiri
// and Kuroda, "An Auto-tuning Method for Sparse Matrix Iterative Solvers on Windows Cluster", §2.2 (after the
// ILIB_GMRES solver of Kuroda, Katagiri and Kanada, VECPAR 2000).
//
//   allgather  MPI_Allgatherv of every rank's block: each rank then holds the whole vector;
//   bcast      every rank in turn broadcasts its block (MPI_Bcast), the whole vector again;
//   p2p        blocking point-to-point of only the entries a neighbour needs (MPI_Sendrecv, pairwise by distance);
//   isend      non-blocking, every MPI_Isend posted before the MPI_Irecvs;
//   irecv      non-blocking, every MPI_Irecv posted before the MPI_Isends.
// The collective ways suit a matrix whose columns reach everywhere (random, nearly dense); the point-to-point ones a
// banded one, whose ranks need a few entries of their neighbours. Which wins depends on the matrix, the rank count
// and the MPI library, so the tuner measures them (tuner.hpp). The non-blocking ways let the product of the
// diagonal block run while the messages travel; the blocking ones finish the exchange first.
#pragma once
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

#include "gmres/distributed_matrix.hpp"

namespace ulibc::gmres {

enum class Comm { allgather, bcast, p2p, isend, irecv };
inline constexpr std::array<Comm, 5> kComms = {Comm::allgather, Comm::bcast, Comm::p2p, Comm::isend, Comm::irecv};
std::string comm_name(Comm c);
Comm parse_comm(const std::string& name);  // Error(input) naming the accepted words
bool overlaps(Comm c);                     // isend and irecv: the diagonal product runs during the exchange

// The plan of one matrix's exchanges, made once (collective): who needs which of whose entries.
class Exchange {
 public:
  explicit Exchange(const DistributedMatrix& a);

  // Fills ghosts[g] with x's value at global column a.ghosts()[g], from the owners of those columns; `x_own` is
  // this rank's block. The blocking ways complete the exchange in start(); the overlapping ones post their
  // messages there and wait in finish(), so that the caller computes in between. Collective: every rank calls
  // both with the same `how`. Each returns the seconds this rank spent in MPI calls.
  double start(Comm how, const double* x_own, double* ghosts);
  double finish();

  // Bytes this rank receives per exchange: the whole vector for the collective ways, its ghosts for the others.
  double bytes_received(Comm how) const;
  int neighbours() const { return static_cast<int>(recv_.size()); }

 private:
  struct Peer {
    int rank = 0;
    std::vector<int> positions;  // send: local rows to send; receive: unused
    int first = 0, count = 0;    // receive: the ghosts [first, first+count) it sends; send: count = positions.size()
    std::vector<double> buffer;  // send: the packed values
  };
  void gather_whole(Comm how, const double* x_own, double* ghosts);
  void exchange_pairwise(const double* x_own, double* ghosts);
  void pack(const double* x_own);
  const DistributedMatrix& a_;
  std::vector<Peer> send_, recv_;
  std::vector<double> whole_;                        // the whole vector, for allgather and bcast
  std::vector<int> counts_, displs_;                 // every rank's block, for allgather and bcast
  std::vector<const Peer*> send_to_, receive_from_;  // by rank: the peer, or null where nothing passes
  std::vector<MPI_Request> requests_;                // what start() posted and finish() waits for
};

}  // namespace ulibc::gmres
