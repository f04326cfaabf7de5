// gmres/gmres.hpp — GMRES(m) on MPI, right-preconditioned, that tunes itself at run time.
//
// After Katagiri and Kuroda, "An Auto-tuning Method for Sparse Matrix Iterative Solvers on Windows Cluster"
// (ILIB_GMRES): every knob of §2.4 can be fixed by hand or left to the solver (`auto`, an empty optional here):
//   comm, spmv  the exchange and the row kernel of the product: measured on the matrix (tuner.hpp);
//   precond     none, jacobi, bilu0 or poly: a short trial of each, kept by residual reduction per second;
//   orth        starts as cgs, the cheapest; switches once, for good, to the cheaper per step of mgs and cgs2 when
//               the basis measurably loses orthogonality (the seed's Fig. 11: switching costs iterations, so the
//               solver never switches back and forth);
//   restart     starts at 30 and grows when a cycle stalls (the seed's Fig. 12 ends at 72–110 on a hard matrix).
// Tuning time is part of the solve's time, and every decision is recorded with the measurements behind it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "gmres/orthogonalize.hpp"
#include "gmres/preconditioner.hpp"
#include "gmres/spmv.hpp"
#include "gmres/tuning_file.hpp"
#include "mpi/comm_profile.hpp"

namespace ulibc::gmres {

inline constexpr int kDefaultRestart = 30;   // the seed's fixed default, and where `auto` starts
inline constexpr int kMaxAutoRestart = 240;  // how far `auto` may grow it

struct Options {
  double tol = 1e-8;            // stop when ‖b − A x‖ ≤ tol·‖b‖
  long max_iterations = 10000;  // Arnoldi steps, the tuner's trials included
  std::optional<int> restart;   // m; nullopt: auto
  std::optional<Orth> orth;
  std::optional<Precond> precond;
  std::optional<Kernel> kernel;
  std::optional<Comm> comm;
  PrecondOptions precond_options;
  std::optional<mpi::CommProfile> profile;  // measured beforehand: where the choice of exchange starts
};
// Error(input) for tol outside (0, 1), max_iterations < 1, restart < 1, a poly degree outside 0..20.
void check(const Options& o);

// Sets o's knobs from `w` (tuning_file.hpp). Error(input) naming the option and the accepted words for anything else.
void set_knobs(Options& o, const KnobWords& w);

// One choice the solver made, with the measurements behind it.
struct Decision {
  std::string knob;    // "comm", "spmv", "precond", "orth", "restart"
  std::string choice;  // "isend", "bilu0", …
  std::string reason;  // "fastest of 5 measured: isend 41 us, p2p 44 us, …"
};

struct Result {
  bool converged = false;
  long iterations = 0;           // Arnoldi steps that built the answer (the winning trial's included)
  long trial_iterations = 0;     // steps of the trials whose candidate lost
  int restarts = 0;              // cycles after the first
  double relative_residual = 0;  // ‖b − A x‖/‖b‖ as the solver last computed it
  std::vector<double> history;   // that relative residual at the start of every cycle, and at the end
  int restart = 0;               // m at the end
  Orth orth = Orth::cgs;
  Precond precond = Precond::none;
  IluBlocks ilu_blocks = IluBlocks::rank;  // block ILU(0)'s blocks, when precond is bilu0
  std::string precond_detail;              // Preconditioner::describe()
  Kernel kernel = Kernel::csr;
  Comm comm = Comm::p2p;
  std::vector<Decision> decisions;
  // Where the solve's time went (Katagiri and Kuroda's Fig. 12 stacks its parts): "spmv" (the products, with MPI's
  // part of their exchanges as "spmv/comm"), "orth" (orthogonalisation, its reductions included), "precond" (set-up
  // and application, a polynomial's products included) and "tuning" (every measurement and trial of the tuner).
  // Each stage is its seconds averaged over the ranks; the whole solve is the slowest rank's, the time to solution.
  harness::StageLog time{"solve"};
};

// Remembering a tuned solve (tuning_file.hpp). tuning_key is collective: the global shape, a hash of every rank's
// rows (columns and values, in order), the rank layout (mpi::layout_key) and the threads of every rank, so that a
// record is used only where the same tuning would be redone.
std::string tuning_key(const DistributedMatrix& a);
Tuned tuned_of(const Result& r);  // the knobs `r` ended with
// Sets the knobs `o` leaves auto from `t` and returns a decision for each; Error(input) naming `source` for a word
// the solver does not know.
std::vector<Decision> recall(Options& o, const Tuned& t, const std::string& source);

// A tuning file across the ranks of a job, both collective. Rank 0 reads the file and every rank takes its text, so
// that no rank tunes while the others recall (a host without the file); recall_tuning sets the choices stored for
// this matrix, ranks and threads on `s`'s auto knobs. remember_tuning stores what a solve with every knob on auto
// settled on, when it converged and the file had nothing for it.
struct Remembered {
  std::string file, key;  // both empty without a file
  bool found = false;
  std::vector<Decision> decisions;
};
Remembered recall_tuning(const std::string& file, const DistributedMatrix& a, Options& s);
void remember_tuning(const Remembered& m, const DistributedMatrix& a, const Result& r, bool converged, bool all_auto);

// Collective over the matrix's communicator: solves A x = b from the x given (zeros for x0 = 0), this rank's rows
// of each. Error(input) on every rank when a preconditioner fixed by hand cannot be set up (a zero pivot).
Result solve(const DistributedMatrix& a, const Vector& b, Vector& x, const Options& opts);

}  // namespace ulibc::gmres
