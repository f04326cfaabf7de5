// mpi_command.hpp — running a command's body as an MPI job, its failure printed while the other ranks still wait.
#pragma once
#include <functional>

#include "mpi/comm.hpp"

namespace ulibc::cli {

// The rank that reads the files and prints the results.
inline constexpr int kRoot = 0;

// Runs `body` inside an mpi::Session at `level`. A failure is printed here, by the rank that met it, before
// MPI_Finalize, and leaves as mpi::FailedElsewhere of the same kind, which main does not print again; an ExitStatus
// (gmres: not converged) likewise, leaving without its message. Printed after the session ended, the line raced the
// launcher: MPI_Finalize waits for every rank, so the quiet ranks exited as soon as it returned, and the launcher,
// seeing a rank fail, could kill the job before the rank with the message had written it.
void run_mpi_command(const std::function<void()>& body, mpi::ThreadLevel level = mpi::ThreadLevel::funneled);

}  // namespace ulibc::cli
