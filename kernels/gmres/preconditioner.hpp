// gmres/preconditioner.hpp — M⁻¹ for right-preconditioned GMRES: the four choices of Katagiri and Kuroda §2.4 i.
//
//   none    M = I;
//   jacobi  M = diag(A);
//   bilu0   block ILU(0): incomplete LU without fill of the diagonal blocks, one block per rank (the rank's whole
//           diagonal block, solved by one thread) or per thread (each thread's rows, solved in parallel; more
//           blocks, weaker, but no thread waits); couplings between blocks are dropped, as in PETSc's block Jacobi;
//   poly    a matrix polynomial: the Neumann series of the Jacobi-scaled matrix truncated at degree d,
//           M⁻¹ = Σ_{j=0..d} (I − D⁻¹A)^j D⁻¹, applied as d + 1 Jacobi sweeps from zero (d products with A).
//           It converges as a series only where the Jacobi iteration does (diagonally dominant matrices), but is a
//           fixed polynomial in A, so GMRES may use it anywhere: the tuner's trial says whether it helps.
// A zero (or non-finite) pivot in ILU(0), or a zero diagonal under jacobi and poly, is refused with an
// Error(input) naming the global row: GMRES cannot apply such an M⁻¹, and shifting the pivot would change the
// preconditioner behind the user's back. The tuner then leaves that candidate out and says why.
#pragma once
#include <array>
#include <memory>
#include <string>

#include "gmres/spmv.hpp"

namespace ulibc::gmres {

enum class Precond { none, jacobi, bilu0, poly };
inline constexpr std::array<Precond, 4> kPreconds = {Precond::none, Precond::jacobi, Precond::bilu0, Precond::poly};
std::string precond_name(Precond p);
Precond parse_precond(const std::string& name);  // Error(input) naming the accepted words

enum class IluBlocks { rank, thread };
std::string ilu_blocks_name(IluBlocks b);
IluBlocks parse_ilu_blocks(const std::string& name);

struct PrecondOptions {
  IluBlocks ilu_blocks = IluBlocks::rank;
  int poly_degree = 3;
};

class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  // z = M⁻¹ v on this rank's rows; collective (poly exchanges ghosts).
  virtual void apply(const Vector& v, Vector& z) = 0;
  virtual std::string describe() const = 0;  // "bilu0 (per thread, 2 blocks)"
};

// True when diag(A) holds one value on every rank. Jacobi's M is then c·I, and right-preconditioned GMRES builds the
// same Krylov space, and so the same iterates, under it as under none: a trial of it would only repeat none's.
// Collective.
bool diagonal_is_scalar(const DistributedMatrix& a);

// Collective: sets up `which` for `op`'s matrix. Error(input) on every rank for a zero pivot or diagonal, named by
// the rank that found it.
std::unique_ptr<Preconditioner> make_preconditioner(Precond which, Operator& op, const PrecondOptions& opts);

}  // namespace ulibc::gmres
