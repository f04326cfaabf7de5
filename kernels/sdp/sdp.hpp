// sdp/sdp.hpp — semidefinite programs solved by SDPA's primal–dual interior-point method.
//
// The problem is SDPA's (sdp/problem.hpp), read from SDPA's files (sdp/sdpa_format.hpp). The method, after
// Fujisawa, Kojima, Nakata and Yamashita, "SDPA (SemiDefinite Programming Algorithm) User's Manual — Version
// 6.2.0", and Yamashita, Fujisawa and Kojima, "Implementation and evaluation of SDPA 6.0" (Optim. Methods Softw.
// 18, 2003), §2: from the infeasible point x = 0, X = Y = λ*·I, each iteration
//   1. ELEMENTS   the Schur complement B_ij = F_i • (X⁻¹ F_j Y) of the HRVW/KSH/M direction (sdp/elements.hpp);
//   2. CHOLESKY   B = L Lᵀ on the team (sdp/schur_system.hpp: B + δI where B will not factor or both sides are
//                 feasible, solves refined);
//   3. predictor  the direction towards μ = 0 (feasible) or β̄μ (infeasible);
//   4. corrector  Mehrotra's: the same B, the centring β from the predictor's progress, and the predictor's
//                 second-order term dX·dY;
//   5. step       α = min(1, γ*·α_max) for X and for Y, α_max from the smallest eigenvalue of L⁻¹ dX L⁻ᵀ (Lanczos,
//                 checked by factoring the point reached; LAPACK's dsyevr where that fails);
// until the relative gap is below ε* and both feasibility errors below ε̄ (pdOPT), or a feasible side's objective
// passes SDPA's bounds (pUNBD: (P) unbounded, so (D) infeasible; dUNBD: (D) unbounded, so (P) infeasible), or an
// iterate has run far enough along a ray to certify a side infeasible (pINF, dINF, pdINF), or the iteration limit
// (the phase then says which sides became feasible).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/stage_log.hpp"
#include "sdp/block_matrix.hpp"
#include "sdp/elements.hpp"
#include "sdp/problem.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::sdp {

// SDPA's parameters, its names and its defaults.
struct Parameters {
  int max_iteration = 100;
  double epsilon_star = 1e-7;  // relative gap
  double epsilon_dash = 1e-7;  // primal and dual feasibility errors
  double lambda_star = 1e2;    // the initial point λ*·I
  double lower_bound = -1e5;   // a feasible (P) whose objective falls below: pUNBD
  double upper_bound = 1e5;    // a feasible (D) whose objective rises above: dUNBD
  double beta_star = 0.1;      // centring when feasible
  double beta_bar = 0.2;       // centring when infeasible
  double gamma_star = 0.9;     // the fraction of the way to the cone's boundary a step goes
};

// Farkas certificates read off an iterate that ran off along a ray. (P) has no feasible point when some Y ⪰ 0 has
// F_k • Y = 0 for every k and F_0 • Y > 0; (D) has none when some x has Σ F_k x_k ⪰ 0 and c·x < 0. An iterate is
// taken as one when its violation is below kRayTolerance of its margin, both scale-free: for Y, max |F_k • Y| against
// F_0 • Y; for x, (max|F_0| + the primal residual) / max|x_k|, which bounds how far X ⪰ 0 lets Σ F_k x_k / max|x_k|
// leave the cone, against −c·x / max|x_k|.
inline constexpr double kRayTolerance = 1e-4;
bool certifies_primal_infeasible(const Problem& problem, const BlockMatrix& Y);
bool certifies_dual_infeasible(const Problem& problem, const std::vector<double>& x, double primal_residual);

struct Options {
  Parameters parameters;
  std::optional<Formula> elements;  // nullopt: each pair's cheapest (auto)
  Placement placement = Placement::copies;
};
// Error(input) naming the parameter for values SDPA would refuse (ε ≤ 0, γ outside (0, 1), ...).
void check(const Parameters& p);

// SDPA's phase words.
// pINF, dINF, pdINF: the iterates ran off along a ray that certifies (P), (D) or both to have no feasible point
// (sdp/verify.hpp checks the certificate), where the other side did not become feasible (else pUNBD or dUNBD).
enum class Phase { noINFO, pFEAS, dFEAS, pdFEAS, pdOPT, pUNBD, dUNBD, pINF, dINF, pdINF };
const char* phase_name(Phase p);

struct Iteration {
  int number = 0;
  double mu = 0, theta_p = 0, theta_d = 0, obj_p = 0, obj_d = 0, alpha_p = 0, alpha_d = 0, beta = 0;
};

struct Result {
  Phase phase = Phase::noINFO;
  std::string reason;  // why the solver stopped, in words
  int iterations = 0;
  double obj_p = 0, obj_d = 0, relative_gap = 0, p_feas_error = 0, d_feas_error = 0;
  std::vector<double> x;
  BlockMatrix X, Y;
  std::vector<Iteration> history;
  // Where the solve's time went: SDPA's ELEMENTS ("elements", the Schur complement B) and CHOLESKY ("cholesky",
  // factoring B and solving with it, refinement included), and of the rest: "factor" (Cholesky factors of X and Y,
  // X⁻¹), "products" (the directions' dense products X⁻¹ dX Y, X⁻¹ dXp dYp, X⁻¹ P Y) and "step" (step lengths:
  // L⁻¹ dX L⁻ᵀ and its smallest eigenvalue); what no stage holds is residuals, right-hand sides and updates.
  harness::StageLog time{"solve"};
  std::string elements_plan;  // Elements::describe()
};

// SDPA's relative gap: |objP − objD| / max(1, (|objP| + |objD|) / 2).
double relative_gap(double obj_p, double obj_d);

// Solves `problem` on the mapping's threads (the caller binds the OpenMP team); `on_iteration` sees each
// iteration as it ends. Error(input) when B, X and Y cannot fit in memory.
Result solve(const Problem& problem, const Options& options, const Topology& topo, const Mapping& map,
             const std::function<void(const Iteration&)>& on_iteration = {});

}  // namespace ulibc::sdp
