// peers/petsc_gmres.cpp — PETSc's GMRES(m) on the matrix `ulibc gmres` solves: the sparse solvers' peer.
//
// The matrix comes from ULIBC's sparse layer (layers/sparse), so that both programs solve the very same system:
// a Matrix Market file (--matrix F.mtx, read with ulibc::sparse::read_matrix_market_file) or a model problem
// (--generate poisson2d:400, convdiff3d:80, ...; ulibc::sparse::model_matrix). Every rank builds the whole CSR
// (the reader is sequential) and inserts its own contiguous block of rows, the split PETSC_DECIDE would make,
// into a MATAIJ matrix (MPIAIJ on several ranks; -mat_type chooses another). The right-hand side is b = A·1
// unless --rhs B.mtx gives one (a Matrix Market array of n values); x0 = 0.
//
// The solver is KSPGMRES with right preconditioning and the stopping test on the unpreconditioned residual,
// ‖b − A·x_k‖ ≤ rtol·‖b‖ (x0 = 0), as `ulibc gmres` stops: rtol = --tol (1e-8), atol 0, at most --max-iterations
// (10000). Everything else is PETSc's options database, handed argv (one dash: -ksp_gmres_restart 50,
// -ksp_gmres_modifiedgramschmidt, -pc_type bjacobi -sub_pc_type ilu, -ksp_view, ...); the project's shortcuts set
// the same options and win over them:
//   --restart M         -ksp_gmres_restart M
//   --orth cgs          -ksp_gmres_classicalgramschmidt -ksp_gmres_cgs_refinement_type refine_never
//   --orth cgs2         -ksp_gmres_classicalgramschmidt -ksp_gmres_cgs_refinement_type refine_always
//   --orth mgs          -ksp_gmres_modifiedgramschmidt
//   --precond none      -pc_type none
//   --precond jacobi    -pc_type jacobi
//   --precond bilu0     -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_levels 0 (one block per rank)
// Without them PETSc's defaults hold: restart 30, classical Gram–Schmidt without refinement, and ILU(0) on one
// rank, block Jacobi with ILU(0) in each rank's block on several. An option PETSc never read (a misspelt one) is
// refused after the solve, before anything is printed: a comparison never runs a setting other than the one asked.
//
// Timed: KSPSetUp + KSPSolve (the preconditioner's setup included), from an MPI_Barrier, the slowest rank's
// MPI_Wtime. Afterwards, untimed, the true residual ‖b − A·x‖/‖b‖. Rank 0 prints one JSON line on stdout:
//   {"peer":"petsc","mode":"solve","version":"3.18.5","matrix":..,"rows":..,"nonzeros":..,"ranks":..,
//    "restart":..,"orth":..,"precond":..,"petsc_pc":..,"tol":..,"max_iterations":..,"converged":bool,
//    "reason":"CONVERGED_RTOL","iterations":..,"true_relative_residual":..,"seconds":..}
// with the restart, orthogonalisation and preconditioner read back from the solver (KSPGMRESGetRestart,
// KSPGMRESGetOrthogonalization, PCGetType and the blocks' PC): what ran, not what was asked.
//
// --matmult R times R calls of MatMult(A, x, y) instead of solving: one untimed round, then --rounds (5) rounds
// of R calls, each from a barrier, the slowest rank's time; "seconds" is the median round and "gflops" is
// 2·nonzeros·R / seconds (every stored entry a multiply and an add), with "mode":"matmult".
//
// usage: ulibc_peer_petsc_gmres (--matrix F.mtx | --generate NAME) [--rhs B.mtx] [--tol T] [--max-iterations N]
//            [--restart M] [--orth cgs|cgs2|mgs] [--precond none|jacobi|bilu0] [--matmult R [--rounds K]]
//            [-petsc_option [value] ...]
// Exit status 0 after a solve that converged, 3 after one that did not (the record printed all the same, as
// `ulibc gmres` does), 2 for a bad option or input (one line naming it), 1 for anything else (PETSc's errors).
#include <petscksp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "peer_args.hpp"
#include "petsc_options.hpp"
#include "sparse/convection_diffusion.hpp"
#include "sparse/csr_matrix.hpp"
#include "sparse/matrix_market.hpp"
#include "ulibc/error.hpp"

namespace {

using ulibc::peers::one_of;
using ulibc::peers::refuse;
using ulibc::sparse::CsrMatrix;
using ulibc::sparse::Index;
using Json = nlohmann::ordered_json;

// The matrix's values go to PETSc as they are: a complex or single-precision PETSc (PETSC_DIR naming one) would
// solve another problem.
static_assert(std::is_same_v<PetscScalar, double>, "a real, double-precision PETSc is needed (PETSC_DIR)");

constexpr int kNotConverged = 3;  // `ulibc gmres`'s status for a solve that stopped short

struct Options {
  std::string matrix_file, generate, rhs_file;
  double tol = 1e-8;
  long long max_iterations = 10000;
  long long restart = 0;        // 0: PETSc's (or -ksp_gmres_restart)
  std::string orth, precond;    // empty: PETSc's (or its options)
  long long matmult_calls = 0;  // 0: solve
  long long rounds = 5;
  std::vector<char*> petsc_argv;  // argv[0] and every argument that is not one of the above
};

[[noreturn]] void usage(const char* argv0, int rc) {
  std::fprintf(
      rc ? stderr : stdout,
      "usage: %s (--matrix F.mtx | --generate NAME) [--rhs B.mtx] [--tol T] [--max-iterations N]\n"
      "          [--restart M] [--orth cgs|cgs2|mgs] [--precond none|jacobi|bilu0]\n"
      "          [--matmult R [--rounds K]] [-petsc_option [value] ...]\n"
      "  Solves A x = b with PETSc's KSPGMRES (right preconditioning, unpreconditioned residual test, x0 = 0)\n"
      "  and prints one JSON line. Run it under mpirun for several ranks.\n"
      "  --matrix F.mtx      a Matrix Market matrix (square)\n"
      "  --generate NAME     a model problem: poisson2d:N, poisson3d:N, convdiff2d:N, convdiff3d:N\n"
      "  --rhs B.mtx         b as a Matrix Market array of n values (default: b = A*1)\n"
      "  --tol T             relative residual to reach (default 1e-8)\n"
      "  --max-iterations N  (default 10000)\n"
      "  --restart M         GMRES restart length (default: PETSc's, 30)\n"
      "  --orth O            cgs (classical Gram-Schmidt), cgs2 (classical, always refined), mgs (modified)\n"
      "                      (default: PETSc's, cgs)\n"
      "  --precond P         none, jacobi, bilu0 (block Jacobi, ILU(0) per rank)\n"
      "                      (default: PETSc's, ILU(0) on one rank, bilu0 on several)\n"
      "  --matmult R         time R MatMult calls per round instead of solving\n"
      "  --rounds K          timed rounds of --matmult, median reported (default 5)\n"
      "  Other arguments go to PETSc's options database (one dash: -ksp_gmres_restart 50, -ksp_view).\n",
      argv0);
  std::exit(rc);
}

// Every argument with two dashes is ours (an unknown one is refused); the rest, with argv[0], goes to PETSc.
Options parse(int argc, char** argv) {
  constexpr long long kMaxCount = 100000000;
  Options o;
  o.petsc_argv.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") usage(argv[0], 0);
    if (arg.rfind("--", 0) != 0) {
      o.petsc_argv.push_back(argv[i]);
      continue;
    }
    if (i + 1 >= argc) refuse(arg, "needs a value (--help lists the options)");
    const std::string value = argv[++i];
    const char* name = argv[i - 1];
    if (arg == "--matrix")
      o.matrix_file = value;
    else if (arg == "--generate")
      o.generate = value;
    else if (arg == "--rhs")
      o.rhs_file = value;
    else if (arg == "--tol")
      o.tol = ulibc::peers::parse_real(value, name, 1e-16, 1);
    else if (arg == "--max-iterations")
      o.max_iterations = ulibc::peers::parse_count(value, name, 1, kMaxCount);
    else if (arg == "--restart")
      o.restart = ulibc::peers::parse_count(value, name, 1, 100000);
    else if (arg == "--orth")
      o.orth = one_of(value, name, {"cgs", "cgs2", "mgs"});
    else if (arg == "--precond")
      o.precond = one_of(value, name, {"none", "jacobi", "bilu0"});
    else if (arg == "--matmult")
      o.matmult_calls = ulibc::peers::parse_count(value, name, 1, kMaxCount);
    else if (arg == "--rounds")
      o.rounds = ulibc::peers::parse_count(value, name, 1, 1000);
    else
      refuse(arg, "not an option of this driver (--help lists them; PETSc's take one dash)");
  }
  if (o.matrix_file.empty() == o.generate.empty()) refuse("--matrix", "give exactly one of --matrix and --generate");
  if (!o.rhs_file.empty() && o.matmult_calls) refuse("--rhs", "has no use with --matmult, which solves nothing");
  if (!o.generate.empty()) {
    try {
      ulibc::sparse::parse_model_problem(o.generate);
    } catch (const ulibc::Error& e) {
      refuse("--generate", e.what());
    }
  }
  o.petsc_argv.push_back(nullptr);  // argv[argc] is a null pointer, as PETSc may expect of a real argv
  return o;
}

CsrMatrix load_matrix(const Options& o) {
  CsrMatrix a = o.generate.empty() ? ulibc::sparse::read_matrix_market_file(o.matrix_file)
                                   : ulibc::sparse::model_matrix(ulibc::sparse::parse_model_problem(o.generate));
  if (a.rows() != a.cols())
    throw ulibc::input_error("the matrix is " + std::to_string(a.rows()) + " x " + std::to_string(a.cols()) +
                             ": GMRES needs a square one");
  return a;
}

// The matrix's name in the record: the model problem's, or the file's name without its folder.
std::string matrix_name(const Options& o) {
  if (!o.generate.empty()) return o.generate;
  const std::size_t slash = o.matrix_file.rfind('/');
  return slash == std::string::npos ? o.matrix_file : o.matrix_file.substr(slash + 1);
}

// The project's shortcuts as PETSc options, set over whatever the command line said.
PetscErrorCode set_shortcuts(const Options& o) {
  PetscFunctionBeginUser;
  const auto set = [](const char* name, const char* value) { return PetscOptionsSetValue(nullptr, name, value); };
  if (o.restart) PetscCall(set("-ksp_gmres_restart", std::to_string(o.restart).c_str()));
  if (o.orth == "mgs") {
    PetscCall(PetscOptionsClearValue(nullptr, "-ksp_gmres_classicalgramschmidt"));
    PetscCall(set("-ksp_gmres_modifiedgramschmidt", nullptr));
  } else if (!o.orth.empty()) {
    PetscCall(PetscOptionsClearValue(nullptr, "-ksp_gmres_modifiedgramschmidt"));
    PetscCall(set("-ksp_gmres_classicalgramschmidt", nullptr));
    PetscCall(set("-ksp_gmres_cgs_refinement_type", o.orth == "cgs2" ? "refine_always" : "refine_never"));
  }
  if (o.precond == "bilu0") {
    PetscCall(set("-pc_type", "bjacobi"));
    PetscCall(set("-sub_pc_type", "ilu"));
    PetscCall(set("-sub_pc_factor_levels", "0"));
  } else if (!o.precond.empty()) {
    PetscCall(set("-pc_type", o.precond.c_str()));
  }
  PetscFunctionReturn(0);
}

// Rows [first, first + count) of this rank: PETSc's own even split (PetscSplitOwnership), offsets by a scan.
struct RowBlock {
  PetscInt first = 0, count = 0;
};

PetscErrorCode my_rows(PetscInt n, RowBlock* block) {
  PetscFunctionBeginUser;
  PetscInt count = PETSC_DECIDE, total = n;
  PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &count, &total));
  PetscInt end = 0;
  PetscCallMPI(MPI_Scan(&count, &end, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  *block = {end - count, count};
  PetscFunctionReturn(0);
}

// The rank's rows of `a` inserted into a new AIJ matrix, preallocated exactly: per row, the entries in the
// rank's own column block (the diagonal block) and the others.
PetscErrorCode build_matrix(const CsrMatrix& a, const RowBlock& rows, Mat* out) {
  PetscFunctionBeginUser;
  const auto start = a.row_start();
  const auto columns = a.columns();
  const auto values = a.values();
  const PetscInt last = rows.first + rows.count;
  std::vector<PetscInt> diagonal(rows.count), off(rows.count);
  for (PetscInt r = 0; r < rows.count; ++r)
    for (Index k = start[rows.first + r]; k < start[rows.first + r + 1]; ++k)
      ++(columns[k] >= rows.first && columns[k] < last ? diagonal : off)[r];

  const PetscInt n = static_cast<PetscInt>(a.rows());
  Mat m;
  PetscCall(MatCreate(PETSC_COMM_WORLD, &m));
  PetscCall(MatSetSizes(m, rows.count, rows.count, n, n));
  PetscCall(MatSetType(m, MATAIJ));
  PetscCall(MatSetFromOptions(m));
  PetscCall(MatXAIJSetPreallocation(m, 1, diagonal.data(), off.data(), nullptr, nullptr));
  std::vector<PetscInt> cols;
  for (PetscInt r = rows.first; r < last; ++r) {
    const Index begin = start[r], end = start[r + 1];
    cols.assign(columns.begin() + begin, columns.begin() + end);
    PetscCall(
        MatSetValues(m, 1, &r, static_cast<PetscInt>(cols.size()), cols.data(), values.data() + begin, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(m, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(m, MAT_FINAL_ASSEMBLY));
  *out = m;
  PetscFunctionReturn(0);
}

// b = A·1, or the file's values in this rank's rows.
PetscErrorCode build_rhs(Mat a, const std::optional<std::vector<double>>& given, const RowBlock& rows, Vec b) {
  PetscFunctionBeginUser;
  if (!given) {
    Vec ones;
    PetscCall(VecDuplicate(b, &ones));
    PetscCall(VecSet(ones, 1.0));
    PetscCall(MatMult(a, ones, b));
    PetscCall(VecDestroy(&ones));
    PetscFunctionReturn(0);
  }
  PetscScalar* local;
  PetscCall(VecGetArray(b, &local));
  std::copy_n(given->begin() + rows.first, rows.count, local);
  PetscCall(VecRestoreArray(b, &local));
  PetscFunctionReturn(0);
}

// Seconds of `work` on the slowest rank, started together.
template <class Work>
PetscErrorCode time_on_all(Work work, double* seconds) {
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  const double t0 = MPI_Wtime();
  PetscCall(work());
  double mine = MPI_Wtime() - t0;
  PetscCallMPI(MPI_Allreduce(&mine, seconds, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

// The orthogonalisation as the project names it, read back from the solver.
PetscErrorCode orth_name(KSP ksp, std::string* name) {
  PetscFunctionBeginUser;
  PetscErrorCode (*orth)(KSP, PetscInt) = nullptr;
  PetscCall(KSPGMRESGetOrthogonalization(ksp, &orth));
  KSPGMRESCGSRefinementType refine;
  PetscCall(KSPGMRESGetCGSRefinementType(ksp, &refine));
  if (orth == KSPGMRESModifiedGramSchmidtOrthogonalization)
    *name = "mgs";
  else if (orth == KSPGMRESClassicalGramSchmidtOrthogonalization)
    *name = refine == KSP_GMRES_CGS_REFINE_ALWAYS  ? "cgs2"
            : refine == KSP_GMRES_CGS_REFINE_NEVER ? "cgs"
                                                   : "cgs-ifneeded";  // refined when it loses orthogonality
  else
    *name = "other";
  PetscFunctionReturn(0);
}

// A factorisation PC as "ilu0", "icc1", "lu"; any other as its type.
PetscErrorCode factor_name(PC pc, std::string* name) {
  PetscFunctionBeginUser;
  PCType type;
  PetscCall(PCGetType(pc, &type));
  *name = type;
  PetscBool leveled = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(pc), &leveled, PCILU, PCICC, ""));
  if (leveled) {
    PetscInt levels = 0;
    PetscCall(PCFactorGetLevels(pc, &levels));
    *name += std::to_string(levels);
  }
  PetscFunctionReturn(0);
}

// The preconditioner that ran, read back after setup: the project's name where one fits (none, jacobi, bilu0)
// and PETSc's description ("bjacobi(ilu0)", "ilu0").
PetscErrorCode precond_names(KSP ksp, std::string* project, std::string* petsc) {
  PetscFunctionBeginUser;
  PC pc;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(factor_name(pc, petsc));
  PetscBool block_jacobi = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(pc), PCBJACOBI, &block_jacobi));
  if (block_jacobi) {
    PetscInt local = 0, first = 0;
    KSP* blocks = nullptr;
    PetscCall(PCBJacobiGetSubKSP(pc, &local, &first, &blocks));
    PC sub;
    PetscCall(KSPGetPC(blocks[0], &sub));
    std::string sub_name;
    PetscCall(factor_name(sub, &sub_name));
    *petsc += "(" + sub_name + ")";
  }
  // One block on one rank is the whole matrix: ILU(0) alone and block Jacobi ILU(0) are the same preconditioner.
  int ranks = 1;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &ranks));
  const bool bilu0 = *petsc == "bjacobi(ilu0)" || (ranks == 1 && *petsc == "ilu0");
  *project = bilu0 ? "bilu0" : *petsc;
  PetscFunctionReturn(0);
}

// What every record says about the problem and the program.
Json record_head(const Options& o, const CsrMatrix& a, const char* mode) {
  int ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  return Json{{"peer", "petsc"},
              {"mode", mode},
              {"version", std::to_string(PETSC_VERSION_MAJOR) + "." + std::to_string(PETSC_VERSION_MINOR) + "." +
                              std::to_string(PETSC_VERSION_SUBMINOR)},
              {"matrix", matrix_name(o)},
              {"rows", a.rows()},
              {"nonzeros", a.nonzeros()},
              {"ranks", ranks}};
}

void print_record(const Json& record) {
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0) std::printf("%s\n", record.dump().c_str());
  std::fflush(stdout);
}

// Solves A x = b once; *status is the exit status (0, 3, or 2 for an unused option).
PetscErrorCode solve(const Options& o, const CsrMatrix& a, Mat m, Vec b, int* status) {
  PetscFunctionBeginUser;
  Vec x, r;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecSet(x, 0.0));
  KSP ksp;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, m, m));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, o.tol, 0.0, PETSC_DEFAULT, static_cast<PetscInt>(o.max_iterations)));
  PetscCall(set_shortcuts(o));
  PetscCall(KSPSetFromOptions(ksp));

  double seconds = 0;
  PetscCall(time_on_all(
      [&]() -> PetscErrorCode {
        PetscFunctionBeginUser;
        PetscCall(KSPSetUp(ksp));
        PetscCall(KSPSolve(ksp, b, x));
        PetscFunctionReturn(0);
      },
      &seconds));

  KSPConvergedReason reason;
  PetscInt iterations = 0, restart = 0, max_iterations = 0;
  PetscReal rtol = 0, b_norm = 0, r_norm = 0;
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, &iterations));
  PetscCall(KSPGMRESGetRestart(ksp, &restart));
  PetscCall(KSPGetTolerances(ksp, &rtol, nullptr, nullptr, &max_iterations));
  std::string orth, precond, petsc_pc;
  PetscCall(orth_name(ksp, &orth));
  PetscCall(precond_names(ksp, &precond, &petsc_pc));
  PetscCall(MatMult(m, x, r));  // r = b - A x
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &r_norm));
  PetscCall(VecNorm(b, NORM_2, &b_norm));

  bool unused = false;
  PetscCall(ulibc::peers::find_unused_option("PETSc", &unused));
  if (unused) {
    *status = 2;
  } else {
    Json record = record_head(o, a, "solve");
    record.update(Json{{"restart", restart},
                       {"orth", orth},
                       {"precond", precond},
                       {"petsc_pc", petsc_pc},
                       {"tol", rtol},
                       {"max_iterations", max_iterations},
                       {"rhs", o.rhs_file.empty() ? "A*1" : o.rhs_file},
                       {"converged", reason > 0},
                       {"reason", KSPConvergedReasons[reason]},
                       {"iterations", iterations},
                       {"true_relative_residual", b_norm > 0 ? r_norm / b_norm : r_norm},
                       {"seconds", seconds}});
    print_record(record);
    *status = reason > 0 ? 0 : kNotConverged;
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

// Times --matmult calls of y = A x per round; *status is 0, or 2 for an unused option.
PetscErrorCode time_matmult(const Options& o, const CsrMatrix& a, Mat m, Vec x, int* status) {
  PetscFunctionBeginUser;
  Vec y;
  PetscCall(VecDuplicate(x, &y));
  const auto calls = [&]() -> PetscErrorCode {
    PetscFunctionBeginUser;
    for (long long c = 0; c < o.matmult_calls; ++c) PetscCall(MatMult(m, x, y));
    PetscFunctionReturn(0);
  };
  double seconds = 0;
  PetscCall(time_on_all(calls, &seconds));  // warm-up: caches, pages, the ranks' first exchange
  std::vector<double> rounds;
  for (long long k = 0; k < o.rounds; ++k) {
    PetscCall(time_on_all(calls, &seconds));
    rounds.push_back(seconds);
  }
  std::sort(rounds.begin(), rounds.end());
  const std::size_t mid = rounds.size() / 2;
  const double median = rounds.size() % 2 ? rounds[mid] : (rounds[mid - 1] + rounds[mid]) / 2;

  bool unused = false;
  PetscCall(ulibc::peers::find_unused_option("PETSc", &unused));
  if (!unused) {
    Json record = record_head(o, a, "matmult");
    record.update(Json{
        {"calls", o.matmult_calls},
        {"rounds", o.rounds},
        {"seconds", median},
        {"round_seconds", rounds},
        {"gflops", 2.0 * static_cast<double>(a.nonzeros()) * static_cast<double>(o.matmult_calls) / median * 1e-9}});
    print_record(record);
  }
  *status = unused ? 2 : 0;
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

PetscErrorCode run(const Options& o, const CsrMatrix& a, const std::optional<std::vector<double>>& rhs, int* status) {
  PetscFunctionBeginUser;
  RowBlock rows;
  PetscCall(my_rows(static_cast<PetscInt>(a.rows()), &rows));
  Mat m;
  PetscCall(build_matrix(a, rows, &m));
  Vec b;
  PetscCall(MatCreateVecs(m, nullptr, &b));
  if (o.matmult_calls) {
    PetscCall(VecSet(b, 1.0));
    PetscCall(time_matmult(o, a, m, b, status));
  } else {
    PetscCall(build_rhs(m, rhs, rows, b));
    PetscCall(solve(o, a, m, b, status));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&m));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  int petsc_argc = static_cast<int>(o.petsc_argv.size()) - 1;
  char** petsc_argv = o.petsc_argv.data();
  PetscCall(PetscInitialize(&petsc_argc, &petsc_argv, nullptr, nullptr));
  int status = 0, rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  try {
    // Every rank reads the whole input: the same bytes give every rank the same matrix, or the same error.
    const CsrMatrix a = load_matrix(o);
    std::optional<std::vector<double>> rhs;
    if (!o.rhs_file.empty()) rhs = ulibc::sparse::read_matrix_market_vector_file(o.rhs_file, a.rows());
    if (run(o, a, rhs, &status) != 0) status = 1;  // PETSc has printed what failed
  } catch (const ulibc::Error& e) {
    if (rank == 0) std::fprintf(stderr, "%s\n", e.what());
    status = e.kind() == ulibc::ErrorKind::input ? 2 : 1;
  }
  PetscCall(PetscFinalize());
  return status;
}
