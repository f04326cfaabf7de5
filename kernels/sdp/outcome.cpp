// sdp/outcome.cpp — how a solve ends: SDPA's phase words and gap, the parameters it accepts, and the Farkas
// certificates of infeasibility read off an iterate.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sdp/sdp.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sdp {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::noINFO:
      return "noINFO";
    case Phase::pFEAS:
      return "pFEAS";
    case Phase::dFEAS:
      return "dFEAS";
    case Phase::pdFEAS:
      return "pdFEAS";
    case Phase::pdOPT:
      return "pdOPT";
    case Phase::pUNBD:
      return "pUNBD";
    case Phase::dUNBD:
      return "dUNBD";
    case Phase::pINF:
      return "pINF";
    case Phase::dINF:
      return "dINF";
    case Phase::pdINF:
      return "pdINF";
  }
  return "?";
}

void check(const Parameters& p) {
  auto positive = [](double v, const char* name) {
    if (!(v > 0)) throw input_error(fmt::format("{} {}: must be positive", name, v));
  };
  if (p.max_iteration < 1) throw input_error(fmt::format("maxIteration {}: at least 1", p.max_iteration));
  positive(p.epsilon_star, "epsilonStar");
  positive(p.epsilon_dash, "epsilonDash");
  positive(p.lambda_star, "lambdaStar");
  if (!(p.lower_bound < p.upper_bound)) throw input_error("lowerBound must lie below upperBound");
  auto fraction = [](double v, const char* name) {
    if (!(v > 0 && v < 1)) throw input_error(fmt::format("{} {}: must lie in (0, 1)", name, v));
  };
  fraction(p.beta_star, "betaStar");
  fraction(p.beta_bar, "betaBar");
  fraction(p.gamma_star, "gammaStar");
  if (p.beta_bar < p.beta_star) throw input_error("betaBar must be at least betaStar");
}

bool certifies_primal_infeasible(const Problem& problem, const BlockMatrix& Y) {
  const double margin = dot(problem.f[0], Y);
  if (!(margin > 0)) return false;
  for (int k = 1; k <= problem.m(); ++k)
    if (std::abs(dot(problem.f[k], Y)) > kRayTolerance * margin) return false;
  return true;
}

bool certifies_dual_infeasible(const Problem& problem, const std::vector<double>& x, double primal_residual) {
  double size = 0, cx = 0, f0 = 0;
  for (int k = 0; k < problem.m(); ++k) {
    size = std::max(size, std::abs(x[k]));
    cx += problem.c[k] * x[k];
  }
  for (const SparseBlock& sb : problem.f[0].blocks)
    for (const Entry& e : sb.entries) f0 = std::max(f0, std::abs(e.value));
  return size > 0 && cx < 0 && f0 + primal_residual <= kRayTolerance * -cx;
}

double relative_gap(double obj_p, double obj_d) {
  return std::abs(obj_p - obj_d) / std::max(1.0, (std::abs(obj_p) + std::abs(obj_d)) / 2);
}

}  // namespace ulibc::sdp
