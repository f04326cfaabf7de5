// eigen/verify.cpp — the verifier of eigen/verify.hpp: plain loops, nothing of the solver's.
#include "eigen/verify.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ulibc::eigen {

namespace {

std::vector<Complex> times(const sparse::ComplexCsrMatrix& a, const Complex* x) {
  std::vector<Complex> y(static_cast<std::size_t>(a.rows()));
  const auto start = a.row_start();
  const auto cols = a.columns();
  const auto vals = a.values();
  for (std::size_t i = 0; i < y.size(); ++i)
    for (auto k = start[i]; k < start[i + 1]; ++k) y[i] += vals[k] * x[cols[k]];
  return y;
}

double norm(const std::vector<Complex>& v) {
  double s = 0;
  for (const Complex& z : v) s += std::norm(z);
  return std::sqrt(s);
}

std::string text(Complex z) {
  std::ostringstream out;
  out.precision(10);
  out << z.real() << (z.imag() < 0 ? "-" : "+") << std::abs(z.imag()) << "i";
  return out.str();
}

// How well placed an eigenvalue is for o: smaller is wanted first (as the solver sorts).
double badness(Complex z, const Options& o) {
  switch (o.which) {
    case Which::largest_magnitude:
      return -std::abs(z);
    case Which::largest_real:
      return -z.real();
    case Which::target:
      break;
  }
  return std::abs(z - o.target);
}

}  // namespace

double residual_norm(const sparse::ComplexCsrMatrix& a, Complex lambda, const Complex* x) {
  std::vector<Complex> r = times(a, x);
  double xnorm = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    r[i] -= lambda * x[i];
    xnorm += std::norm(x[i]);
  }
  return norm(r) / std::sqrt(xnorm);
}

Check verify(const sparse::ComplexCsrMatrix& a, const Result& r, const Options& o) {
  Check c;
  const auto n = static_cast<std::size_t>(a.rows());
  const auto k = static_cast<std::size_t>(r.found);
  auto fail = [&](const std::string& why) {
    if (c.ok) c.failure = why;
    c.ok = false;
  };
  if (r.values.size() != k || r.schur_vectors.size() != n * k || r.vectors.size() != n * k ||
      r.schur_form.size() != k * k)
    fail("the result's sizes do not agree with its " + std::to_string(k) + " eigenpairs");
  if (!c.ok) return c;
  const Complex* q = r.schur_vectors.data();
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      Complex d = 0;
      for (std::size_t e = 0; e < n; ++e) d += std::conj(q[e + i * n]) * q[e + j * n];
      c.orthogonality = std::max(c.orthogonality, std::abs(d - Complex(i == j ? 1 : 0)));
    }
  if (c.orthogonality > 1e-10)
    fail("the Schur vectors are not orthonormal: |Q^H Q - I| reaches " + std::to_string(c.orthogonality));
  for (std::size_t col = 0; col < k; ++col) {
    const Complex rii = r.schur_form[col + col * k];
    if (std::abs(rii - r.values[col]) > 1e-12 * std::max(1.0, std::abs(rii)))
      fail("eigenvalue " + std::to_string(col) + " is not R's diagonal entry");
    for (std::size_t i = col + 1; i < k; ++i)
      if (r.schur_form[i + col * k] != Complex(0)) fail("R is not upper triangular");
    std::vector<Complex> res = times(a, q + col * n);
    for (std::size_t i = 0; i <= col; ++i)
      for (std::size_t e = 0; e < n; ++e) res[e] -= q[e + i * n] * r.schur_form[i + col * k];
    const double bound = o.tol * (rii == Complex(0) ? 1.0 : std::abs(rii));
    // The solver measured this residual in its own arithmetic; allow for a rounding's worth beyond it.
    if (norm(res) > 1.05 * bound + 1e-13 * std::max(1.0, std::abs(rii)))
      fail("Schur column " + std::to_string(col) + ": |A q - Q r| = " + std::to_string(norm(res)) + " exceeds " +
           std::to_string(bound));
    c.residuals.push_back(residual_norm(a, r.values[col], r.vectors.data() + col * n));
  }
  return c;
}

std::string missing_wanted(const std::vector<Complex>& exact, const std::vector<Complex>& found, const Options& o,
                           double match_tol) {
  std::vector<bool> used(exact.size(), false);
  double worst = -INFINITY;
  for (const Complex& f : found) {
    std::size_t best = exact.size();
    for (std::size_t e = 0; e < exact.size(); ++e)
      if (!used[e] && (best == exact.size() || std::abs(f - exact[e]) < std::abs(f - exact[best]))) best = e;
    if (best == exact.size() || std::abs(f - exact[best]) > match_tol * std::max(1.0, std::abs(exact[best])))
      return "found " + text(f) + ", which is no eigenvalue (or one found twice)";
    used[best] = true;
    worst = std::max(worst, badness(exact[best], o));
  }
  for (std::size_t e = 0; e < exact.size(); ++e)
    if (!used[e] && badness(exact[e], o) < worst - match_tol * std::max(1.0, std::abs(exact[e])))
      return "skipped " + text(exact[e]) + ", better placed than one found";
  return "";
}

}  // namespace ulibc::eigen
