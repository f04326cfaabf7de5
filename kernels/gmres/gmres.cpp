// gmres/gmres.cpp — the solve: tune what is left to `auto`, then restart cycles until the true residual is small.
#include "gmres/gmres.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "gmres/tuner.hpp"
#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

void check(const Options& o) {
  if (!(o.tol > 0 && o.tol < 1)) throw input_error(fmt::format("--tol {}: the tolerance must lie in (0, 1)", o.tol));
  if (o.max_iterations < 1)
    throw input_error(fmt::format("--max-iterations {}: at least one iteration", o.max_iterations));
  if (o.restart && *o.restart < 1) throw input_error(fmt::format("--restart {}: m must be at least 1", *o.restart));
  if (o.precond_options.poly_degree < 0 || o.precond_options.poly_degree > 20)
    throw input_error(fmt::format("--poly-degree {}: from 0 to 20", o.precond_options.poly_degree));
}

namespace {

template <class Value, class Parse>
std::optional<Value> knob(const std::string& word, Parse parse) {
  if (word == "auto") return std::nullopt;
  return parse(word);
}

int parse_restart(const std::string& word) {
  int m = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), m);
  if (ec != std::errc() || end != word.data() + word.size() || m < 1)
    throw input_error(fmt::format("--restart \"{}\": a whole number from 1, or auto", word));
  return m;
}

// Each stage averaged over the ranks; the whole solve is the slowest rank's, the time to solution. The ranks take the
// same steps (every choice is collective), so their logs hold the same stages in the same order; were they ever to
// differ, each rank keeps its own stages rather than add unlike ones.
void across_ranks(harness::StageLog& log, MPI_Comm comm) {
  const double ranks = mpi::place_in(comm).size;
  std::vector<double> seconds = log.all_seconds();
  const double whole = mpi::max(seconds.front(), comm);
  const double stages = static_cast<double>(seconds.size());
  if (mpi::max(stages, comm) == -mpi::max(-stages, comm)) {
    mpi::sum_in_place(seconds, comm);
    for (double& s : seconds) s /= ranks;
  }
  seconds.front() = whole;
  log.set_all_seconds(seconds);
}

// The product's exchange and kernel: as given, or measured (that time counts as tuning).
void settle_product(Operator& op, const Options& opts, Result& res) {
  if (opts.comm && opts.kernel) {  // nothing to tune: no tuning time
    op.comm = *opts.comm;
    op.kernel = *opts.kernel;
    return;
  }
  const harness::StageLog::Timed t(res.time, "tuning");
  detail::tune_product(op, opts, res.decisions);
}

// What the solve ended with: its residual, the product it used and where its time went, over the ranks.
void record_outcome(Result& res, const Operator& op, MPI_Comm comm) {
  res.relative_residual = res.history.back();
  res.kernel = op.kernel;
  res.comm = op.comm;
  res.time.finish();
  across_ranks(res.time, comm);
}

}  // namespace

void set_knobs(Options& o, const KnobWords& w) {
  o.restart = knob<int>(w.restart, parse_restart);
  o.orth = knob<Orth>(w.orth, parse_orth);
  o.precond = knob<Precond>(w.precond, parse_precond);
  o.kernel = knob<Kernel>(w.spmv, parse_kernel);
  o.comm = knob<Comm>(w.comm, parse_comm);
}

Result solve(const DistributedMatrix& a, const Vector& b, Vector& x, const Options& opts) {
  check(opts);
  const MPI_Comm comm = a.comm();
  const Team& team = a.team();
  Result res;  // its log's clock starts here
  Operator op(a);
  detail::Cycle cycle(op, b);
  const double b_norm = std::sqrt(dot(b, b, team, comm));
  const double target = opts.tol * b_norm;
  const int limit = static_cast<int>(std::min<Index>(kMaxAutoRestart, a.global_rows()));
  int m = std::min<Index>(opts.restart.value_or(kDefaultRestart), a.global_rows());

  settle_product(op, opts, res);
  detail::TrialWinner trials;  // not tuned when the preconditioner is fixed
  std::unique_ptr<Preconditioner> precond;
  long trial_start = 0;  // the steps before the winner's trial began
  const auto try_preconditioners = [&](bool may_stop) {
    const harness::StageLog::Timed t(res.time, "tuning");
    trial_start = res.iterations;
    Options budget = opts;  // the trials' steps count against the iteration limit too
    budget.max_iterations -= res.iterations + res.trial_iterations;
    trials = detail::trial_preconditioners(op, cycle, x, budget, m, target, may_stop, res.decisions);
    precond = std::move(trials.m);
    res.precond = trials.choice;
    res.ilu_blocks = trials.options.ilu_blocks;
    res.iterations += trials.kept_steps;
    res.trial_iterations += trials.lost_steps;
  };
  if (opts.precond) {
    const harness::StageLog::Timed t(res.time, "precond");
    precond = make_preconditioner(*opts.precond, op, opts.precond_options);
    res.precond = *opts.precond;
    res.ilu_blocks = opts.precond_options.ilu_blocks;
  } else {
    try_preconditioners(true);
  }
  res.orth = opts.orth.value_or(Orth::cgs);
  bool watching = !opts.orth;  // auto: cgs until it loses orthogonality
  if (watching)
    res.decisions.push_back({"orth", "cgs",
                             "the fewest reductions per step; replaced for good if the basis loses "
                             "orthogonality"});

  for (int cycle_no = 1;; ++cycle_no) {
    const long left = opts.max_iterations - res.iterations - res.trial_iterations;
    const detail::CycleEnd end =
        cycle.run(x, *precond,
                  {.m = m, .orth = res.orth, .target = target, .steps_left = left, .measure_loss = watching}, res.time);
    res.history.push_back(b_norm > 0 ? end.start_residual / b_norm : 0);
    if (end.steps == 0) {
      res.converged = end.start_residual <= target;
      break;
    }
    res.iterations += end.steps;
    if (cycle_no > 1) ++res.restarts;
    if (watching && end.loss > detail::kLossLimit) {
      const harness::StageLog::Timed t(res.time, "tuning");
      res.orth = detail::replace_cgs(cycle.basis(), end.steps, end.loss, team, comm, res.decisions);
      watching = false;
    }
    if (!opts.restart) m = detail::adapt_restart(m, end.start_residual, end.estimate, limit, cycle_no, res.decisions);
    if (detail::retry_trials(trials, res.iterations - trial_start, trial_start) &&
        res.iterations + res.trial_iterations < opts.max_iterations) {
      const std::string why = fmt::format("after {} steps, more than the {:.4g} its trial predicted to the tolerance: ",
                                          res.iterations - trial_start, trials.predicted_steps);
      try_preconditioners(false);
      res.decisions.back().reason.insert(0, why);
    }
  }
  res.restart = m;
  res.precond_detail = precond->describe();
  record_outcome(res, op, comm);
  return res;
}

}  // namespace ulibc::gmres
