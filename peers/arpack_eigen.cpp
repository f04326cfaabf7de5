// peers/arpack_eigen.cpp — ARPACK's implicitly restarted Arnoldi (znaupd/zneupd, complex) on the matrix
// `ulibc eigen` solves: its peer for the extremal problems.
//
// The matrix is ULIBC's (peers/eigen_peer.hpp). ARPACK asks for products y = A x by reverse communication; they are
// a plain CSR loop on one thread (eigen_peer.hpp's csr_multiply), as ARPACK itself (Debian's libarpack2, its BLAS and
// LAPACK) is run here single-threaded: compare it with `ulibc eigen` on one thread. Eigenpairs: --nev K of largest
// magnitude (--which largest-magnitude: ARPACK's "LM") or of largest real part (largest-real: "LR"); a target needs
// a shift-invert solve, which this driver does not do (without --which it refuses to run). Regular mode (mode 1, exact
// shifts), --ncv N Arnoldi vectors (default max(2K + 1, 20), at most n), tolerance --tol (ARPACK's test: the Ritz
// estimate ≤ tol·|θ|), at most
// --max-iterations restarts, a start vector of ones (info = 1) so that runs repeat.
//
// Timed: the znaupd loop and zneupd (the eigenvectors), by steady_clock. Afterwards, untimed, each converged
// eigenpair's residual ‖A x − λ x‖/‖x‖, recomputed here. One JSON line:
//   {"peer":"arpack",..(eigen_peer.hpp's head)..,"threads":1,"ncv":..,"which_arpack":"LM","converged":C,
//    "iterations":..,"matvecs":..,"eigenvalues":[{"re","im","residual"}],"seconds":..}
//
// usage: ulibc_peer_arpack_eigen (--matrix F.mtx | --generate NAME) [eigen_peer.hpp's options] [--ncv N]
// Exit status 0 when K eigenpairs converged, 3 when fewer did (the record printed all the same), 2 for a bad option
// or input (one line naming it), 1 for anything else (an ARPACK error, its info named).
#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "eigen_peer.hpp"

// ARPACK's Fortran entry points (arpack-ng's arpack.h declares them with C's _Complex; std::complex<double> has
// the same layout). Each character argument is one character or two, passed with its length.
extern "C" {
void znaupd_(int* ido, const char* bmat, int* n, const char* which, int* nev, double* tol, std::complex<double>* resid,
             int* ncv, std::complex<double>* v, int* ldv, int* iparam, int* ipntr, std::complex<double>* workd,
             std::complex<double>* workl, int* lworkl, double* rwork, int* info, std::size_t bmat_length,
             std::size_t which_length);
void zneupd_(int* rvec, const char* howmny, int* select, std::complex<double>* d, std::complex<double>* z, int* ldz,
             std::complex<double>* sigma, std::complex<double>* workev, const char* bmat, int* n, const char* which,
             int* nev, double* tol, std::complex<double>* resid, int* ncv, std::complex<double>* v, int* ldv,
             int* iparam, int* ipntr, std::complex<double>* workd, std::complex<double>* workl, int* lworkl,
             double* rwork, int* info, std::size_t howmny_length, std::size_t bmat_length, std::size_t which_length);
}

namespace {

using ulibc::peers::Complex;
using ulibc::peers::ComplexCsrMatrix;
using ulibc::peers::refuse;
using Json = nlohmann::ordered_json;

constexpr int kNotConverged = 3;

struct Options {
  ulibc::peers::EigenOptions eigen;
  long long ncv = 0;  // 0: max(2K + 1, 20), at most n
};

[[noreturn]] void usage(const char* argv0, int rc) {
  std::fprintf(rc ? stderr : stdout,
               "usage: %s (--matrix F.mtx | --generate NAME) [options]\n"
               "  ARPACK's znaupd/zneupd (complex Arnoldi, regular mode) for --nev eigenpairs of largest magnitude\n"
               "  or largest real part; one thread; one JSON line.\n%s"
               "  --ncv N             Arnoldi vectors (default max(2 nev + 1, 20), at most n)\n",
               argv0, ulibc::peers::eigen_options_help());
  std::exit(rc);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") usage(argv[0], 0);
    if (i + 1 >= argc) refuse(arg, "needs a value (--help lists the options)");
    const std::string value = argv[++i];
    if (arg == "--ncv")
      o.ncv = ulibc::peers::parse_count(value, "--ncv", 3, 100000);
    else if (!ulibc::peers::parse_eigen_option(arg, value, o.eigen))
      refuse(arg, "not an option of this driver (--help lists them)");
  }
  ulibc::peers::check_eigen_options(o.eigen);
  if (o.eigen.which == "target")
    refuse("--which", "ARPACK's regular mode finds extremal eigenvalues only: largest-magnitude or largest-real");
  return o;
}

// The run's ARPACK state: its arrays, sized for n, nev and ncv as znaupd's documentation asks.
struct Arnoldi {
  int n, nev, ncv, ldv, lworkl;
  std::vector<Complex> resid, v, workd, workl;
  std::vector<double> rwork;
  int iparam[11] = {}, ipntr[14] = {};

  Arnoldi(int n_, int nev_, int ncv_)
      : n(n_),
        nev(nev_),
        ncv(ncv_),
        ldv(n_),
        lworkl(3 * ncv_ * ncv_ + 5 * ncv_),
        resid(n_, Complex(1)),
        v(static_cast<std::size_t>(n_) * ncv_),
        workd(3 * static_cast<std::size_t>(n_)),
        workl(lworkl),
        rwork(ncv_) {}
};

std::string arpack_error(const char* routine, int info) {
  return std::string(routine) + " failed: info = " + std::to_string(info) + " (ARPACK's documentation of " + routine +
         " says what it means)";
}

// The znaupd loop: y = A x whenever ARPACK asks. Returns the products made; throws on an ARPACK error.
long long iterate(const ComplexCsrMatrix& a, Arnoldi& s, const char* which, double tol, int max_iterations) {
  s.iparam[0] = 1;  // exact shifts
  s.iparam[2] = max_iterations;
  s.iparam[6] = 1;        // regular mode: A x = λ x
  int ido = 0, info = 1;  // info = 1: resid holds the start vector
  long long products = 0;
  for (;;) {
    znaupd_(&ido, "I", &s.n, which, &s.nev, &tol, s.resid.data(), &s.ncv, s.v.data(), &s.ldv, s.iparam, s.ipntr,
            s.workd.data(), s.workl.data(), &s.lworkl, s.rwork.data(), &info, 1, 2);
    if (ido != -1 && ido != 1) break;
    ulibc::peers::csr_multiply(a, s.workd.data() + s.ipntr[0] - 1, s.workd.data() + s.ipntr[1] - 1);
    ++products;
  }
  // info 1: the iteration limit, with iparam[4] Ritz values converged; reported, not an error.
  if (info < 0 || ido != 99) throw ulibc::system_error(arpack_error("znaupd", info));
  return products;
}

// The converged eigenpairs, from zneupd: values in d, vectors in z (column j for d[j]).
int extract(Arnoldi& s, const char* which, double tol, std::vector<Complex>& d, std::vector<Complex>& z) {
  int rvec = 1, info = 0;
  std::vector<int> select(s.ncv);
  std::vector<Complex> workev(2 * static_cast<std::size_t>(s.ncv));
  d.assign(s.nev + 1, Complex(0));
  z.assign(static_cast<std::size_t>(s.n) * s.nev, Complex(0));
  Complex sigma = 0;
  zneupd_(&rvec, "A", select.data(), d.data(), z.data(), &s.ldv, &sigma, workev.data(), "I", &s.n, which, &s.nev, &tol,
          s.resid.data(), &s.ncv, s.v.data(), &s.ldv, s.iparam, s.ipntr, s.workd.data(), s.workl.data(), &s.lworkl,
          s.rwork.data(), &info, 1, 1, 2);
  if (info != 0) throw ulibc::system_error(arpack_error("zneupd", info));
  return s.iparam[4];  // the number of converged Ritz values
}

int run(const Options& o, const ComplexCsrMatrix& a) {
  const ulibc::peers::EigenOptions& e = o.eigen;
  const long long n = a.rows();
  if (n > 100000000) throw ulibc::input_error("the matrix has more rows than this driver's int indices allow");
  if (e.nev >= n - 1)
    throw ulibc::input_error("--nev " + std::to_string(e.nev) +
                             ": ARPACK needs fewer than n - 1 = " + std::to_string(n - 1));
  const long long ncv = std::min(n, o.ncv ? o.ncv : std::max<long long>(2 * e.nev + 1, 20));
  if (ncv <= e.nev + 1) throw ulibc::input_error("--ncv " + std::to_string(ncv) + ": ARPACK needs more than nev + 1");
  const char* which = e.which == "largest-real" ? "LR" : "LM";

  Arnoldi s(static_cast<int>(n), static_cast<int>(e.nev), static_cast<int>(ncv));
  std::vector<Complex> d, z;
  const auto t0 = std::chrono::steady_clock::now();
  const long long products =
      iterate(a, s, which, e.tol, static_cast<int>(std::min<long long>(e.max_iterations, INT32_MAX)));
  const int converged = extract(s, which, e.tol, d, z);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  Json pairs = Json::array();
  for (int j = 0; j < std::min(converged, s.nev); ++j) {
    Json pair = ulibc::peers::complex_json(d[j]);
    pair["residual"] = ulibc::peers::eigen_residual(a, d[j], z.data() + static_cast<std::size_t>(j) * n);
    pairs.push_back(pair);
  }
  Json record = ulibc::peers::eigen_record_head("arpack", ULIBC_ARPACK_VERSION, e, a);
  record.update(Json{{"threads", 1},
                     {"ncv", ncv},
                     {"which_arpack", which},
                     {"converged", converged},
                     {"iterations", s.iparam[2]},
                     {"matvecs", products},
                     {"eigenvalues", pairs},
                     {"seconds", seconds}});
  std::printf("%s\n", record.dump().c_str());
  return converged >= s.nev ? 0 : kNotConverged;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    return run(o, ulibc::peers::load_eigen_matrix(o.eigen));
  } catch (const ulibc::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return e.kind() == ulibc::ErrorKind::input ? 2 : 1;
  }
}
