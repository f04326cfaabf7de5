// gmres/tuner.hpp — the run-time choices of gmres.hpp's `auto` knobs, each measured on the matrix and the ranks at
// hand, each bounded in what it may cost.
//
// Katagiri and Kuroda's lesson (§3.3, Figs. 10–11): a trial that includes one very slow candidate can cost more than
// tuning wins, and switching orthogonalisation midway can cost iterations. So: a candidate whose first run is far
// slower than the best so far is dropped at once; the preconditioner trials stop at a step budget and at a time
// bound (trial_deadline); trials that cannot pay for themselves are not run (more_trials_pay); a stored MPI profile
// prunes the exchanges before any is run; the winning trial's iterate is kept, not thrown away; and the
// orthogonalisation changes at most once.
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "gmres/arnoldi.hpp"
#include "gmres/gmres.hpp"

namespace ulibc::gmres::detail {

inline constexpr int kTrialSteps = 10;       // Arnoldi steps per preconditioner trial (docs/GMRES.md: why 10)
inline constexpr double kDropFactor = 3;     // a candidate this many times the best so far is dropped
inline constexpr double kLossLimit = 1e-8;   // the loss of orthogonality that makes cgs give way (≈ √ε)
inline constexpr double kProfileMargin = 2;  // exchanges predicted within this factor of the best are measured
inline constexpr double kClearMargin = 0.5;  // a cheaper-per-step preconditioner must win by this much
inline constexpr double kStepsTie = 1.1;     // predicted step counts this close are the same count
inline constexpr double kStallRatio = 0.9;   // a cycle that leaves more of its residual than this stalled
inline constexpr double kTrialShare = 0.25;  // of the best predicted solve, what one trial may always spend
inline constexpr double kTuningShare = 0.1;  // of the best predicted rest of the solve, what more trials may cost

// The preconditioners in the order they are tried: the one that most often wins first (block ILU(0), PETSc's
// default too), so that when its trial predicts a solve too short to pay for the others, they are not run.
inline constexpr std::array<Precond, 4> kTrialOrder = {Precond::bilu0, Precond::poly, Precond::jacobi, Precond::none};

// Whether `trials_left` more trials, each costing about `trial_cost` seconds, may still run when the best trial so
// far predicts `to_go` seconds for the rest of its solve: only while they cost at most kTuningShare of it. A trial
// can save at most the solve it shortens; where the solve is a few milliseconds (the Harwell–Boeing matrices) the
// others' trials cost more than any of them could win.
bool more_trials_pay(double trial_cost, std::size_t trials_left, double to_go);

// How long a preconditioner trial begun at `start` may run: kDropFactor times the fastest trial so far, or
// kTrialShare of the best predicted solve if that is longer (no bound before the first trial has run). The second
// term keeps one descheduled step on a busy machine from cutting the trial of the preconditioner a long solve needs:
// a trial is cut for what it costs against the solve it could shorten, not against a cheap neighbour's clock.
double trial_deadline(double start, double fastest_trial, double best_predicted);

// Sets op.kernel and op.comm: the fixed ones as given, the others measured. Collective.
void tune_product(Operator& op, const Options& opts, std::vector<Decision>& decisions);

// A step of a trial, in seconds: its candidate's M⁻¹ and product, and the whole step.
struct StepCost {
  double apply = 0, step = 0;
};
// Each trial's step (CycleEnd's step_seconds and apply_seconds): the candidate's median M⁻¹ and product, plus the
// median of the rest (the orthogonalisation) over every trial's steps pooled; each the slowest rank's. The rest is
// the same work for every candidate (the same basis length and method), and each trial's own median step carried
// its noise: on a busy machine that moved as much as block ILU(0) and the Neumann polynomial differ, and the
// near-tied trials of convdiff2d:400 on two ranks went either way. Collective.
std::vector<StepCost> step_costs(const std::vector<const CycleEnd*>& trials, MPI_Comm comm);

// What a preconditioner's trial predicts for the solve.
struct Prediction {
  double total_steps = 0;  // taken and still to come
  double setup = 0;        // seconds to set M up
  double step = 0;         // seconds per step: the candidate's M⁻¹ and A, and the trials' common orthogonalisation
  double seconds = 0;      // to the tolerance: setup + total_steps · step
  bool converged = false;  // the trial itself reached the tolerance
};
// The index of the winner: a trial that converged; else the fewest predicted steps, where counts within kStepsTie of
// the fewest are one count to a prediction from a few steps, so that among those the one whose set-up and steps cost
// least at the fewest count wins; unless another is predicted to take under kClearMargin of the winner's seconds.
// Steps come from the numbers alone, seconds from clocks a busy machine can halve or double.
std::size_t pick_preconditioner(const std::vector<Prediction>& p);

struct TrialWinner {
  Precond choice = Precond::none;
  PrecondOptions options;  // its options (which ILU(0) blocks)
  std::unique_ptr<Preconditioner> m;
  long kept_steps = 0, lost_steps = 0;  // the winner's (its iterate is kept in x) and the others'
  double predicted_steps = 0;           // the winner's predicted steps to the tolerance, its trial's included
  bool tried_all = true;                // false when more_trials_pay stopped the trials
  bool tuned = false;                   // the trials ran (the preconditioner was not given)
};
// Runs a short trial of the preconditioners from x, in kTrialOrder, and keeps the one predicted to need the fewest
// steps to the tolerance, unless another is predicted to be clearly faster in seconds (set-up included); leaves the
// winner's iterate in x. With `may_stop`, stops trying where more_trials_pay says the rest cannot pay. Collective.
TrialWinner trial_preconditioners(Operator& op, Cycle& cycle, Vector& x, const Options& opts, int restart,
                                  double target, bool may_stop, std::vector<Decision>& decisions);

// Whether a tuned solve should run the trials again, `steps` after its last trials (which began after `before`
// steps). Once the winner has taken kRetryFactor times the steps its trial predicted, where the trials stopped
// early, the prediction that made the others look unable to pay was wrong (plat362 on one rank: block ILU(0)
// predicted 841 steps and stalled; the Neumann polynomial converges). Where they all ran, kRetryAllFactor times:
// predictions from a few steps are often 2-3 times short, but a busy machine's clock can also cut the true winner's
// trial short. Never before `before` more steps, so that trials come at most at doubling step counts.
inline constexpr double kRetryFactor = 1;
inline constexpr double kRetryAllFactor = 4;
bool retry_trials(const TrialWinner& w, long steps, long before);

// After a cycle whose newest basis vector lost `loss` of orthogonality under cgs: the cheaper per step of mgs and
// cgs2, measured on the basis as it stands (the first `steps` vectors). Collective.
Orth replace_cgs(Basis& v, int steps, double loss, const Team& team, MPI_Comm comm, std::vector<Decision>& decisions);

// The restart length after a cycle that took the residual from `before` to `after`: doubled (up to `limit`) when
// the cycle stalled, cutting it by less than a tenth (after/before > kStallRatio); kept otherwise. Only a stall
// pays for a longer basis: every step's orthogonalisation costs in proportion to m, and a hard but progressing
// problem (convdiff2d:400 with ILU(0), about 0.7 per cycle of 30) runs fastest at the m it has.
int adapt_restart(int m, double before, double after, int limit, int cycle, std::vector<Decision>& decisions);

}  // namespace ulibc::gmres::detail
