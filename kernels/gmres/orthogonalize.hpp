// gmres/orthogonalize.hpp — making each new Krylov vector orthogonal to the basis: the three ways the tuner picks
// from (Katagiri and Kuroda §2.4 iii), after Saad, "Iterative Methods for Sparse Linear Systems", §6.3.
//
//   cgs   classical Gram–Schmidt: all projections from one reduction, the new length by Pythagoras in the same one
//         (a second reduction only when the vector lost most of its length and Pythagoras would lose digits).
//         Fewest reductions, but the basis loses orthogonality as the vectors grow dependent;
//   mgs   modified Gram–Schmidt: one reduction per basis vector, orthogonal to working precision far longer;
//   cgs2  classical Gram–Schmidt twice ("twice is enough", Giraud, Langou and Rozložník 2005): two reductions,
//         orthogonal to working precision.
#pragma once
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

#include "gmres/team.hpp"

namespace ulibc::gmres {

enum class Orth { cgs, mgs, cgs2 };
inline constexpr std::array<Orth, 3> kOrths = {Orth::cgs, Orth::mgs, Orth::cgs2};
std::string orth_name(Orth o);
Orth parse_orth(const std::string& name);  // Error(input) naming the accepted words

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

// Collective: makes w orthogonal to v_0..v_k; h[0..k] receive the projections and h[k+1] the length of w after.
// w is left unnormalised. Returns the reductions (MPI_Allreduce calls) it made.
int orthogonalize(Orth how, Basis& v, int k, Vector& w, double* h, const Team& team, MPI_Comm comm);

// Collective, one reduction: how far v_k is from orthonormal to v_0..v_{k-1}: max(|v_k·v_j|, |v_k·v_k − 1|).
// What a Gram–Schmidt loses shows here first, in the newest vector.
double loss_of_orthogonality(Basis& v, int k, const Team& team, MPI_Comm comm);

// Collective: Σ over the ranks of x·y.
double dot(const Vector& x, const Vector& y, const Team& team, MPI_Comm comm);

}  // namespace ulibc::gmres
