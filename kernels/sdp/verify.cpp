// sdp/verify.cpp — residuals, objectives and the cone, recomputed from the problem's entries.
#include "sdp/verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sdp/dense.hpp"

namespace ulibc::sdp {

namespace {

// Adds α F to the dense (or LP) block matrix a, entry by entry.
void add_entries(BlockMatrix& a, double alpha, const ConstraintMatrix& f) {
  for (const SparseBlock& sb : f.blocks) {
    const std::size_t n = static_cast<std::size_t>(a.shape(sb.block).size);
    const bool lp = a.shape(sb.block).diagonal;
    for (const Entry& e : sb.entries) {
      a.block(sb.block)[lp ? e.i : e.i + e.j * n] += alpha * e.value;
      if (!lp && e.i != e.j) a.block(sb.block)[e.j + e.i * n] += alpha * e.value;
    }
  }
}

double min_eigenvalue(const BlockMatrix& a) {
  double lowest = INFINITY;
  std::vector<double> work;
  for (int b = 0; b < a.blocks(); ++b) {
    const int n = a.shape(b).size;
    if (a.shape(b).diagonal) {
      for (double v : a.block(b)) lowest = std::min(lowest, v);
      continue;
    }
    work.resize(static_cast<std::size_t>(n) * n);
    lowest = std::min(lowest, dense::min_eigenvalue(a.block(b), n, work));
  }
  return lowest;
}

// trace(F A) from F's entries, for any square blocks A (the reference B needs non-symmetric ones).
double trace_with(const ConstraintMatrix& f, const BlockMatrix& a) {
  double sum = 0;
  for (const SparseBlock& sb : f.blocks) {
    const std::size_t n = static_cast<std::size_t>(a.shape(sb.block).size);
    const bool lp = a.shape(sb.block).diagonal;
    for (const Entry& e : sb.entries) {
      if (lp) {
        sum += e.value * a.block(sb.block)[e.i];
        continue;
      }
      sum += e.value * a.block(sb.block)[e.j + e.i * n];
      if (e.i != e.j) sum += e.value * a.block(sb.block)[e.i + e.j * n];
    }
  }
  return sum;
}

std::string cone_problem(const char* name, double min_eig, const BlockMatrix& a) {
  const double tolerance = 1e-8 * std::max(1.0, a.max_abs());
  if (min_eig >= -tolerance) return "";
  return fmt::format("{} is not positive semidefinite: smallest eigenvalue {:.3e}", name, min_eig);
}

}  // namespace

SolutionCheck check_solution(const Problem& problem, const std::vector<double>& x, const BlockMatrix& X,
                             const BlockMatrix& Y) {
  SolutionCheck c;
  BlockMatrix r(problem.blocks);  // Σ F_k x_k − F_0 − X
  add_entries(r, -1, problem.f[0]);
  for (int k = 1; k <= problem.m(); ++k) add_entries(r, x[k - 1], problem.f[k]);
  r.axpy(-1, X);
  c.p_feas_error = r.max_abs();
  for (int k = 1; k <= problem.m(); ++k) {
    c.d_feas_error = std::max(c.d_feas_error, std::abs(trace_with(problem.f[k], Y) - problem.c[k - 1]));
    c.obj_p += problem.c[k - 1] * x[k - 1];
  }
  c.obj_d = trace_with(problem.f[0], Y);
  c.relative_gap = relative_gap(c.obj_p, c.obj_d);
  c.min_eig_x = min_eigenvalue(X);
  c.min_eig_y = min_eigenvalue(Y);
  return c;
}

std::string verify(const Problem& problem, const Result& result, const Parameters& par) {
  const SolutionCheck c = check_solution(problem, result.x, result.X, result.Y);
  const double feas = 10 * par.epsilon_dash;
  const bool claims_p = result.phase == Phase::pdOPT || result.phase == Phase::pdFEAS || result.phase == Phase::pFEAS ||
                        result.phase == Phase::pUNBD;
  const bool claims_d = result.phase == Phase::pdOPT || result.phase == Phase::pdFEAS || result.phase == Phase::dFEAS ||
                        result.phase == Phase::dUNBD;
  if (claims_p && c.p_feas_error > feas)
    return fmt::format("{} but the primal feasibility error is {:.3e}", phase_name(result.phase), c.p_feas_error);
  if (claims_d && c.d_feas_error > feas)
    return fmt::format("{} but the dual feasibility error is {:.3e}", phase_name(result.phase), c.d_feas_error);
  if (claims_p) {
    if (auto why = cone_problem("X", c.min_eig_x, result.X); !why.empty()) return why;
  }
  if (claims_d) {
    if (auto why = cone_problem("Y", c.min_eig_y, result.Y); !why.empty()) return why;
  }
  if (result.phase == Phase::pdOPT && c.relative_gap > par.epsilon_star * 10)
    return fmt::format("pdOPT but the relative gap is {:.3e}", c.relative_gap);
  if (result.phase == Phase::pUNBD && !(c.obj_p < par.lower_bound) &&
      !certifies_dual_infeasible(problem, result.x, c.p_feas_error))
    return fmt::format("pUNBD but the primal objective is {:.6e} and x is no certificate", c.obj_p);
  if (result.phase == Phase::dUNBD && !(c.obj_d > par.upper_bound) && !certifies_primal_infeasible(problem, result.Y))
    return fmt::format("dUNBD but the dual objective is {:.6e} and Y is no certificate", c.obj_d);
  const bool claims_p_inf = result.phase == Phase::pINF || result.phase == Phase::pdINF;
  const bool claims_d_inf = result.phase == Phase::dINF || result.phase == Phase::pdINF;
  if (claims_p_inf) {
    if (auto why = cone_problem("Y", c.min_eig_y, result.Y); !why.empty()) return why;
    if (!certifies_primal_infeasible(problem, result.Y))
      return fmt::format("{} but Y is no certificate that (P) has no feasible point", phase_name(result.phase));
  }
  if (claims_d_inf) {
    if (auto why = cone_problem("X", c.min_eig_x, result.X); !why.empty()) return why;
    if (!certifies_dual_infeasible(problem, result.x, c.p_feas_error))
      return fmt::format("{} but x is no certificate that (D) has no feasible point", phase_name(result.phase));
  }
  return "";
}

bool agrees(double value, double known, int digits) {
  const double scale = std::max(std::abs(known), 1e-300);
  if (digits > 6) return std::abs(value - known) <= 1e-6 * scale;
  const double unit = std::pow(10.0, std::floor(std::log10(scale)) - (digits - 1));
  return std::abs(value - known) <= unit;
}

std::vector<double> schur_reference(const Problem& problem, const BlockMatrix& xinv, const BlockMatrix& y) {
  const int m = problem.m();
  std::vector<double> b(static_cast<std::size_t>(m) * m);
  BlockMatrix fj(problem.blocks), g(problem.blocks), t(problem.blocks);
  for (int j = 1; j <= m; ++j) {
    fj.set_zero();
    add_entries(fj, 1, problem.f[j]);
    for (int k = 0; k < fj.blocks(); ++k) {  // G = X⁻¹ F_j Y, plainly
      const int n = fj.shape(k).size;
      if (fj.shape(k).diagonal) {
        for (int e = 0; e < n; ++e) g.block(k)[e] = xinv.block(k)[e] * fj.block(k)[e] * y.block(k)[e];
        continue;
      }
      dense::multiply(xinv.block(k), fj.block(k), t.block(k), n);
      dense::multiply(t.block(k), y.block(k), g.block(k), n);
    }
    for (int i = 1; i <= m; ++i) b[(i - 1) + static_cast<std::size_t>(j - 1) * m] = trace_with(problem.f[i], g);
  }
  return b;
}

}  // namespace ulibc::sdp
