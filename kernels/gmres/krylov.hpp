// gmres/krylov.hpp — a few steps of complex GMRES in shared memory: the correction equation of Jacobi–Davidson,
// (I − uu*)(A − θI)(I − uu*) t = −r, solved approximately (Sleijpen and van der Vorst 1996).
//
// The cycle is the distributed real solver's own (cycle.hpp, gram_schmidt.hpp), run on complex vectors of one
// process: one cycle, no restart, right preconditioning. The caller brings the operator, M⁻¹ and the inner product
// (its own parallel reduction, e.g. zblas::zdotc on its zblas::Team, so that a result depends only on its split);
// the vector updates (w −= h v, x += …) are plain loops over the n entries, split statically over OpenMP threads
// from a few thousand entries on. Call it from outside a parallel region: inside one its loops run on one thread.
#pragma once
#include <complex>
#include <cstddef>
#include <functional>

#include "gmres/gram_schmidt.hpp"

namespace ulibc::gmres {

using Complex = std::complex<double>;

struct KrylovEnd {
  int steps = 0;        // Arnoldi steps taken
  double residual = 0;  // |g_{steps}|: ‖b − A x‖ at the end, in exact arithmetic (the start's, measured, when 0 steps)
};

// y = A x (or M⁻¹ x) on n entries; x and y never overlap.
using ComplexApply = std::function<void(const Complex* x, Complex* y)>;
// x^H y on n entries.
using ComplexDot = std::function<Complex(const Complex* x, const Complex* y)>;

// Solves A x = b approximately from x (updated in place) by at most `max_steps` steps of one GMRES cycle, stopping
// early once the estimate reaches rel_tol·‖b‖ (or the Krylov space holds the solution). `precond` empty: M = I.
// Error(input) for max_steps < 0, rel_tol < 0 or not a number, or an empty `apply` or `dot`.
KrylovEnd gmres_few_steps(std::size_t n, const ComplexApply& apply, const ComplexApply& precond, const ComplexDot& dot,
                          const Complex* b, Complex* x, int max_steps, double rel_tol, Orth orth = Orth::mgs);

}  // namespace ulibc::gmres
