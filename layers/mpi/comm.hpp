// mpi/comm.hpp — ULIBC's one door to MPI: the session, the error convention, the reductions the solvers share.
//
// Every MPI call goes through check(), which turns a failure into ulibc::Error(system) naming the call and MPI's
// own message: the session sets MPI_ERRORS_RETURN on MPI_COMM_WORLD so that failures come back as codes instead of
// aborting the job. Threads: the session asks for MPI_THREAD_FUNNELED — only the thread that started MPI calls it;
// OpenMP teams work between the calls — unless told that the program has one thread (MPI_THREAD_SINGLE, what
// MPI_Init gives: Open MPI 4.1's calls cost about a tenth more at the other level, which measurements of MPI itself
// compared with a single-threaded program's must leave out).
#pragma once
#include <mpi.h>

#include <exception>
#include <optional>
#include <span>
#include <string>

#include "ulibc/error.hpp"

namespace ulibc::mpi {

// Error(system) "MPI_Allreduce: <MPI's message>" unless rc is MPI_SUCCESS.
void check(int rc, const char* call);

enum class ThreadLevel { single, funneled };

// MPI for the lifetime of the object: initialised here unless someone already did, finalised at the end only if it
// was initialised here. Works without a launcher too (a singleton: one rank).
class Session {
 public:
  explicit Session(ThreadLevel level = ThreadLevel::funneled);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  bool owner_ = false;
};

// The thread level MPI gave this process: "single", "funneled", "serialized" or "multiple".
std::string provided_thread_level();

// Where this process stands in a communicator.
struct Place {
  int rank = 0;
  int size = 1;
};
Place place_in(MPI_Comm comm);

// Sums, elementwise across the ranks, in place.
void sum_in_place(std::span<double> values, MPI_Comm comm);
double sum(double value, MPI_Comm comm);
// The largest value across the ranks: what a decision taken by every rank alike is based on.
double max(double value, MPI_Comm comm);
// Rank `root`'s text (or its nullopt) on every rank: what one rank read from a file that the others' hosts may
// not have, so that every rank goes on with the same.
std::optional<std::string> broadcast(const std::optional<std::string>& text, int root, MPI_Comm comm);

// An error another rank of the job found and reported: this rank leaves with the same kind of failure, saying
// nothing more (the message is empty), so that a job prints a bad input once, not once per rank.
class FailedElsewhere : public Error {
 public:
  explicit FailedElsewhere(ErrorKind kind) : Error(kind, "") {}
};

// Collective: runs `work` (local work only, no MPI calls that need the other ranks) on every rank, then agrees: if
// it threw anywhere, it throws everywhere — its own error on the lowest rank that failed, FailedElsewhere of the
// same kind on every other — so that no rank waits in a later collective for one that has left, and a fault that
// several ranks meet (a share too large for each) is said once.
template <class Work>
void together(MPI_Comm comm, Work&& work);

// Collective: the lowest rank whose outcome `mine` is a failure (0 none, 1 an Error(system) or other exception, 2
// an Error(input)), and that outcome; {-1, 0} when no rank failed.
struct Failure {
  int rank = -1;
  int outcome = 0;
};
Failure first_failure(int mine, MPI_Comm comm);

// This machine's name as MPI gives it.
std::string processor_name();

template <class Work>
void together(MPI_Comm comm, Work&& work) {
  std::exception_ptr error;
  int mine = 0;
  try {
    work();
  } catch (const Error& e) {
    error = std::current_exception();
    mine = e.kind() == ErrorKind::input ? 2 : 1;
  } catch (...) {
    error = std::current_exception();
    mine = 1;
  }
  const Failure first = first_failure(mine, comm);
  if (first.rank < 0) return;
  if (first.rank == place_in(comm).rank) std::rethrow_exception(error);
  throw FailedElsewhere(first.outcome == 2 ? ErrorKind::input : ErrorKind::system);
}

}  // namespace ulibc::mpi
