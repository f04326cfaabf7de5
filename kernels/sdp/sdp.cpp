// sdp/sdp.cpp — SDPA's Mehrotra-type predictor–corrector iteration on the HRVW/KSH/M direction.
#include "sdp/sdp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "blas/blas_threads.hpp"
#include "harness/memory_check.hpp"
#include "sdp/cone.hpp"
#include "sdp/dense.hpp"
#include "sdp/schur_system.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sdp {

namespace {

using Timed = harness::StageLog::Timed;

// Refuses, before allocating, a problem whose B and dense blocks cannot fit: B twice (its raw rows and the matrix
// LAPACK factors), and some twenty block matrices (iterates, factors, directions, products).
void require_memory_for(const Problem& problem, int nodes) {
  const std::uint64_t m = static_cast<std::uint64_t>(problem.m());
  const std::uint64_t blocks = BlockMatrix::offsets(problem.blocks).back() * sizeof(double);
  const std::uint64_t bytes = harness::saturating_mul(harness::saturating_mul(m, m), 2 * sizeof(double)) +
                              harness::saturating_mul(blocks, 20 + 2 * static_cast<std::uint64_t>(nodes));
  harness::require_memory(bytes,
                          fmt::format("the Schur complement (m = {}) and the blocks (n = {})", m, problem.order()));
}

class Solver {
 public:
  Solver(const Problem& problem, const Options& options, const Topology& topo, const Mapping& map)
      : p_(problem),
        par_(options.parameters),
        elements_(problem, options.elements, topo, map, options.placement),
        m_(problem.m()),
        threads_(map.size()),
        schur_(problem.m()) {
    for (BlockMatrix* a : {&X_, &Y_, &Lx_, &Ly_, &Xinv_, &P_, &H_, &T_, &M_, &dX_, &dY_, &dXp_, &dYp_, &work_, &work2_,
                           &next_, &next_factor_})
      *a = BlockMatrix(problem.blocks);
    x_.assign(static_cast<std::size_t>(m_), 0.0);
    correction_.assign(static_cast<std::size_t>(m_), 0.0);
    X_.set_identity(par_.lambda_star);
    Y_.set_identity(par_.lambda_star);
    factor(X_, Lx_, threads_);
    factor(Y_, Ly_, threads_);
  }

  Result run(const std::function<void(const Iteration&)>& on_iteration) {
    Result r;
    time_ = harness::StageLog("solve");
    for (int k = 0;; ++k) {
      residuals();
      r.iterations = k;
      if (finished(k, r)) break;
      const Iteration it = iterate(k);
      r.history.push_back(it);
      if (on_iteration) on_iteration(it);
      if (!failed_.empty()) {
        residuals();  // of the point the failed step left (one side may have moved)
        r.phase = phase_by_feasibility();
        r.reason = failed_;
        break;
      }
    }
    time_.finish();
    // Stopped short of an answer: the best point met, which rounding may have left behind.
    const bool short_of_answer =
        r.phase == Phase::noINFO || r.phase == Phase::pFEAS || r.phase == Phase::dFEAS || r.phase == Phase::pdFEAS;
    const Point& answer = short_of_answer && best_.merit < merit() ? best_ : current();
    if (&answer == &best_) {
      r.reason += fmt::format("; the answer is iteration {}'s point, the best met", best_.iteration);
      r.phase = phase_of(best_.p_feas, best_.d_feas);
    }
    r.obj_p = answer.obj_p;
    r.obj_d = answer.obj_d;
    r.relative_gap = relative_gap(answer.obj_p, answer.obj_d);
    r.p_feas_error = answer.p_feas;
    r.d_feas_error = answer.d_feas;
    r.x = answer.x;
    r.X = answer.X;
    r.Y = answer.Y;
    r.time = time_;
    r.elements_plan = elements_.describe();
    return r;
  }

 private:
  // P = F0 − Σ F_k x_k + X (zero when X is (P)'s slack), d_k = c_k − F_k • Y, and what SDPA prints of them.
  void residuals() {
    P_.set_zero();
    P_.add(1, p_.f[0]);
    for (int k = 1; k <= m_; ++k) P_.add(-x_[k - 1], p_.f[k]);
    P_.axpy(1, X_);
    d_.resize(static_cast<std::size_t>(m_));
    d_feas_ = 0;
    obj_p_ = 0;
    for (int k = 1; k <= m_; ++k) {
      d_[k - 1] = p_.c[k - 1] - dot(p_.f[k], Y_);
      d_feas_ = std::max(d_feas_, std::abs(d_[k - 1]));
      obj_p_ += p_.c[k - 1] * x_[k - 1];
    }
    p_feas_ = P_.max_abs();
    obj_d_ = dot(p_.f[0], Y_);
    mu_ = dot(X_, Y_) / static_cast<double>(p_.order());
  }

  bool primal_feasible() const { return p_feas_ <= par_.epsilon_dash; }
  bool dual_feasible() const { return d_feas_ <= par_.epsilon_dash; }

  Phase phase_of(double p_feas, double d_feas) const {
    const bool p = p_feas <= par_.epsilon_dash, d = d_feas <= par_.epsilon_dash;
    if (p && d) return Phase::pdFEAS;
    if (p) return Phase::pFEAS;
    return d ? Phase::dFEAS : Phase::noINFO;
  }
  Phase phase_by_feasibility() const { return phase_of(p_feas_, d_feas_); }

  // An iterate with what was measured of it.
  struct Point {
    int iteration = 0;
    std::vector<double> x;
    BlockMatrix X, Y;
    double obj_p = 0, obj_d = 0, p_feas = 0, d_feas = 0;
    double merit = INFINITY;
  };
  double merit() const { return relative_gap(obj_p_, obj_d_) + p_feas_ + d_feas_; }
  const Point& current() {
    now_ = Point{iteration_, x_, X_, Y_, obj_p_, obj_d_, p_feas_, d_feas_, merit()};
    return now_;
  }

  // Whether the last kStall iterations failed to halve the gap and feasibility errors together: the iterates have
  // reached the floor that rounding sets (control5 and hinf1 end there: x of 1e4 times a dual error of 1e-10).
  // What the iterate's certificates settle: pdINF with both; with one, dUNBD or pUNBD when the other side is
  // feasible (so it is unbounded). A lone certificate with the other side still open settles nothing yet: it is
  // kept (lone_ray_), and named if the solve ends without more.
  Phase infeasibility_certified() {
    const bool p = certifies_primal_infeasible(p_, Y_);
    const bool d = certifies_dual_infeasible(p_, x_, p_feas_);
    if (p && d) return Phase::pdINF;
    if (p && dual_feasible()) return Phase::dUNBD;
    if (d && primal_feasible()) return Phase::pUNBD;
    if (p || d) lone_ray_ = p ? Phase::pINF : Phase::dINF;
    return Phase::noINFO;
  }

  // The phase of a solve that ended without an answer: a lone certificate met on the way, else what became feasible.
  Phase phase_at_end() const { return lone_ray_ != Phase::noINFO ? lone_ray_ : phase_by_feasibility(); }

  // Also keeps the best point met, by the same measure.
  bool stalled(int k) {
    iteration_ = k;
    if (merit() < best_.merit) best_ = current();
    if (k == 0 || merit() < progress_ / 2) {
      progress_ = merit();
      progress_at_ = k;
    }
    return k - progress_at_ >= kStall;
  }

  bool finished(int k, Result& r) {
    if (primal_feasible() && dual_feasible() && relative_gap(obj_p_, obj_d_) <= par_.epsilon_star) {
      r.phase = Phase::pdOPT;
      r.reason = "relative gap and feasibility errors within epsilonStar and epsilonDash";
    } else if (primal_feasible() && obj_p_ < par_.lower_bound) {
      r.phase = Phase::pUNBD;
      r.reason = fmt::format("(P) feasible with objective {:.6e} below lowerBound {:.1e}", obj_p_, par_.lower_bound);
    } else if (dual_feasible() && obj_d_ > par_.upper_bound) {
      r.phase = Phase::dUNBD;
      r.reason = fmt::format("(D) feasible with objective {:.6e} above upperBound {:.1e}", obj_d_, par_.upper_bound);
    } else if (const Phase ray = infeasibility_certified(); ray != Phase::noINFO) {
      r.phase = ray;
      r.reason = "the iterates ran off along a ray that certifies it (a Farkas certificate)";
    } else if (k >= par_.max_iteration) {
      r.phase = phase_at_end();
      r.reason = fmt::format("maxIteration {} reached", par_.max_iteration);
    } else if (stalled(k)) {
      r.phase = phase_at_end();
      r.reason = fmt::format("no progress in {} iterations: the gap and the feasibility errors stay near {:.1e}",
                             kStall, progress_);
    } else {
      return false;
    }
    return true;
  }

  Iteration iterate(int k) {
    Iteration it{.number = k, .mu = mu_, .theta_p = theta_p_, .theta_d = theta_d_, .obj_p = obj_p_, .obj_d = obj_d_};
    {
      Timed t(time_, "factor");
      invert(Lx_, Xinv_, threads_);
    }
    {
      Timed t(time_, "elements");
      elements_.compute(Xinv_, Y_, schur_.matrix());
    }
    {
      Timed t(time_, "cholesky");
      if (!schur_.factor(threads_, primal_feasible() && dual_feasible()))
        return fail(it, "the Schur complement matrix is not positive definite (CHOLESKY failed)");
    }
    const bool feasible = primal_feasible() && dual_feasible();
    if (primal_residual_matters()) {
      Timed t(time_, "products");
      sym_product(Xinv_, P_, Y_, H_, work_, threads_);
    }  // X⁻¹ P Y: what the primal residual asks of dY
    // Predictor: towards μ = 0 when feasible, β̄μ when not.
    target(feasible ? 0.0 : par_.beta_bar * mu_, nullptr);
    direction(false);
    const auto [predicted_p, predicted_d] = steps(StepMethod::estimate);
    // Corrector: the centring from how far the predictor would get, and its second-order term.
    work_ = X_;
    work_.axpy(predicted_p, dX_);
    M_ = Y_;
    M_.axpy(predicted_d, dY_);
    double beta = std::pow(dot(work_, M_) / dot(X_, Y_), 2);
    beta = std::min(1.0, std::max(feasible ? par_.beta_star : par_.beta_bar, beta));
    dXp_ = dX_;
    dYp_ = dY_;
    target(beta * mu_, &dXp_);
    direction(true);
    auto estimated = steps(StepMethod::estimate);
    if (std::min(estimated.first, estimated.second) < kShortStep) {
      // The corrector barely moves (near the optimum its second-order term can be mostly rounding): a plain
      // centring direction instead, better conditioned, at the cost of less progress this iteration.
      beta = std::max(beta, kCentring);
      target(beta * mu_, nullptr);
      direction(true);
      estimated = steps(StepMethod::estimate);
    }
    const auto [alpha_p, alpha_d] = take_steps(estimated);
    for (int i = 0; i < m_; ++i) x_[i] += alpha_p * dx_[i];
    theta_p_ *= 1 - alpha_p;
    theta_d_ *= 1 - alpha_d;
    it.alpha_p = alpha_p;
    it.alpha_d = alpha_d;
    it.beta = beta;
    return it;
  }

  void solve_schur(std::vector<double>& v) {
    Timed t(time_, "cholesky");
    schur_.solve(v);
  }

  Iteration fail(Iteration it, const char* why) {
    failed_ = why;
    return it;
  }

  // T ← μ X⁻¹ − Y − sym(X⁻¹ dXp dYp): dY before the part that depends on dX (the second-order term when given).
  void target(double mu, const BlockMatrix* second_order) {
    T_ = Xinv_;
    for (int b = 0; b < T_.blocks(); ++b)
      for (double& v : T_.block(b)) v *= mu;
    T_.axpy(-1, Y_);
    if (second_order) {
      {
        Timed t(time_, "products");
        sym_product(Xinv_, dXp_, dYp_, M_, work_, threads_);
      }
      T_.axpy(-1, M_);
    }
  }

  // B dx = r with r_k = −d_k + F_k • (T + sym(X⁻¹ P Y)); dX = Σ F_k dx_k − P; dY = T − sym(X⁻¹ dX Y).
  // `final`: the corrector's, which the step takes (the predictor's only sizes the centring and the second-order
  // term): refined as a whole.
  void direction(bool final) {
    M_ = T_;
    if (primal_residual_matters()) M_.axpy(1, H_);
    dx_.resize(static_cast<std::size_t>(m_));
    for (int k = 1; k <= m_; ++k) dx_[k - 1] = -d_[k - 1] + dot(p_.f[k], M_);
    solve_schur(dx_);
    dX_.set_zero();
    for (int k = 1; k <= m_; ++k) dX_.add(dx_[k - 1], p_.f[k]);
    dX_.axpy(-1, P_);
    {
      Timed t(time_, "products");
      sym_product(Xinv_, dX_, Y_, M_, work_, threads_);
    }
    dY_ = T_;
    dY_.axpy(-1, M_);
    if (final) refine_direction();
  }

  // Whether the direction corrects the primal residual P (its X⁻¹ P Y costs two dense products): not once P is
  // rounding's alone, a hundredth of ε̄, as SDPA takes a primal point as feasible once a full step reached it.
  bool primal_residual_matters() const { return p_feas_ > par_.epsilon_dash / 100; }

  // The Newton system refined as a whole: e_k = d_k − F_k • dY is what the direction misses of the dual equations
  // (zero but for rounding: near the optimum X⁻¹ is large, and the products that make dY round differently from
  // ELEMENTS's sums). δx = −B⁻¹ e moves dx, dX = Σ F_k dx_k − P and dY together, so that the complementarity
  // equation still holds. Once: without it gpp250-1 ended dual infeasible depending on the order of the products'
  // rounding; a second round, from a shifted factor, traded the direction's centrality for the dual equations' last
  // digits and stalled gpp250-1 on three threads.
  void refine_direction() {
    const double missed = dual_miss();
    // What the step cannot make good anyway (the dual residual, not yet within ε̄, will shrink by 1 − αd only) is
    // not worth two dense products.
    if (missed <= std::max(par_.epsilon_dash, d_feas_) / 100) return;
    solve_schur(correction_);
    for (int k = 1; k <= m_; ++k) dx_[k - 1] += correction_[k - 1];
    work2_.set_zero();  // Σ F_k δx_k
    for (int k = 1; k <= m_; ++k) work2_.add(correction_[k - 1], p_.f[k]);
    dX_.axpy(1, work2_);
    {
      Timed t(time_, "products");
      sym_product(Xinv_, work2_, Y_, M_, work_, threads_);
    }
    dY_.axpy(-1, M_);
  }

  // correction_ ← −(d − A(dY)), what dY misses of the dual equations, and its largest entry.
  double dual_miss() {
    double missed = 0;
    for (int k = 1; k <= m_; ++k) {
      correction_[k - 1] = -(d_[k - 1] - dot(p_.f[k], dY_));
      missed = std::max(missed, std::abs(correction_[k - 1]));
    }
    return missed;
  }

  // The primal and dual step lengths: γ* of the way to the cone's boundary, at most 1.
  std::pair<double, double> steps(StepMethod method) {
    const double cap = 1 / par_.gamma_star;  // γ*·α_max ≥ 1 needs α_max no further
    Timed t(time_, "step");
    const auto [to_x, to_y] = max_steps(Lx_, dX_, Ly_, dY_, cap, threads_, method);
    return {std::min(1.0, par_.gamma_star * to_x), std::min(1.0, par_.gamma_star * to_y)};
  }

  // X += αp dX and Y += αd dY with the estimated steps, each checked by factoring its result (the factor the next
  // iteration needs); where that fails, the exact step, shortened further while rounding still defeats it.
  std::pair<double, double> take_steps(std::pair<double, double> estimated) {
    auto [alpha_p, alpha_d] = estimated;
    Timed t(time_, "factor");
    next_ = X_;
    next_.axpy(alpha_p, dX_);
    next_y_ = Y_;
    next_y_.axpy(alpha_d, dY_);
    const auto [x_ok, y_ok] = factor_pair(next_, next_factor_, next_y_, next_y_factor_, threads_);
    if (x_ok) {
      std::swap(X_, next_);
      std::swap(Lx_, next_factor_);
    }
    if (y_ok) {
      std::swap(Y_, next_y_);
      std::swap(Ly_, next_y_factor_);
    }
    if (x_ok && y_ok) return {alpha_p, alpha_d};
    const auto [exact_p, exact_d] = steps(StepMethod::exact);
    if (!x_ok) alpha_p = exact_p;
    if (!y_ok) alpha_d = exact_d;
    bool x_moved = x_ok, y_moved = y_ok;
    for (int tries = 0; tries < kShortenings && !(x_moved && y_moved); ++tries) {
      if (!x_moved && !(x_moved = advance(X_, Lx_, dX_, alpha_p))) alpha_p *= par_.gamma_star;
      if (!y_moved && !(y_moved = advance(Y_, Ly_, dY_, alpha_d))) alpha_d *= par_.gamma_star;
    }
    // A side that cannot move stays where it is (at the rounding floor, X + α dX may not factor for any α the
    // solver can tell from 0) while the other moves; the solve fails only when neither can.
    if (!x_moved && !y_moved)
      fail(Iteration{}, "neither X nor Y can stay in the cone: no step of γ*^10 of the exact length factors");
    return {x_moved ? alpha_p : 0.0, y_moved ? alpha_d : 0.0};
  }

  // a ← a + α d and f ← its factor, when a + α d factors; else neither changes.
  bool advance(BlockMatrix& a, BlockMatrix& f, const BlockMatrix& d, double alpha) {
    next_ = a;
    next_.axpy(alpha, d);
    if (!factor(next_, next_factor_, threads_)) return false;
    std::swap(a, next_);
    std::swap(f, next_factor_);
    return true;
  }

  const Problem& p_;
  Parameters par_;
  Elements elements_;
  int m_;
  int threads_;
  static constexpr int kShortenings = 10;
  static constexpr int kStall = 8;
  static constexpr double kShortStep = 0.1;  // a corrector step shorter than this falls back to centring
  static constexpr double kCentring = 0.5;
  double progress_ = 0;  // the merit when it last halved, and at which iteration
  int progress_at_ = 0, iteration_ = 0;
  Point best_, now_;
  Phase lone_ray_ = Phase::noINFO;
  SchurSystem schur_;
  std::vector<double> x_, d_, dx_, correction_;
  BlockMatrix X_, Y_, Lx_, Ly_, Xinv_, P_, H_, T_, M_, dX_, dY_, dXp_, dYp_, work_, work2_, next_, next_factor_,
      next_y_, next_y_factor_;
  double mu_ = 0, p_feas_ = 0, d_feas_ = 0, obj_p_ = 0, obj_d_ = 0, theta_p_ = 1, theta_d_ = 1;
  harness::StageLog time_;
  std::string failed_;
};

}  // namespace

Result solve(const Problem& problem, const Options& options, const Topology& topo, const Mapping& map,
             const std::function<void(const Iteration&)>& on_iteration) {
  check(options.parameters);
  require_memory_for(problem, map.nodes_used());
  blas::BlasThreads one(1);  // the team shares the dense work itself (sdp/cone.hpp says why)
  Solver solver(problem, options, topo, map);
  return solver.run(on_iteration);
}

}  // namespace ulibc::sdp
