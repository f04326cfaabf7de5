// gmres/orthogonalize.hpp — making each new Krylov vector orthogonal to the basis across ranks: the three ways the
// tuner picks from (Katagiri and Kuroda §2.4 iii), after Saad, "Iterative Methods for Sparse Linear Systems", §6.3;
// the algorithms are gram_schmidt.hpp's, run here on RankSpace.
//
//   cgs   classical Gram–Schmidt: all projections from one reduction, the new length by Pythagoras in the same one
//         (a second reduction only when the vector lost most of its length and Pythagoras would lose digits).
//         Fewest reductions, but the basis loses orthogonality as the vectors grow dependent;
//   mgs   modified Gram–Schmidt: one reduction per basis vector, orthogonal to working precision far longer;
//   cgs2  classical Gram–Schmidt twice ("twice is enough", Giraud, Langou and Rozložník 2005): two reductions,
//         orthogonal to working precision.
#pragma once
#include <mpi.h>

#include <vector>

#include "gmres/gram_schmidt.hpp"
#include "gmres/team.hpp"

namespace ulibc::gmres {

// The Krylov basis v_0, v_1, …: this rank's rows of each vector, allocated as the cycle reaches it.
class Basis {
 public:
  explicit Basis(const Team& team) : team_(team) {}
  Vector& operator[](int k);  // allocates v_0..v_k as needed
  int allocated() const { return static_cast<int>(v_.size()); }

 private:
  const Team& team_;
  std::vector<Vector> v_;
};

// gram_schmidt.hpp's Space on this rank's rows of a Basis: inner products summed per thread, then over the ranks
// by MPI_Allreduce. Every member but basis() is collective.
class RankSpace {
 public:
  using Scalar = double;
  using Vector = gmres::Vector;
  RankSpace(Basis& v, const Team& team, MPI_Comm comm) : v_(v), team_(team), comm_(comm) {}
  Vector& basis(int k) { return v_[k]; }
  std::vector<double> dots(int k, const Vector& w, bool with_length);
  double dot(const Vector& x, const Vector& y) const;
  void subtract(int k, const double* h, Vector& w);
  void subtract(double h, const Vector& v, Vector& w) const;
  const Team& team() const { return team_; }
  MPI_Comm comm() const { return comm_; }

 private:
  Basis& v_;
  const Team& team_;
  MPI_Comm comm_;
};

// Collective: makes w orthogonal to v_0..v_k; h[0..k] receive the projections and h[k+1] the length of w after.
// w is left unnormalised. Returns the reductions (MPI_Allreduce calls) it made.
int orthogonalize(Orth how, Basis& v, int k, Vector& w, double* h, const Team& team, MPI_Comm comm);

// Collective, one reduction: how far v_k is from orthonormal to v_0..v_{k-1}: max(|v_k·v_j|, |v_k·v_k − 1|).
// What a Gram–Schmidt loses shows here first, in the newest vector.
double loss_of_orthogonality(Basis& v, int k, const Team& team, MPI_Comm comm);

// Collective: Σ over the ranks of x·y.
double dot(const Vector& x, const Vector& y, const Team& team, MPI_Comm comm);

}  // namespace ulibc::gmres
