// mpi_costs/mpi_costs.hpp — MPI's basic costs measured by message size: what `ulibc bench mpi` runs and stores as a
// profile.
//
// Katagiri and Kuroda (§3.2, Figs 2–9) measure the MPI calls GMRES(m) makes before tuning it: point-to-point
// bandwidth between ranks pinned to chosen processors (sharing a cache or not, one machine or two), non-blocking
// transfers with and without computation on the same core (when the effective bandwidth halves under load, nothing
// overlaps), MPI_Allgather by message size and rank count, MPI_Allreduce by the number of doubles. The definitions
// follow the OSU micro-benchmarks, so that the figures compare with theirs: osu_latency's one-way time (half a round
// trip), osu_bw's window of non-blocking sends, and for the collectives osu_allgather's time of one call, timed
// call by call between barriers and averaged over the ranks.
//
// Every figure is kept per repetition: a repetition times a short run of operations (MicroPlan::batch_seconds, its
// length found by doubling, which also warms up the path), and the reported value is the median of the
// repetitions, the cost of the calls without the stalls of a shared machine. OSU reports the mean of all its
// iterations, which counts those stalls, and with -z the median iteration, which does not (peers/mpi_vs_osu.py).
// Each function is collective over `comm`; the point-to-point ones run on ranks 0 and 1 while the others wait, and
// hand back nothing on those others. Figures are rank 0's.
#pragma once
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/bench_kernel.hpp"
#include "mpi/comm_profile.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::mpi {

enum class Micro { p2p, overlap, allgather, allreduce, bcast };
inline constexpr std::array<Micro, 5> kMicros = {Micro::p2p, Micro::overlap, Micro::allgather, Micro::allreduce,
                                                 Micro::bcast};
const char* micro_name(Micro m);
// Error(input) naming the accepted words.
Micro parse_micro(std::string_view word);
// p2p and overlap: a transfer between ranks 0 and 1, so a job of one rank cannot run them.
bool needs_two_ranks(Micro m);

// Beyond this a message is a typing mistake more likely than a measurement (and MPI counts are ints).
inline constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 30;

struct MicroPlan {
  std::vector<std::size_t> sizes;  // message bytes, ascending, whole doubles: MPI_Allreduce sums doubles
  int reps = 20;                   // timed repetitions at each size
  // About how long one repetition runs operations back to back. Short, so that on a shared machine most
  // repetitions fall between two preemptions and their median is the cost of the calls alone: a run of 5 ms
  // on two busy cores was preempted in about half its repetitions, and the median with it.
  double batch_seconds = 5e-4;
  int window = 64;  // sends in flight in the bandwidth test (osu_bw's window)
};

// 8 bytes to 4 MiB by powers of 2; quick: by powers of 64, to 2 MiB.
std::vector<std::size_t> default_sizes(bool quick);
// The sizes given, ascending, each once. Error(input) for none, 0, a size that is not whole doubles or one above
// kMaxMessageBytes.
std::vector<std::size_t> message_sizes(std::vector<std::uint64_t> given);

// One message size: the repetitions (seconds per operation, or MB/s) and their median as the value.
struct Point {
  std::size_t bytes = 0;
  long operations = 0;  // timed in each repetition
  harness::Measurement figure;
};
using Series = std::vector<Point>;

// Ranks 0 and 1: one message one way, half of osu_latency's round trip (MPI_Send, MPI_Recv), in seconds.
Series p2p_latency(MPI_Comm comm, const MicroPlan& plan);
// Ranks 0 and 1: osu_bw's bandwidth, window non-blocking sends and a one-byte answer, in MB/s (10^6 bytes/s).
Series p2p_bandwidth(MPI_Comm comm, const MicroPlan& plan);

// One message size of the overlap test (Katagiri and Kuroda's Fig. 5): rank 0 MPI_Isend, rank 1 MPI_Irecv, then
// MPI_Wait; timed alone, and with a computation of about the transfer's own time on both ranks' cores between the
// post and the wait.
struct OverlapPoint {
  std::size_t bytes = 0;
  long operations = 0;
  harness::Measurement alone;   // seconds per transfer, the slower rank's
  harness::Measurement loaded;  // the same with the computation
  double compute = 0;           // seconds of the computation on its own, the slower rank's
  // The part of the shorter of transfer and computation hidden behind the other: 1 when the loaded transfer took
  // no longer than the longer of the two, 0 when it took their sum (the effective bandwidth halves).
  double overlap() const;
};
std::vector<OverlapPoint> overlap(MPI_Comm comm, const MicroPlan& plan);

// Every rank: one call with `bytes` from each rank (MPI_Allgather), of `bytes` of doubles (MPI_Allreduce, sum), of
// `bytes` from rank 0 (MPI_Bcast); seconds, averaged over the ranks.
Series allgather_time(MPI_Comm comm, const MicroPlan& plan);
Series allreduce_time(MPI_Comm comm, const MicroPlan& plan);
Series bcast_time(MPI_Comm comm, const MicroPlan& plan);

// The medians as a profile's curve, and the profile the solvers read (mpi/comm_profile.hpp).
Curve curve_of(const Series& s);
CommProfile profile_of(std::string key, const Series& p2p, const Series& allgather, const Series& bcast,
                       const Series& allreduce);

// What two processors of one machine share, as far as its topology tells (its caches need Detail::full).
struct Sharing {
  Processor a, b;
  std::vector<Cache> caches;  // those both are in, by level
  bool same_processor() const { return a.id == b.id; }
  bool same_core() const { return a.core == b.core; }
  bool same_package() const { return a.package == b.package; }
  bool same_node() const { return a.node == b.node; }
  // "processors 0 and 1: two cores of package 0, node 0; shared caches: L3 (32 MiB)".
  std::string describe() const;
};
// Error(input) naming a processor the topology does not know.
Sharing sharing(const Topology& topo, int a, int b);

}  // namespace ulibc::mpi
