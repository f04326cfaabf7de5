// sdp_command.cpp — `ulibc sdp`: a semidefinite program from an SDPA file, solved by the primal–dual
// interior-point method on threads placed by a policy, printed as SDPA prints it.
//
// Exit status: 0 when the problem was solved (pdOPT) or shown to have no feasible point (pUNBD, dUNBD, pINF, dINF,
// pdINF: the record says which); 3 when the iteration limit or a numerical failure stopped it first (the phase
// says what became feasible); 2 for bad input, 1 for anything else.
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "catalog.hpp"
#include "commands.hpp"
#include "io/file_io.hpp"
#include "sdp/result_file.hpp"
#include "sdp/sdp.hpp"
#include "sdp/sdpa_format.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc::cli {

namespace {

constexpr int kExitNotSolved = 3;

struct SdpOptions {
  std::string file;
  PlacementOptions placement;
  std::string elements = "auto";
  std::string placement_of_inputs = "copies";
  sdp::Parameters parameters;
  std::string out;
  std::string json;
  std::optional<harness::Option> json_opt;
};

nlohmann::ordered_json iteration_json(const sdp::Iteration& it) {
  return {{"mu", it.mu},      {"thetaP", it.theta_p}, {"thetaD", it.theta_d}, {"objP", it.obj_p},
          {"objD", it.obj_d}, {"alphaP", it.alpha_p}, {"alphaD", it.alpha_d}, {"beta", it.beta}};
}

nlohmann::ordered_json record(const SdpOptions& o, const sdp::Problem& p, const Mapping& map, const sdp::Result& r) {
  nlohmann::ordered_json history = nlohmann::ordered_json::array();
  for (const sdp::Iteration& it : r.history) history.push_back(iteration_json(it));
  const sdp::Parameters& par = o.parameters;
  return {{"problem", o.file},
          {"m", p.m()},
          {"n", p.order()},
          {"blocks", p.blocks.size()},
          {"policy", map.policy().name()},
          {"threads", map.size()},
          {"elements", o.elements},
          {"placement", o.placement_of_inputs},
          {"elements_plan", r.elements_plan},
          {"parameters",
           {{"maxIteration", par.max_iteration},
            {"epsilonStar", par.epsilon_star},
            {"epsilonDash", par.epsilon_dash},
            {"lambdaStar", par.lambda_star},
            {"betaStar", par.beta_star},
            {"betaBar", par.beta_bar},
            {"gammaStar", par.gamma_star},
            {"lowerBound", par.lower_bound},
            {"upperBound", par.upper_bound}}},
          {"status", sdp::phase_name(r.phase)},
          {"reason", r.reason},
          {"iterations", r.iterations},
          {"objValPrimal", r.obj_p},
          {"objValDual", r.obj_d},
          {"relative_gap", r.relative_gap},
          {"p_feas_error", r.p_feas_error},
          {"d_feas_error", r.d_feas_error},
          {"time", r.time.json()},
          {"history", history}};
}

void print_iteration(const sdp::Iteration& it) {
  if (it.number == 0) fmt::print("    mu      thetaP  thetaD  objP       objD       alphaP  alphaD  beta\n");
  fmt::print("{:2} {:.1e} {:.1e} {:.1e} {:+.3e} {:+.3e} {:.1e} {:.1e} {:.2e}\n", it.number, it.mu, it.theta_p,
             it.theta_d, it.obj_p, it.obj_d, it.alpha_p, it.alpha_d, it.beta);
}

void print_summary(const sdp::Result& r) {
  fmt::print("\nphase.value  = {}\n   Iteration = {}\nobjValPrimal = {:+.10e}\nobjValDual   = {:+.10e}\n",
             sdp::phase_name(r.phase), r.iterations, r.obj_p, r.obj_d);
  fmt::print("relative gap = {:.10e}\np.feas.error = {:.10e}\nd.feas.error = {:.10e}\n", r.relative_gap, r.p_feas_error,
             r.d_feas_error);
  fmt::print("stopped: {}\n", r.reason);
  // SDPA's own line, then every stage.
  const double elements = r.time.seconds("elements"), cholesky = r.time.seconds("cholesky"), total = r.time.seconds();
  fmt::print("ELEMENTS {:.3f} s, CHOLESKY {:.3f} s, other {:.3f} s, total {:.3f} s\n\n{}", elements, cholesky,
             total - elements - cholesky, total, r.time.table());
}

bool wants_json_on_stdout(const SdpOptions& o) { return o.json_opt->given() && (o.json.empty() || o.json == "-"); }

void run_sdp(SdpOptions& o) {
  const sdp::Options options{.parameters = o.parameters,
                             .elements = sdp::formula_named(o.elements),
                             .placement = sdp::placement_named(o.placement_of_inputs)};
  sdp::check(options.parameters);
  const sdp::Problem problem = sdp::read_sdpa_file(o.file);
  const Topology topo = load_topology("", false, "sdp", Detail::placement);
  const Mapping map = resolve_mapping(o.placement, topo);
  warn_if_oversubscribed(map);
  std::optional<io::OutputFile> json_file;
  if (o.json_opt->given() && !wants_json_on_stdout(o)) json_file.emplace(o.json);  // a bad path costs no solve
  const bool text = !wants_json_on_stdout(o);
  if (text)
    fmt::print("{}: m = {}, n = {}, {} blocks; {} thread{} ({}); ELEMENTS {}, X^-1 and Y {}\n", o.file, problem.m(),
               problem.order(), problem.blocks.size(), map.size(), map.size() == 1 ? "" : "s", map.policy().name(),
               o.elements, o.placement_of_inputs);
  sdp::Result r;
  {
    const ScopedOpenMPTeam team(map);
    r = sdp::solve(problem, options, topo, map, text ? print_iteration : std::function<void(const sdp::Iteration&)>{});
  }
  if (text) {
    fmt::print("ELEMENTS plan: {}\n", r.elements_plan);
    print_summary(r);
  }
  if (!o.out.empty()) sdp::write_result_file(problem, r, o.out);
  const nlohmann::ordered_json j = record(o, problem, map, r);
  if (wants_json_on_stdout(o)) print_json(j);
  if (json_file) {
    json_file->write(j.dump(2) + '\n');
    json_file->finish();
  }
  if (r.phase == sdp::Phase::noINFO || r.phase == sdp::Phase::pFEAS || r.phase == sdp::Phase::dFEAS ||
      r.phase == sdp::Phase::pdFEAS)
    throw ExitStatus{kExitNotSolved, fmt::format("sdp stopped at phase {}: {}", sdp::phase_name(r.phase), r.reason)};
}

}  // namespace

Command add_sdp_command(harness::Options& parent) {
  auto o = std::make_shared<SdpOptions>();
  harness::Options sub = parent.subcommand("sdp", std::string(summary_of("sdp")));
  sub.add("FILE", o->file, "The problem: SDPA sparse (.dat-s) or dense (.dat) format").required();
  add_placement_options(sub, o->placement);
  sub.add("--elements", o->elements,
          "The Schur complement's formula: auto (each constraint's cheapest, by cost), f1, f2 or f3")
      .show_default();
  sub.add("--placement", o->placement_of_inputs,
          "Where ELEMENTS reads X^-1 and Y: copies (one per node), interleave or first-touch")
      .show_default();
  sub.add("--max-iterations", o->parameters.max_iteration, "SDPA's maxIteration").show_default();
  sub.add("--epsilon-star", o->parameters.epsilon_star, "SDPA's epsilonStar: the relative gap to reach").show_default();
  sub.add("--epsilon-dash", o->parameters.epsilon_dash, "SDPA's epsilonDash: the feasibility errors to reach")
      .show_default();
  sub.add("--lambda-star", o->parameters.lambda_star, "SDPA's lambdaStar: the initial point lambda*I").show_default();
  sub.add("--beta-star", o->parameters.beta_star, "SDPA's betaStar: centring when feasible").show_default();
  sub.add("--beta-bar", o->parameters.beta_bar, "SDPA's betaBar: centring when infeasible").show_default();
  sub.add("--gamma-star", o->parameters.gamma_star, "SDPA's gammaStar: how far towards the boundary a step goes")
      .show_default();
  sub.add("--out", o->out, "Write x, X and Y (SDPA's result layout)").type_name("FILE");
  o->json_opt = add_json_file_option(sub, o->json);
  say_runs_here_only(sub);
  return {sub, [o] { run_sdp(*o); }};
}

}  // namespace ulibc::cli
