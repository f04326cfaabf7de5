// peers/slepc_eigen.cpp — SLEPc's Jacobi–Davidson (EPSJD, complex) on the matrix `ulibc eigen` solves: its peer.
//
// The matrix is ULIBC's (peers/eigen_peer.hpp: a Matrix Market file, complex or real, or the generated complex
// convection-diffusion operators), so that both programs solve the very same problem. Every rank builds the whole
// CSR and gives PETSc its own contiguous block of rows (PETSc's even split) as an MPIAIJ matrix.
//
// The solver is EPSJD on a non-Hermitian problem (EPS_NHEP) for --nev K eigenpairs: nearest --target T in
// magnitude (EPS_TARGET_MAGNITUDE), of largest magnitude or of largest real part (--which). The extraction is
// SLEPc's: its Davidson setup takes EPS_RITZ, which is 0, for "not set", and then picks harmonic Ritz values for a
// target and the largest harmonic ones for the largest magnitude or real part on a non-Hermitian problem, so plain
// Ritz extraction cannot be asked of it here; --harmonic sets the harmonic one explicitly, and the record names the
// one that ran. The search space grows from --jmin
// (EPSJDSetRestart's minv) to --jmax (ncv) vectors, 10 and 20 by default as in `ulibc eigen`. The correction
// equation is solved by KSPGMRES with exactly --correction-steps steps (default 10; KSPConvergedSkip, restart the
// same), without a preconditioner unless --precond jacobi: what `ulibc eigen` does. Converged: ‖r‖ ≤ tol·|λ|
// (EPS_CONV_REL, `ulibc eigen`'s test), at most --max-iterations outer steps.
// Everything else is SLEPc's options database (one dash: -eps_view, -eps_jd_plusk 1, ...); the project's options are
// set first, so that the database wins. An option nobody used (misspelt) is refused after the solve, before
// anything is printed.
//
// PETSc runs one process per rank and no threads: "2 threads" in a comparison is `mpirun -n 2` here.
//
// Timed: EPSSolve alone (the setup, EPSSetUp, before it), from an MPI_Barrier, the slowest rank's MPI_Wtime.
// Matrix-vector products are counted by PETSc's logging (the MatMult event, on rank 0; EPSSolve's own, not the
// residuals' below), which is on during the solve for that reason. Afterwards, untimed, each of the first K
// converged eigenpairs' residual ‖A x − λ x‖/‖x‖, recomputed here. Rank 0 prints one JSON line:
//   {"peer":"slepc","version":..,"matrix":..,"rows":..,"nonzeros":..,"nev":..,"which":..,"tol":..,
//    "max_iterations":..,["target":"1+0.5i"],"ranks":..,"solver":"jd","extraction":..,"ksp":"gmres",
//    "correction_steps":..,"precond":..,"jmin":..,"jmax":..,"converged":C,"reason":..,"iterations":..,"matvecs":..,
//    "ksp_iterations":..,"eigenvalues":[{"re","im","residual"}],"seconds":..}
// with the dimensions and extraction read back from the solver: what ran, not what was asked.
//
// usage: ulibc_peer_slepc_eigen (--matrix F.mtx | --generate NAME) [eigen_peer.hpp's options] [--harmonic]
//            [--correction-steps N] [--jmin J] [--jmax J] [--precond none|jacobi] [-slepc_option ...]
// Exit status 0 when K eigenpairs converged, 3 when fewer did (the record printed all the same), 2 for a bad option
// or input (one line naming it), 1 for anything else (PETSc's and SLEPc's errors).
#include <slepceps.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "eigen_peer.hpp"
#include "petsc_options.hpp"

namespace {

using ulibc::peers::Complex;
using ulibc::peers::ComplexCsrMatrix;
using ulibc::peers::Index;
using ulibc::peers::one_of;
using ulibc::peers::refuse;
using Json = nlohmann::ordered_json;

// ULIBC's complex values go to PETSc as they are.
static_assert(std::is_same_v<PetscScalar, Complex>, "a complex, double-precision PETSc and SLEPc are needed");

constexpr int kNotConverged = 3;

struct Options {
  ulibc::peers::EigenOptions eigen;
  bool harmonic = false;
  long long correction_steps = 10;
  long long jmin = 10, jmax = 20;  // `ulibc eigen`'s defaults
  std::string precond = "none";
  std::vector<char*> slepc_argv;  // argv[0] and every argument with one dash
};

[[noreturn]] void usage(const char* argv0, int rc) {
  std::fprintf(rc ? stderr : stdout,
               "usage: %s (--matrix F.mtx | --generate NAME) [options] [-slepc_option [value] ...]\n"
               "  SLEPc's Jacobi-Davidson (EPSJD, complex) for --nev eigenpairs; one JSON line.\n"
               "  One process per MPI rank, no threads: run it under mpirun for several.\n%s"
               "  --harmonic          harmonic Ritz extraction (for --target)\n"
               "  --correction-steps N  GMRES steps on each correction equation (default 10)\n"
               "  --jmin J            search space size after a restart (default 10)\n"
               "  --jmax J            search space size at most, ncv (default 20)\n"
               "  --precond P         none or jacobi, for the correction equation (default none)\n"
               "  Other arguments go to SLEPc's options database (one dash: -eps_view).\n",
               argv0, ulibc::peers::eigen_options_help());
  std::exit(rc);
}

bool parse_own_option(const std::string& arg, const std::string& value, Options& o) {
  if (arg == "--correction-steps")
    o.correction_steps = ulibc::peers::parse_count(value, "--correction-steps", 1, 10000);
  else if (arg == "--jmin")
    o.jmin = ulibc::peers::parse_count(value, "--jmin", 1, 100000);
  else if (arg == "--jmax")
    o.jmax = ulibc::peers::parse_count(value, "--jmax", 2, 100000);
  else if (arg == "--precond")
    o.precond = one_of(value, "--precond", {"none", "jacobi"});
  else
    return false;
  return true;
}

Options parse(int argc, char** argv) {
  Options o;
  o.slepc_argv.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") usage(argv[0], 0);
    if (arg.rfind("--", 0) != 0) {
      o.slepc_argv.push_back(argv[i]);
      continue;
    }
    if (arg == "--harmonic") {
      o.harmonic = true;
      continue;
    }
    if (i + 1 >= argc) refuse(arg, "needs a value (--help lists the options)");
    const std::string value = argv[++i];
    if (!ulibc::peers::parse_eigen_option(arg, value, o.eigen) && !parse_own_option(arg, value, o))
      refuse(arg, "not an option of this driver (--help lists them; SLEPc's take one dash)");
  }
  ulibc::peers::check_eigen_options(o.eigen);
  if (o.harmonic && o.eigen.which != "target") refuse("--harmonic", "is for --target");
  if (o.jmin >= o.jmax) refuse("--jmin", "must be below --jmax");
  if (o.jmax <= o.eigen.nev) refuse("--jmax", "must be above --nev");
  o.slepc_argv.push_back(nullptr);
  return o;
}

// This rank's rows of `a` as an MPIAIJ matrix: its block of PETSc's even split, global column indices.
PetscErrorCode build_matrix(const ComplexCsrMatrix& a, Mat* out) {
  PetscFunctionBeginUser;
  PetscInt local = PETSC_DECIDE, n = static_cast<PetscInt>(a.rows());
  PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &local, &n));
  PetscInt end = 0;
  PetscCallMPI(MPI_Scan(&local, &end, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  const Index first = end - local;
  const auto start = a.row_start();
  const Index base = start[first];
  std::vector<PetscInt> row_start(static_cast<std::size_t>(local) + 1);
  for (PetscInt r = 0; r <= local; ++r) row_start[r] = static_cast<PetscInt>(start[first + r] - base);
  const std::vector<PetscInt> columns(a.columns().begin() + base, a.columns().begin() + start[first + local]);
  const std::vector<PetscScalar> values(a.values().begin() + base, a.values().begin() + start[first + local]);
  PetscCall(MatCreateMPIAIJWithArrays(PETSC_COMM_WORLD, local, local, n, n, row_start.data(), columns.data(),
                                      values.data(), out));
  PetscFunctionReturn(0);
}

// The project's settings, before SLEPc's options database (which may override them).
PetscErrorCode configure(const Options& o, EPS eps) {
  PetscFunctionBeginUser;
  const ulibc::peers::EigenOptions& e = o.eigen;
  PetscCall(EPSSetProblemType(eps, EPS_NHEP));
  PetscCall(EPSSetType(eps, EPSJD));
  PetscCall(EPSSetDimensions(eps, static_cast<PetscInt>(e.nev), static_cast<PetscInt>(o.jmax), PETSC_DEFAULT));
  PetscCall(EPSJDSetRestart(eps, static_cast<PetscInt>(o.jmin), PETSC_DEFAULT));
  PetscCall(EPSSetTolerances(eps, e.tol, static_cast<PetscInt>(e.max_iterations)));
  PetscCall(EPSSetConvergenceTest(eps, EPS_CONV_REL));
  if (e.which == "target") {
    PetscCall(EPSSetTarget(eps, e.target));
    PetscCall(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  } else {
    PetscCall(EPSSetWhichEigenpairs(eps, e.which == "largest-real" ? EPS_LARGEST_REAL : EPS_LARGEST_MAGNITUDE));
  }
  if (o.harmonic) PetscCall(EPSSetExtraction(eps, EPS_HARMONIC));
  ST st;
  KSP ksp;
  PC pc;
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGMRESSetRestart(ksp, static_cast<PetscInt>(o.correction_steps)));
  PetscCall(
      KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, static_cast<PetscInt>(o.correction_steps)));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, nullptr, nullptr));  // always --ksp-steps steps
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, o.precond == "jacobi" ? PCJACOBI : PCNONE));
  PetscCall(EPSSetFromOptions(eps));
  PetscFunctionReturn(0);
}

// MatMult calls so far on this rank, by PETSc's logging.
PetscErrorCode matmult_count(PetscLogDouble* count) {
  PetscFunctionBeginUser;
  PetscLogEvent event;
  PetscCall(PetscLogEventGetId("MatMult", &event));
  PetscEventPerfInfo info;
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, event, &info));
  *count = info.count;
  PetscFunctionReturn(0);
}

// Eigenpair i's value and residual, the vector gathered to every rank to reuse ULIBC's CSR product.
PetscErrorCode eigenpair(EPS eps, const ComplexCsrMatrix& a, Mat m, PetscInt i, Json* out) {
  PetscFunctionBeginUser;
  Vec x, all;
  VecScatter gather;
  PetscCall(MatCreateVecs(m, &x, nullptr));
  PetscScalar lambda;
  PetscCall(EPSGetEigenpair(eps, i, &lambda, nullptr, x, nullptr));
  PetscCall(VecScatterCreateToAll(x, &gather, &all));
  PetscCall(VecScatterBegin(gather, x, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(gather, x, all, INSERT_VALUES, SCATTER_FORWARD));
  const PetscScalar* values;
  PetscCall(VecGetArrayRead(all, &values));
  const double residual = ulibc::peers::eigen_residual(a, lambda, values);
  PetscCall(VecRestoreArrayRead(all, &values));
  *out = ulibc::peers::complex_json(lambda);
  (*out)["residual"] = residual;
  PetscCall(VecScatterDestroy(&gather));
  PetscCall(VecDestroy(&all));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

// SLEPc's extraction by the name -eps_extraction takes.
const char* extraction_name(EPSExtraction e) {
  switch (e) {
    case EPS_RITZ:
      return "ritz";
    case EPS_HARMONIC:
      return "harmonic";
    case EPS_HARMONIC_RELATIVE:
      return "harmonic_relative";
    case EPS_HARMONIC_RIGHT:
      return "harmonic_right";
    case EPS_HARMONIC_LARGEST:
      return "harmonic_largest";
    case EPS_REFINED:
      return "refined";
    case EPS_REFINED_HARMONIC:
      return "refined_harmonic";
  }
  return "other";
}

// What ran, read back from the solver.
PetscErrorCode settings(EPS eps, Json* out) {
  PetscFunctionBeginUser;
  PetscInt nev = 0, ncv = 0, mpd = 0, minv = 0, plusk = 0;
  PetscCall(EPSGetDimensions(eps, &nev, &ncv, &mpd));
  PetscCall(EPSJDGetRestart(eps, &minv, &plusk));
  EPSExtraction extraction;
  PetscCall(EPSGetExtraction(eps, &extraction));
  ST st;
  KSP ksp;
  PC pc;
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  KSPType ksp_type;
  PCType pc_type;
  PetscInt correction_steps = 0;
  PetscCall(KSPGetType(ksp, &ksp_type));
  PetscCall(PCGetType(pc, &pc_type));
  PetscCall(KSPGetTolerances(ksp, nullptr, nullptr, nullptr, &correction_steps));
  PetscInt ksp_iterations = 0;
  PetscCall(KSPGetTotalIterations(ksp, &ksp_iterations));
  *out = Json{{"solver", "jd"},     {"extraction", extraction_name(extraction)},
              {"ksp", ksp_type},    {"correction_steps", correction_steps},
              {"precond", pc_type}, {"jmin", minv},
              {"jmax", ncv},        {"ksp_iterations", ksp_iterations}};
  PetscFunctionReturn(0);
}

PetscErrorCode solve(const Options& o, const ComplexCsrMatrix& a, int* status) {
  PetscFunctionBeginUser;
  Mat m;
  PetscCall(build_matrix(a, &m));
  EPS eps;
  PetscCall(EPSCreate(PETSC_COMM_WORLD, &eps));
  PetscCall(EPSSetOperators(eps, m, nullptr));
  PetscCall(configure(o, eps));
  PetscCall(EPSSetUp(eps));

  PetscLogDouble before = 0, after = 0;
  PetscCall(matmult_count(&before));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  const double t0 = MPI_Wtime();
  PetscCall(EPSSolve(eps));
  double mine = MPI_Wtime() - t0, seconds = 0;
  PetscCallMPI(MPI_Allreduce(&mine, &seconds, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(matmult_count(&after));

  PetscInt converged = 0, iterations = 0;
  EPSConvergedReason reason;
  PetscCall(EPSGetConverged(eps, &converged));
  PetscCall(EPSGetIterationNumber(eps, &iterations));
  PetscCall(EPSGetConvergedReason(eps, &reason));
  Json pairs = Json::array();
  for (PetscInt i = 0; i < std::min<PetscInt>(converged, static_cast<PetscInt>(o.eigen.nev)); ++i) {
    Json pair;
    PetscCall(eigenpair(eps, a, m, i, &pair));
    pairs.push_back(pair);
  }
  Json ran;
  PetscCall(settings(eps, &ran));
  bool unused = false;
  PetscCall(ulibc::peers::find_unused_option("SLEPc", &unused));
  if (unused) {
    *status = 2;
  } else {
    int ranks = 1, rank = 0;
    MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    Json record = ulibc::peers::eigen_record_head("slepc",
                                                  std::to_string(SLEPC_VERSION_MAJOR) + "." +
                                                      std::to_string(SLEPC_VERSION_MINOR) + "." +
                                                      std::to_string(SLEPC_VERSION_SUBMINOR),
                                                  o.eigen, a);
    record["ranks"] = ranks;
    record.update(ran);
    record.update(Json{{"converged", converged},
                       {"reason", EPSConvergedReasons[reason]},
                       {"iterations", iterations},
                       {"matvecs", static_cast<long long>(after - before)},
                       {"eigenvalues", pairs},
                       {"seconds", seconds}});
    if (rank == 0) std::printf("%s\n", record.dump().c_str());
    std::fflush(stdout);
    *status = converged >= o.eigen.nev ? 0 : kNotConverged;
  }
  PetscCall(EPSDestroy(&eps));
  PetscCall(MatDestroy(&m));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  int slepc_argc = static_cast<int>(o.slepc_argv.size()) - 1;
  char** slepc_argv = o.slepc_argv.data();
  PetscCall(SlepcInitialize(&slepc_argc, &slepc_argv, nullptr, nullptr));
  PetscCall(PetscLogDefaultBegin());  // the MatMult count
  int status = 0, rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  try {
    const ComplexCsrMatrix a = ulibc::peers::load_eigen_matrix(o.eigen);
    if (solve(o, a, &status) != 0) status = 1;  // PETSc has printed what failed
  } catch (const ulibc::Error& e) {
    if (rank == 0) std::fprintf(stderr, "%s\n", e.what());
    status = e.kind() == ulibc::ErrorKind::input ? 2 : 1;
  }
  PetscCall(SlepcFinalize());
  return status;
}
