// eigen/problem.hpp — what `ulibc eigen` and `ulibc bench eigen` solve: a matrix from a Matrix Market file or a
// generated one whose spectrum is known exactly, and the complex numbers of their options ("1.2+0.4i", "-3", "2i").
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "eigen/eigen.hpp"

namespace ulibc::eigen {

// A complex number as written on a command line: "a", "bi", "a+bi", "a-bi" (also "i", "-i", "a+i"; j for i;
// exponents in a and b: "1e-3-2.5e2i"). Error(input) naming the text and the form for anything else, or a part
// that is not finite.
Complex parse_complex(const std::string& text);
std::string complex_text(Complex z);  // the shortest text parse_complex reads back exactly

struct Problem {
  std::string name;  // the spec or the file, for records
  sparse::ComplexCsrMatrix a;
  std::optional<std::vector<Complex>> exact;  // the whole spectrum, for a generated matrix
};

// A generated matrix (sparse/tridiagonal_toeplitz.hpp, sparse/prescribed_spectrum.hpp), from a spec:
//   convdiff2d:N[:BX[:BY[:SHIFT]]]  −Δu + β·∇u + σ·u on an N x N grid (N² rows), β = (BX, BY) (default 10, 5:
//                                   unequal, so that no eigenvalue is double),
//                                   σ = SHIFT (default 0), each part complex; its exact eigenvalues
//   toeplitz:N:A:B:C                tridiag(B, A, C) of order N
//   spectrum:N[:S[:T]]              S·D·S⁻¹, non-normal, with eigenvalues d_k = (k+1) + 0.5 sin(k+1) i, k < N,
//                                   couplings S and T (default 0.5 and 0.3)
// Error(input) naming the spec and what is wrong.
Problem generate(const std::string& spec);
// The matrix of a Matrix Market file (complex, hermitian, or real read as complex); no exact spectrum.
Problem read_problem(const std::string& path);

}  // namespace ulibc::eigen
