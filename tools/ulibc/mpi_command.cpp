// mpi_command.cpp — an MPI command's session, and its failure reported before MPI_Finalize.
#include "mpi_command.hpp"

#include <exception>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.hpp"
#include "ulibc/error.hpp"

namespace ulibc::cli {

void run_mpi_command(const std::function<void()>& body, mpi::ThreadLevel level) {
  std::optional<ErrorKind> failed;
  std::optional<ExitStatus> outcome;
  {
    const mpi::Session session(level);
    try {
      body();
    } catch (const ExitStatus& e) {
      print_status(e);
      outcome = ExitStatus{e.code, ""};
    } catch (const Error& e) {
      if (*e.what()) print_error(e.what());
      failed = e.kind();
    } catch (const std::exception& e) {
      print_error(e.what());
      failed = ErrorKind::system;
    }
  }
  if (outcome) throw *outcome;
  if (failed) throw mpi::FailedElsewhere(*failed);
}

}  // namespace ulibc::cli
