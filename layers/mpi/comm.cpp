// mpi/comm.cpp — the session and the error convention of mpi/comm.hpp.
#include "mpi/comm.hpp"

#include <fmt/format.h>

#include <climits>
#include <cstdlib>
#include <string>

#include "ulibc/error.hpp"
#include "ulibc/rank_share.hpp"

namespace ulibc::mpi {

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) length = 0;
  throw system_error(
      std::string(call) + ": " +
      (length > 0 ? std::string(text, static_cast<std::size_t>(length)) : "error " + std::to_string(rc)));
}

namespace {

// A process that no launcher started becomes a singleton. Open MPI 4.1 then starts a daemon of its own (orted), which
// took 0.35 s, and 5 s on a machine where `localhost` does not resolve (a fresh root under chroot). An isolated
// singleton starts none (0.25 s either way) and only cannot spawn processes, which ULIBC never does. A setting of the
// user's own is kept.
void isolate_a_singleton() {
  if (!launcher_local_rank()) setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
}

}  // namespace

Session::Session(ThreadLevel level) {
  int started = 0;
  check(MPI_Initialized(&started), "MPI_Initialized");
  if (!started) {
    isolate_a_singleton();
    const int required = level == ThreadLevel::single ? MPI_THREAD_SINGLE : MPI_THREAD_FUNNELED;
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, required, &provided), "MPI_Init_thread");
    owner_ = true;
    if (provided < required)
      throw system_error("MPI_Init_thread: this MPI gives no MPI_THREAD_FUNNELED, which the OpenMP teams need");
  }
  check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
}

Session::~Session() {
  if (owner_) MPI_Finalize();
}

std::string provided_thread_level() {
  int level = 0;
  check(MPI_Query_thread(&level), "MPI_Query_thread");
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "single";
    case MPI_THREAD_FUNNELED:
      return "funneled";
    case MPI_THREAD_SERIALIZED:
      return "serialized";
    default:
      return "multiple";
  }
}

Place place_in(MPI_Comm comm) {
  Place p;
  check(MPI_Comm_rank(comm, &p.rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &p.size), "MPI_Comm_size");
  return p;
}

void sum_in_place(std::span<double> values, MPI_Comm comm) {
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM, comm),
        "MPI_Allreduce");
}

double sum(double value, MPI_Comm comm) {
  sum_in_place(std::span<double>(&value, 1), comm);
  return value;
}

double max(double value, MPI_Comm comm) {
  check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return value;
}

std::optional<std::string> broadcast(const std::optional<std::string>& text, int root, MPI_Comm comm) {
  long long length = text ? static_cast<long long>(text->size()) : -1;  // -1: nullopt
  check(MPI_Bcast(&length, 1, MPI_LONG_LONG, root, comm), "MPI_Bcast");
  if (length < 0) return std::nullopt;
  if (length > INT_MAX) throw input_error(fmt::format("{} bytes: too long a text for one MPI_Bcast", length));
  std::string received = text.value_or(std::string(static_cast<std::size_t>(length), '\0'));
  if (length > 0) check(MPI_Bcast(received.data(), static_cast<int>(length), MPI_CHAR, root, comm), "MPI_Bcast");
  return received;
}

Failure first_failure(int mine, MPI_Comm comm) {
  // One reduction: a failing rank's key orders by rank first and carries its outcome (1 or 2).
  const Place me = place_in(comm);
  long long key = mine ? static_cast<long long>(me.rank) * 3 + mine : LLONG_MAX;
  check(MPI_Allreduce(MPI_IN_PLACE, &key, 1, MPI_LONG_LONG, MPI_MIN, comm), "MPI_Allreduce");
  if (key == LLONG_MAX) return {};
  return {.rank = static_cast<int>(key / 3), .outcome = static_cast<int>(key % 3)};
}

std::string processor_name() {
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  check(MPI_Get_processor_name(name, &length), "MPI_Get_processor_name");
  return std::string(name, static_cast<std::size_t>(length));
}

}  // namespace ulibc::mpi
