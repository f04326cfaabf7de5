// gmres/tuner.cpp — measuring the product's ways, trying the preconditioners, replacing cgs, growing m.
#include "gmres/tuner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "mpi/comm.hpp"

namespace ulibc::gmres::detail {

namespace {

constexpr int kProductReps = 5;

std::string us(double seconds) { return fmt::format("{:.1f} us", seconds * 1e6); }

// The median of kProductReps products after one first run, the slowest rank's; nullopt when that first run already
// took kDropFactor times `best` (its time in `first`).
std::optional<double> time_product(Operator& op, Vector& x, Vector& y, double best, double& first) {
  harness::StageLog scratch;
  double start = MPI_Wtime();
  op.apply(x.data(), y.data(), scratch);
  first = mpi::max(MPI_Wtime() - start, op.matrix().comm());
  if (first > kDropFactor * best) return std::nullopt;
  std::vector<double> reps;
  for (int r = 0; r < kProductReps; ++r) {
    start = MPI_Wtime();
    op.apply(x.data(), y.data(), scratch);
    reps.push_back(MPI_Wtime() - start);
  }
  std::nth_element(reps.begin(), reps.begin() + kProductReps / 2, reps.end());
  return mpi::max(reps[kProductReps / 2], op.matrix().comm());
}

// What a stored profile predicts one exchange costs this rank, the slowest rank's.
double predicted(const mpi::CommProfile& p, Comm c, Exchange& ex, const DistributedMatrix& a) {
  const int ranks = a.blocks().ranks();
  const double block = static_cast<double>(a.global_rows()) / ranks * sizeof(double);
  double mine = 0;
  switch (c) {
    case Comm::allgather:
      mine = p.allgather.at(block);
      break;
    case Comm::bcast:
      mine = ranks * p.bcast.at(block);
      break;
    default:
      mine = ex.neighbours() == 0 ? 0 : ex.neighbours() * p.p2p.at(ex.bytes_received(c) / ex.neighbours());
      break;
  }
  return mpi::max(mine, a.comm());
}

// Measures op's product with each candidate set by `choose`, keeps the fastest; returns the reason.
template <class Candidate, class Choose, class Name>
std::string keep_fastest(Operator& op, const std::vector<Candidate>& candidates, Choose choose, Name name,
                         Candidate& winner) {
  const DistributedMatrix& a = op.matrix();
  Vector x(a.team(), a.rows()), y(a.team(), a.rows());
  for (Index i = 0; i < a.rows(); ++i) x[i] = 1 + static_cast<double>((a.own().begin + i) % 7) / 7;
  double best = std::numeric_limits<double>::infinity();
  std::string measured;
  for (const Candidate c : candidates) {
    choose(c);
    double first = 0;
    const std::optional<double> t = time_product(op, x, y, best, first);
    measured +=
        fmt::format("{}{} {}", measured.empty() ? "" : ", ", name(c),
                    t ? us(*t) : fmt::format("dropped (first run {}, {:.1f}x the best)", us(first), first / best));
    if (t && *t < best) {
      best = *t;
      winner = c;
    }
  }
  choose(winner);
  return fmt::format("fastest of {} measured (median of {} products, slowest rank): {}", candidates.size(),
                     kProductReps, measured);
}

}  // namespace

void tune_product(Operator& op, const Options& opts, std::vector<Decision>& decisions) {
  const DistributedMatrix& a = op.matrix();
  op.kernel = opts.kernel.value_or(Kernel::csr);
  if (opts.comm) {
    op.comm = *opts.comm;
  } else if (a.blocks().ranks() == 1) {
    op.comm = Comm::p2p;
    decisions.push_back({"comm", "p2p", "one rank: nothing to exchange"});
  } else {
    std::vector<Comm> candidates(kComms.begin(), kComms.end());
    std::string pruned;
    if (opts.profile) {
      std::vector<double> cost;
      for (const Comm c : kComms) cost.push_back(predicted(*opts.profile, c, op.exchange(), a));
      const double best = *std::min_element(cost.begin(), cost.end());
      candidates.clear();
      for (std::size_t k = 0; k < kComms.size(); ++k) {
        pruned += fmt::format("{}{} {}", pruned.empty() ? "" : ", ", comm_name(kComms[k]), us(cost[k]));
        if (cost[k] <= kProfileMargin * best) candidates.push_back(kComms[k]);
      }
      pruned = fmt::format("; the MPI profile predicted {}, so only those within {}x of the best were run", pruned,
                           kProfileMargin);
    }
    Comm winner = candidates.front();
    const std::string why = keep_fastest(
        op, candidates, [&](Comm c) { op.comm = c; }, comm_name, winner);
    decisions.push_back({"comm", comm_name(winner), why + pruned});
  }
  if (!opts.kernel) {
    Kernel winner = Kernel::csr;
    const std::vector<Kernel> candidates(kKernels.begin(), kKernels.end());
    const std::string why = keep_fastest(
        op, candidates, [&](Kernel k) { op.kernel = k; }, kernel_name, winner);
    decisions.push_back({"spmv", kernel_name(winner), why});
  }
}

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Steps a restarted GMRES needs per decade when A M⁻¹'s spectrum spans magnitudes [lo, hi] (the trial's Ritz
// values): ρ = (κ − 1)/(κ + 1), κ = hi/lo, the minimal-residual bound (Saad §5.3.2). Full GMRES would do better,
// (√κ − 1)/(√κ + 1), but a restart throws away the basis that buys that, and the bound with κ ranks the
// preconditioners as the restarted solves then behave (no preconditioner's 161 against block ILU(0)'s 62 on
// convdiff2d:100: 2.6 times the steps predicted, 3.2 measured). The first steps of a trial say little: they remove
// the easy components, for every M alike.
double steps_per_decade(double lo, double hi) {
  if (!(lo > 0) || !(hi >= lo)) return std::numeric_limits<double>::infinity();
  const double kappa = hi / lo;
  return 1 / -std::log10((kappa - 1) / (kappa + 1));
}

}  // namespace

namespace {

// One candidate's trial: what it measured and predicts, and what it leaves (its M, its iterate) in case it wins.
struct Trial {
  Precond choice = Precond::none;
  PrecondOptions options;
  std::unique_ptr<Preconditioner> m;
  Vector x;
  CycleEnd end;
  double elapsed = 0;     // set-up and steps, the slowest rank's
  double per_decade = 0;  // steps per decade of residual
  double apply = 0;       // seconds of its M⁻¹ and A per step (Prediction::step holds the whole step)
  bool cut = false;       // cut short by its time bound
  Prediction predicted;
};

std::string describe(const Trial& t) {
  const Prediction& f = t.predicted;
  return fmt::format(
      "{}: set-up {:.3g} s, {} steps, {:.3g} s in all, residual {:.2g} of its start, Ritz values {:.2g}..{:.2g}, "
      "{:.3g} steps per decade, {:.3g} s per step ({:.3g} s of M and A), predicted {:.4g} steps and {:.3g} s{}",
      t.m->describe(), f.setup, t.end.steps, t.elapsed, t.end.estimate / t.end.start_residual, t.end.ritz_min,
      t.end.ritz_max, t.per_decade, f.step, t.apply, f.total_steps, f.seconds,
      f.converged ? " (converged)"
      : t.cut     ? " (cut short by the time bound: left out)"
                  : "");
}

}  // namespace

std::vector<StepCost> step_costs(const std::vector<const CycleEnd*>& trials, MPI_Comm comm) {
  std::vector<double> orth;
  for (const CycleEnd* e : trials)
    for (std::size_t k = 0; k < e->step_seconds.size(); ++k) orth.push_back(e->step_seconds[k] - e->apply_seconds[k]);
  const double common = mpi::max(median(orth), comm);
  std::vector<StepCost> costs;
  for (const CycleEnd* e : trials) {
    const double apply = mpi::max(median(e->apply_seconds), comm);
    costs.push_back({apply, apply + common});
  }
  return costs;
}

std::size_t pick_preconditioner(const std::vector<Prediction>& p) {
  const auto by = [&](auto key) {
    return static_cast<std::size_t>(
        std::min_element(p.begin(), p.end(),
                         [&](const Prediction& a, const Prediction& b) { return key(a) < key(b); }) -
        p.begin());
  };
  for (std::size_t k = 0; k < p.size(); ++k)
    if (p[k].converged) return k;
  const std::size_t fewest = by([](const Prediction& t) { return t.total_steps; });
  const double count = p[fewest].total_steps;
  const auto at_count = [&](const Prediction& t) { return t.setup + count * t.step; };
  std::size_t chosen = fewest;
  for (std::size_t k = 0; k < p.size(); ++k)
    if (p[k].total_steps <= kStepsTie * count && at_count(p[k]) < at_count(p[chosen])) chosen = k;
  const std::size_t fastest = by([](const Prediction& t) { return t.seconds; });
  return p[fastest].seconds < kClearMargin * p[chosen].seconds ? fastest : chosen;
}

bool more_trials_pay(double trial_cost, std::size_t trials_left, double to_go) {
  return static_cast<double>(trials_left) * trial_cost <= kTuningShare * to_go;
}

double trial_deadline(double start, double fastest_trial, double best_predicted) {
  return start + std::max(kDropFactor * fastest_trial, kTrialShare * best_predicted);
}

namespace {

using Candidate = std::pair<Precond, PrecondOptions>;

// The candidates in kTrialOrder. Block ILU(0) twice when the rank has several threads: per rank is stronger, per
// thread runs in parallel. Jacobi is left out, saying why in `left_out`, when diag(A) is one value.
std::vector<Candidate> trial_candidates(const DistributedMatrix& a, const Options& opts, std::string& left_out) {
  std::vector<Candidate> candidates;
  const bool scalar_jacobi = diagonal_is_scalar(a);
  if (scalar_jacobi) left_out = "jacobi left out (diag(A) is one value: M = cI gives none's iterates)";
  for (const Precond p : kTrialOrder) {
    if (p == Precond::jacobi && scalar_jacobi) continue;
    PrecondOptions o = opts.precond_options;
    if (p == Precond::bilu0 && a.team().threads() > 1) {
      o.ilu_blocks = IluBlocks::rank;
      candidates.emplace_back(p, o);
      o.ilu_blocks = IluBlocks::thread;
    }
    candidates.emplace_back(p, o);
  }
  return candidates;
}

// What the trials so far tell the next: the steps still allowed, its time bound, whether it can pay for itself.
struct TrialsSoFar {
  long steps_left = 0;
  double fastest = std::numeric_limits<double>::infinity();     // the quickest trial's seconds
  double best_predicted = 0;                                    // the best predicted solve, set-up included
  double best_to_go = std::numeric_limits<double>::infinity();  // seconds of the best solve still to come
  double spent = 0;                                             // seconds of every trial
  std::size_t count = 0;
};

// The trial's own prediction from its steps: steps per decade, the slower of what it measured and what its Ritz
// values predict (each alone misleads: the first steps remove the easy components for every M alike, and a few Ritz
// values can miss the extremes), and the steps to the tolerance. A trial cut short by its time bound has too few
// steps to predict from (one step's Ritz value is exact for a 1x1 matrix): it cannot win.
void predict_steps(Trial& t, int trial_steps, long steps_left, double target) {
  const CycleEnd& end = t.end;
  Prediction& f = t.predicted;
  f.converged = end.estimate <= target;
  const double measured_rate = end.steps > 0 && end.estimate < end.start_residual
                                   ? end.steps / std::log10(end.start_residual / end.estimate)
                                   : std::numeric_limits<double>::infinity();
  t.per_decade = std::max(measured_rate, steps_per_decade(end.ritz_min, end.ritz_max));
  const double decades = end.estimate > target ? std::log10(end.estimate / target) : 0;
  f.total_steps = end.steps + decades * t.per_decade;
  t.cut = !f.converged && end.steps < trial_steps && steps_left > 0;
  if (t.cut) f.total_steps = std::numeric_limits<double>::infinity();
}

// One candidate's trial from `start`: its set-up, then up to `trial_steps` steps by cgs, bounded in time by the
// trials so far. nullopt when the set-up failed (named in `left_out`). Collective.
std::optional<Trial> run_trial(Operator& op, Cycle& cycle, const Vector& start, const Candidate& candidate,
                               int trial_steps, double target, TrialsSoFar& so_far, std::string& left_out) {
  const DistributedMatrix& a = op.matrix();
  const double t0 = MPI_Wtime();
  Trial t{candidate.first, candidate.second};
  try {
    t.m = make_preconditioner(candidate.first, op, candidate.second);
  } catch (const Error& e) {
    left_out += fmt::format("{}{} left out ({})", left_out.empty() ? "" : "; ", precond_name(candidate.first),
                            *e.what() ? e.what() : "its set-up failed on another rank");
    return std::nullopt;
  }
  t.predicted.setup = mpi::max(MPI_Wtime() - t0, a.comm());
  t.x = Vector(a.team(), a.rows());
  std::copy(start.data(), start.data() + a.rows(), t.x.data());
  harness::StageLog scratch;
  t.end = cycle.run(t.x, *t.m, {.m = trial_steps, .orth = Orth::cgs, .target = target, .steps_left = so_far.steps_left},
                    scratch, trial_deadline(t0, so_far.fastest, so_far.best_predicted));
  t.elapsed = mpi::max(MPI_Wtime() - t0, a.comm());
  so_far.steps_left -= t.end.steps;
  predict_steps(t, trial_steps, so_far.steps_left, target);
  // The next trial's bound, from this one's own median step (the solve's step costs come after every trial).
  const double step = mpi::max(median(t.end.step_seconds), a.comm());
  const double predicted = t.cut ? t.predicted.total_steps : t.predicted.setup + t.predicted.total_steps * step;
  so_far.fastest = std::min(so_far.fastest, t.elapsed);
  so_far.best_predicted = so_far.count == 0 ? predicted : std::min(so_far.best_predicted, predicted);
  so_far.best_to_go =
      std::min(so_far.best_to_go, t.cut ? t.predicted.total_steps : (t.predicted.total_steps - t.end.steps) * step);
  so_far.spent += t.elapsed;
  ++so_far.count;
  return t;
}

// Each trial's step cost (its M⁻¹ and A, plus every trial's common orthogonalisation) and predicted seconds.
void price_trials(std::vector<Trial>& trials, MPI_Comm comm) {
  std::vector<const CycleEnd*> ends;
  for (const Trial& t : trials) ends.push_back(&t.end);
  const std::vector<StepCost> costs = step_costs(ends, comm);
  for (std::size_t k = 0; k < trials.size(); ++k) {
    Trial& t = trials[k];
    t.apply = costs[k].apply;
    t.predicted.step = costs[k].step;
    t.predicted.seconds =
        t.cut ? std::numeric_limits<double>::infinity() : t.predicted.setup + t.predicted.total_steps * costs[k].step;
  }
}

// The winner by pick_preconditioner, its iterate left in x, and the decision that says why.
TrialWinner keep_winner(std::vector<Trial>& trials, Vector& x, int trial_steps, const std::string& left_out,
                        const std::string& not_tried, std::vector<Decision>& decisions) {
  std::vector<Prediction> predictions;
  for (const Trial& t : trials) predictions.push_back(t.predicted);
  const std::size_t w = pick_preconditioner(predictions);
  std::string measured = left_out;  // before the winner's M moves out: describe() names each M
  for (const Trial& t : trials) measured += (measured.empty() ? "" : "; ") + describe(t);
  Trial& won = trials[w];
  TrialWinner best{won.choice,        won.options, std::move(won.m), won.end.steps, 0, won.predicted.total_steps,
                   not_tried.empty(), true};
  for (std::size_t k = 0; k < trials.size(); ++k)
    if (k != w) best.lost_steps += trials[k].end.steps;
  std::copy(won.x.data(), won.x.data() + x.size(), x.data());
  decisions.push_back(
      {"precond", precond_name(best.choice),
       fmt::format("a trial of at most {} steps from the same start each; kept: the fewest predicted steps to the "
                   "tolerance (of counts within {}x of the fewest, the fewest seconds at the fewest count), unless "
                   "another is predicted to take less than {} of its time: {}{}",
                   trial_steps, kStepsTie, kClearMargin, measured, not_tried)});
  return best;
}

}  // namespace

TrialWinner trial_preconditioners(Operator& op, Cycle& cycle, Vector& x, const Options& opts, int restart,
                                  double target, bool may_stop, std::vector<Decision>& decisions) {
  const DistributedMatrix& a = op.matrix();
  Vector start(a.team(), a.rows());
  std::copy(x.data(), x.data() + a.rows(), start.data());
  const int trial_steps = std::min(restart, kTrialSteps);
  cycle.basis()[trial_steps];  // allocated (and first touched) before any trial is timed
  std::string left_out, not_tried;
  const std::vector<Candidate> candidates = trial_candidates(a, opts, left_out);
  std::vector<Trial> trials;
  TrialsSoFar so_far{.steps_left = opts.max_iterations};
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const std::size_t trials_left = candidates.size() - c;
    const double trial_cost = trials.empty() ? 0 : so_far.spent / static_cast<double>(trials.size());
    if (may_stop && !trials.empty() && !more_trials_pay(trial_cost, trials_left, so_far.best_to_go)) {
      std::string names;
      for (std::size_t k = c; k < candidates.size(); ++k)
        names += (k > c ? ", " : "") + precond_name(candidates[k].first);
      not_tried = fmt::format(
          "; {} not tried: {} trials of about {:.3g} s each would cost more than {} of the {:.3g} s "
          "the best trial so far predicts for the rest of its solve",
          names, trials_left, trial_cost, kTuningShare, so_far.best_to_go);
      break;
    }
    std::optional<Trial> t = run_trial(op, cycle, start, candidates[c], trial_steps, target, so_far, left_out);
    if (!t) continue;
    trials.push_back(std::move(*t));
    if (trials.back().predicted.converged || so_far.steps_left <= 0) break;
  }
  if (trials.empty()) throw input_error("no preconditioner could be set up: " + left_out);
  price_trials(trials, a.comm());
  return keep_winner(trials, x, trial_steps, left_out, not_tried, decisions);
}

bool retry_trials(const TrialWinner& w, long steps, long before) {
  if (!w.tuned) return false;
  const double factor = w.tried_all ? kRetryAllFactor : kRetryFactor;
  return static_cast<double>(steps) > std::max(factor * w.predicted_steps, static_cast<double>(before));
}

Orth replace_cgs(Basis& v, int steps, double loss, const Team& team, MPI_Comm comm, std::vector<Decision>& decisions) {
  // Time one orthogonalisation of a copy of the newest vector against the others, as a step of the next cycle would.
  const int k = steps - 1;
  Vector w(team, team.rows());
  std::vector<double> h(static_cast<std::size_t>(k) + 2);
  double cost[2];
  const Orth candidates[2] = {Orth::mgs, Orth::cgs2};
  for (int c = 0; c < 2; ++c) {
    std::copy(v[steps].data(), v[steps].data() + team.rows(), w.data());
    const double start = MPI_Wtime();
    orthogonalize(candidates[c], v, k, w, h.data(), team, comm);
    cost[c] = mpi::max(MPI_Wtime() - start, comm);
  }
  const Orth choice = cost[0] <= cost[1] ? Orth::mgs : Orth::cgs2;
  decisions.push_back({"orth", orth_name(choice),
                       fmt::format("cgs lost orthogonality ({:.2g} > {:.0g}); the cheaper per step of mgs {} and "
                                   "cgs2 {} at {} vectors, kept for the rest of the solve",
                                   loss, kLossLimit, us(cost[0]), us(cost[1]), k + 1)});
  return choice;
}

int adapt_restart(int m, double before, double after, int limit, int cycle, std::vector<Decision>& decisions) {
  const double ratio = before > 0 ? after / before : 0;
  const int grown = ratio > kStallRatio ? 2 * m : m;
  const int next = std::min(grown, limit);
  if (next != m)
    decisions.push_back(
        {"restart", std::to_string(next),
         fmt::format("cycle {} cut the residual only to {:.3g} of its start: m {} -> {}", cycle, ratio, m, next)});
  return next;
}

}  // namespace ulibc::gmres::detail
