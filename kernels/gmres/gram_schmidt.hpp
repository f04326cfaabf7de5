// gmres/gram_schmidt.hpp — the three orthogonalisations of a new Krylov vector, once for every scalar and space.
//
// After Saad, "Iterative Methods for Sparse Linear Systems", §6.3, with conjugated inner products (x^H y), so that
// the same code orthogonalises real vectors across MPI ranks (orthogonalize.hpp) and complex ones in shared memory
// (krylov.hpp). A Space says how vectors are stored and how their inner products are reduced:
//
//   using Scalar;  using Vector;              double or std::complex<double>; what holds one vector
//   Vector& basis(int k);                     v_k (allocated as needed)
//   std::vector<Scalar> dots(int k, const Vector& w, bool with_length);
//                                             v_j^H w for j = 0..k and, with_length, w^H w last: one reduction
//   Scalar dot(const Vector& x, const Vector& y);    x^H y: one reduction
//   void subtract(int k, const Scalar* h, Vector& w);  w −= Σ_{j<=k} h_j v_j
//   void subtract(Scalar h, const Vector& v, Vector& w);  w −= h v
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

namespace ulibc::gmres {

enum class Orth { cgs, mgs, cgs2 };
inline constexpr std::array<Orth, 3> kOrths = {Orth::cgs, Orth::mgs, Orth::cgs2};
std::string orth_name(Orth o);
Orth parse_orth(const std::string& name);  // Error(input) naming the accepted words

namespace detail {

// |z|², written out: the real case must keep the solver's old arithmetic (h·h) bit for bit.
inline double abs2(double x) { return x * x; }
inline double abs2(const std::complex<double>& z) { return z.real() * z.real() + z.imag() * z.imag(); }
// std::conj of a double is a complex: the real case must stay real.
inline double conjugate(double x) { return x; }
inline std::complex<double> conjugate(const std::complex<double>& z) { return std::conj(z); }

// One classical pass: projections and w^H w (before) in one reduction; returns the length after, by Pythagoras
// when it keeps enough digits (more than a tenth of the length left), else measured (a second reduction).
template <class Space, class Scalar = typename Space::Scalar>
double classical_pass(Space& s, int k, typename Space::Vector& w, Scalar* h, int& reductions) {
  const std::vector<Scalar> sums = s.dots(k, w, true);
  ++reductions;
  std::copy(sums.begin(), sums.end() - 1, h);
  s.subtract(k, h, w);
  double projected = 0;
  for (int j = 0; j <= k; ++j) projected += abs2(h[j]);
  const double before = std::real(sums.back()), after = before - projected;
  if (after > 0.01 * before) return std::sqrt(after);
  ++reductions;
  return std::sqrt(std::real(s.dot(w, w)));
}

// Makes w orthogonal to v_0..v_k; h[0..k] receive the projections and h[k+1] the length of w after (a real
// number, held as a Scalar). w is left unnormalised. Returns the reductions it made.
template <class Space, class Scalar = typename Space::Scalar>
int gram_schmidt(Orth how, Space& s, int k, typename Space::Vector& w, Scalar* h) {
  int reductions = 0;
  switch (how) {
    case Orth::cgs:
      h[k + 1] = classical_pass(s, k, w, h, reductions);
      break;
    case Orth::cgs2: {
      const std::vector<Scalar> sums = s.dots(k, w, false);
      ++reductions;
      s.subtract(k, sums.data(), w);
      h[k + 1] = classical_pass(s, k, w, h, reductions);
      for (int j = 0; j <= k; ++j) h[j] += sums[j];
      break;
    }
    case Orth::mgs:
      for (int j = 0; j <= k; ++j) {
        h[j] = s.dot(s.basis(j), w);
        ++reductions;
        s.subtract(h[j], s.basis(j), w);
      }
      h[k + 1] = std::sqrt(std::real(s.dot(w, w)));
      ++reductions;
      break;
  }
  return reductions;
}

// One reduction: how far v_k is from orthonormal to v_0..v_{k-1}: max(|v_j^H v_k|, |v_k^H v_k − 1|).
template <class Space>
double orthogonality_loss(Space& s, int k) {
  const auto sums = s.dots(k, s.basis(k), false);
  double loss = std::abs(sums.back() - 1.0);
  for (int j = 0; j < k; ++j) loss = std::max(loss, std::abs(sums[j]));
  return loss;
}

}  // namespace detail
}  // namespace ulibc::gmres
