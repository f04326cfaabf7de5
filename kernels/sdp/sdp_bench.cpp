// sdp/sdp_bench.cpp — `ulibc bench sdp`: ELEMENTS and the whole interior-point solve under each placement.
//
// The problem is read or generated once; each run solves it `reps` times per placement of X⁻¹ and Y on the
// harness's bound team, and every solve must be certified by the verifier with the phase the problem calls for.
#include "sdp/sdp_bench.hpp"

#include <fmt/format.h>

#include <sstream>

#include "harness/stats.hpp"
#include "sdp/random_problem.hpp"
#include "sdp/sdp.hpp"
#include "sdp/sdpa_format.hpp"
#include "sdp/verify.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sdp {

namespace {

using harness::Better;
using harness::RunContext;
using harness::RunResult;

constexpr const char* kDefaultProblem = "random:300:120,60,-60";  // dense, middling and LP blocks, all formulas
constexpr const char* kQuickProblem = "random:40:12,6,-6";
constexpr const char* kAllPlacements = "copies,interleave,first-touch";

class SdpBench final : public harness::BenchKernel {
 public:
  std::string name() const override { return "sdp"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options
        .add("--problem", problem_name_,
             std::string("An SDPA file (.dat-s, .dat) or random:M:S1,S2,... (default ") + kDefaultProblem + ")")
        .type_name("FILE|random:...");
    options.add("--elements", elements_, "auto, f1, f2 or f3 (default auto)");
    options
        .add("--placement", placements_,
             std::string("Where ELEMENTS reads X^-1 and Y, one variant each (default ") + kAllPlacements + ")")
        .type_name("P[,P...]");
    options.add("--reps", reps_, "Solves per run and placement (default 3)");
  }

  void prepare(const Topology&, int, bool quick) override {
    if (problem_name_.empty()) problem_name_ = quick ? kQuickProblem : kDefaultProblem;
    problem_ = problem_name_.starts_with("random:") ? random_problem(parse_random_spec(problem_name_))
                                                    : read_sdpa_file(problem_name_);
    options_.elements = formula_named(elements_);
    chosen_.clear();
    std::stringstream words(placements_.empty() ? kAllPlacements : placements_);
    for (std::string word; std::getline(words, word, ',');) chosen_.push_back(placement_named(word));
    if (reps_ < 1) throw input_error(fmt::format("--reps {}: at least one solve", reps_));
    if (quick) reps_ = 1;
  }

  nlohmann::ordered_json parameters() const override {
    return {{"problem", problem_name_},         {"m", problem_.m()},     {"n", problem_.order()},
            {"blocks", problem_.blocks.size()}, {"elements", elements_}, {"reps", reps_}};
  }
  std::string headline() const override { return "ELEMENTS"; }

  std::vector<RunResult> run(const RunContext& ctx) override {
    std::vector<RunResult> results;
    for (Placement placement : chosen_) results.push_back(run_placement(ctx, placement));
    return results;
  }

 private:
  RunResult run_placement(const RunContext& ctx, Placement placement) {
    Options options = options_;
    options.placement = placement;
    std::vector<double> elements, cholesky, total;
    RunResult result{.variant = placement_name(placement)};
    result.valid = true;
    for (int r = 0; r < reps_; ++r) {
      const Result s = solve(problem_, options, ctx.topo, ctx.map);
      elements.push_back(s.time.seconds("elements"));
      cholesky.push_back(s.time.seconds("cholesky"));
      total.push_back(s.time.seconds());
      const std::string wrong = verify(problem_, s, options.parameters);
      const bool ok = wrong.empty() && s.phase != Phase::noINFO;
      result.valid = result.valid && ok;
      result.check = ok ? fmt::format("{} in {} iterations, objValPrimal {:.10e}, relative gap {:.1e}; {}",
                                      phase_name(s.phase), s.iterations, s.obj_p, s.relative_gap, s.elements_plan)
                        : fmt::format("{}: {}", phase_name(s.phase), wrong.empty() ? s.reason : wrong);
    }
    result.measurements.push_back(
        harness::measurement_of("ELEMENTS", "s", Better::lower, elements, harness::Summary::median));
    result.measurements.push_back(
        harness::measurement_of("CHOLESKY", "s", Better::lower, cholesky, harness::Summary::median));
    result.measurements.push_back(
        harness::measurement_of("solve", "s", Better::lower, total, harness::Summary::median));
    return result;
  }

  std::string problem_name_, elements_ = "auto", placements_;
  int reps_ = 3;
  Problem problem_;
  Options options_;
  std::vector<Placement> chosen_;
};

}  // namespace

std::unique_ptr<harness::BenchKernel> make_bench() { return std::make_unique<SdpBench>(); }

}  // namespace ulibc::sdp
