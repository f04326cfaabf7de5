// peers/eigen_peer.hpp — what the eigensolver peers (slepc_eigen.cpp, arpack_eigen.cpp) share: their options, the
// matrix `ulibc eigen` solves, the residuals each driver recomputes itself, and the record's common fields.
//
// The matrix comes from `ulibc eigen`'s own reader and generators (eigen/problem.hpp), so that every program solves
// the very same one from the same command line:
//   --matrix F.mtx    a Matrix Market file, complex, hermitian, or real (read as the complex matrix with the same
//   entries)
//   --generate SPEC   convdiff2d:N[:BX[:BY[:SHIFT]]] (−Δu + β·∇u + σ·u on an N x N grid, complex β and σ),
//                     toeplitz:N:A:B:C, spectrum:N[:S[:T]]: matrices whose spectra are known exactly
// Which eigenpairs, as `ulibc eigen` says it: --nev K (default 1) nearest --target T (a complex number, "1.2+0.4i";
// default 0), or --which largest-magnitude or largest-real. Converged, in every program: ‖A u − θ u‖ ≤ tol·|θ|.
#pragma once
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eigen/problem.hpp"
#include "peer_args.hpp"
#include "sparse/csr_matrix.hpp"
#include "ulibc/error.hpp"

namespace ulibc::peers {

using sparse::Complex;
using sparse::ComplexCsrMatrix;
using sparse::Index;

struct EigenOptions {
  std::string matrix_file, generate;
  long long nev = 1;
  std::string which = "target";  // target, largest-magnitude or largest-real
  Complex target = 0;
  double tol = 1e-8;
  long long max_iterations = 10000;
};

// Reads one of the shared options, `arg` with its `value`; false when `arg` is not one of them.
inline bool parse_eigen_option(const std::string& arg, const std::string& value, EigenOptions& o) {
  if (arg == "--matrix") {
    o.matrix_file = value;
  } else if (arg == "--generate") {
    o.generate = value;
  } else if (arg == "--nev") {
    o.nev = parse_count(value, "--nev", 1, 100000);
  } else if (arg == "--which") {
    if (value != "largest-magnitude" && value != "largest-real")
      refuse(arg, "expected largest-magnitude or largest-real, got \"" + value + "\"");
    o.which = value;
  } else if (arg == "--target") {
    try {
      o.target = eigen::parse_complex(value);
    } catch (const Error& e) {
      refuse(arg, e.what());
    }
  } else if (arg == "--tol") {
    o.tol = parse_real(value, "--tol", 1e-15, 0.1);
  } else if (arg == "--max-iterations") {
    o.max_iterations = parse_count(value, "--max-iterations", 1, 100000000);
  } else {
    return false;
  }
  return true;
}

// The checks every driver makes once its own options are read.
inline void check_eigen_options(const EigenOptions& o) {
  if (o.matrix_file.empty() == o.generate.empty()) refuse("--matrix", "give exactly one of --matrix and --generate");
}

// The matrix the options name, as `ulibc eigen` reads or generates it; Error(input) for a bad file or spec, or a
// matrix that is not square.
inline ComplexCsrMatrix load_eigen_matrix(const EigenOptions& o) {
  ComplexCsrMatrix a = (o.generate.empty() ? eigen::read_problem(o.matrix_file) : eigen::generate(o.generate)).a;
  if (a.rows() != a.cols())
    throw input_error("the matrix is " + std::to_string(a.rows()) + " x " + std::to_string(a.cols()) +
                      ": an eigenproblem needs a square one");
  return a;
}

// y = A x, one thread.
inline void csr_multiply(const ComplexCsrMatrix& a, const Complex* x, Complex* y) {
  const auto start = a.row_start();
  const auto columns = a.columns();
  const auto values = a.values();
  for (Index r = 0; r < a.rows(); ++r) {
    Complex sum = 0;
    for (Index k = start[r]; k < start[r + 1]; ++k) sum += values[k] * x[columns[k]];
    y[r] = sum;
  }
}

// ‖A x − λ x‖ / ‖x‖, computed here whatever the solver reports.
inline double eigen_residual(const ComplexCsrMatrix& a, Complex lambda, const Complex* x) {
  std::vector<Complex> y(static_cast<std::size_t>(a.rows()));
  csr_multiply(a, x, y.data());
  double r2 = 0, x2 = 0;
  for (Index i = 0; i < a.rows(); ++i) {
    r2 += std::norm(y[i] - lambda * x[i]);
    x2 += std::norm(x[i]);
  }
  return x2 > 0 ? std::sqrt(r2 / x2) : INFINITY;
}

// The matrix's name in a record: the generator's, or the file's name without its folder.
inline std::string eigen_matrix_name(const EigenOptions& o) {
  if (!o.generate.empty()) return o.generate;
  const std::size_t slash = o.matrix_file.rfind('/');
  return slash == std::string::npos ? o.matrix_file : o.matrix_file.substr(slash + 1);
}

inline nlohmann::ordered_json complex_json(Complex z) { return {{"re", z.real()}, {"im", z.imag()}}; }

// The fields every eigen peer's record opens with.
inline nlohmann::ordered_json eigen_record_head(const char* peer, const std::string& version, const EigenOptions& o,
                                                const ComplexCsrMatrix& a) {
  nlohmann::ordered_json r{{"peer", peer},
                           {"version", version},
                           {"matrix", eigen_matrix_name(o)},
                           {"rows", a.rows()},
                           {"nonzeros", a.nonzeros()},
                           {"nev", o.nev},
                           {"which", o.which},
                           {"tol", o.tol},
                           {"max_iterations", o.max_iterations}};
  if (o.which == "target") r["target"] = eigen::complex_text(o.target);
  return r;
}

// The usage lines of the shared options.
inline const char* eigen_options_help() {
  return "  --matrix F.mtx      a Matrix Market matrix, complex, hermitian or real (square)\n"
         "  --generate SPEC     convdiff2d:N[:BX[:BY[:SHIFT]]], toeplitz:N:A:B:C, spectrum:N[:S[:T]] (as ulibc eigen)\n"
         "  --nev K             eigenpairs wanted (default 1)\n"
         "  --target T          those nearest this complex number, e.g. 1.2+0.4i (default 0)\n"
         "  --which W           instead of a target: largest-magnitude or largest-real\n"
         "  --tol T             converged when |A u - theta u| <= tol |theta| (default 1e-8)\n"
         "  --max-iterations N  outer iterations at most (default 10000)\n";
}

}  // namespace ulibc::peers
