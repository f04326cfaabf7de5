// sdp/elements.cpp — ELEMENTS: the plan (order, formula, rows per thread) and the parallel computation of B.
#include "sdp/elements.hpp"

#include <cblas.h>
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "sdp/dense.hpp"
#include "ulibc/error.hpp"
#include "ulibc/range.hpp"

namespace ulibc::sdp {

const char* formula_name(Formula f) {
  switch (f) {
    case Formula::f1:
      return "f1";
    case Formula::f2:
      return "f2";
    case Formula::f3:
      return "f3";
  }
  return "?";
}

const char* placement_name(Placement p) {
  switch (p) {
    case Placement::copies:
      return "copies";
    case Placement::interleave:
      return "interleave";
    case Placement::first_touch:
      return "first-touch";
  }
  return "?";
}

std::optional<Formula> formula_named(const std::string& word) {
  if (word == "auto") return std::nullopt;
  for (Formula f : {Formula::f1, Formula::f2, Formula::f3})
    if (word == formula_name(f)) return f;
  throw input_error(fmt::format("--elements {}: expected auto, f1, f2 or f3", word));
}

Placement placement_named(const std::string& word) {
  for (Placement p : {Placement::copies, Placement::interleave, Placement::first_touch})
    if (word == placement_name(p)) return p;
  throw input_error(fmt::format("--placement {}: expected copies, interleave or first-touch", word));
}

namespace detail {

bool gather_by_product(double n, double full, double rows) { return kIndirectCost * full * n > n * n * rows + full; }

std::array<double, 3> formula_costs(double n, double full, double rows, double after) {
  const double k = kIndirectCost;
  // F_i Y on F_i's rows (entry by entry, or as one product once F_i's rows are nearly full), and X⁻¹'s columns of
  // those rows.
  const double gather = std::min(k * full * n, n * n * rows + full) + rows * n;
  return {gather + n * n * rows + k * after,  // F1: the dense product, then one read per entry of each F_j
          gather + (rows + k) * after,        // F2: one inner product over the rows per entry of each F_j
          k * full * after};                  // F3: all of F_i's entries per entry of each F_j
}

std::vector<int> balanced_ranges(std::span<const double> cost, int parts) {
  const double total = std::accumulate(cost.begin(), cost.end(), 0.0);
  std::vector<int> begins{0};
  double sum = 0;
  for (std::size_t r = 0; r < cost.size() && static_cast<int>(begins.size()) < parts; ++r) {
    sum += cost[r];
    // Cut after row r once the part reaches its share, or where the next row would overshoot it by more.
    const double target = total * static_cast<double>(begins.size()) / parts;
    if (sum >= target) begins.push_back(static_cast<int>(r) + 1);
  }
  while (static_cast<int>(begins.size()) <= parts) begins.push_back(static_cast<int>(cost.size()));
  return begins;
}

}  // namespace detail

using detail::BlockPlan;
using detail::FullEntry;
using detail::Member;

// Per thread: F_i Y on F_i's rows (zc), X⁻¹'s columns of those rows (ur), F1's dense product (g), F_i's rows
// written out when they are nearly full (fr).
struct Elements::Scratch {
  std::vector<double> zc, ur, g, fr;
};

namespace {

std::vector<FullEntry> full_pattern(const SparseBlock& sb) {
  std::vector<FullEntry> full;
  for (const Entry& e : sb.entries) {
    full.push_back({e.i, e.j, e.value});
    if (e.i != e.j) full.push_back({e.j, e.i, e.value});
  }
  return full;
}

// The stored (upper) entries with each off-diagonal value doubled: F • G = Σ_{p≤q} value·(G_pq + G_qp)/(1 + [p=q]),
// so against G + Gᵀ's upper triangle each entry is read once.
std::vector<FullEntry> doubled(const SparseBlock& sb) {
  std::vector<FullEntry> upper;
  for (const Entry& e : sb.entries) upper.push_back({e.i, e.j, e.i == e.j ? e.value : 2 * e.value});
  return upper;
}

// The distinct rows of a member's entries, and each entry's index among them.
void index_rows(Member& mb) {
  for (const FullEntry& e : mb.entries) mb.rows.push_back(e.p);
  std::sort(mb.rows.begin(), mb.rows.end());
  mb.rows.erase(std::unique(mb.rows.begin(), mb.rows.end()), mb.rows.end());
  for (const FullEntry& e : mb.entries)
    mb.slot.push_back(static_cast<int>(std::lower_bound(mb.rows.begin(), mb.rows.end(), e.p) - mb.rows.begin()));
}

}  // namespace

Elements::Elements(const Problem& problem, std::optional<Formula> forced, const Topology& topo, const Mapping& map,
                   Placement placement)
    : m_(problem.m()), placement_(placement), map_(map), topo_(topo), tasks_(problem.m()), row_cost_(problem.m()) {
  const std::vector<std::size_t> offsets = BlockMatrix::offsets(problem.blocks);
  for (int b = 0; b < static_cast<int>(problem.blocks.size()); ++b) plan_block(problem, b, offsets[b], forced);
  for (std::size_t pl = 0; pl < plans_.size(); ++pl)
    for (std::size_t a = 0; a < plans_[pl].members.size(); ++a) {
      const Member& mb = plans_[pl].members[a];
      tasks_[mb.row].emplace_back(static_cast<int>(pl), static_cast<int>(a));
      row_cost_[mb.row] += mb.cost;
    }
  share_heavy_rows();
  share_rows();
  allocate_copies(offsets.back());
  scratch_.resize(static_cast<std::size_t>(map.size()));
}

Elements::~Elements() = default;

void Elements::plan_block(const Problem& problem, int block, std::size_t offset, std::optional<Formula> forced) {
  BlockPlan plan{
      .block = block, .n = problem.blocks[block].size, .diagonal = problem.blocks[block].diagonal, .offset = offset};
  for (int k = 1; k <= m_; ++k)
    for (const SparseBlock& sb : problem.f[k].blocks)
      if (sb.block == block) plan.members.push_back({.row = k - 1, .entries = full_pattern(sb), .upper = doubled(sb)});
  if (plan.members.empty()) return;
  // Densest first (Fujisawa–Kojima–Nakata's order): the costly rows compute the most pairs with the cheap formulas.
  std::stable_sort(plan.members.begin(), plan.members.end(),
                   [](const Member& a, const Member& b) { return a.entries.size() > b.entries.size(); });
  double after = 0;
  for (auto it = plan.members.rbegin(); it != plan.members.rend(); ++it) {
    after += static_cast<double>(it->entries.size());
    if (plan.diagonal) {
      it->cost = kIndirectCost * static_cast<double>(it->entries.size()) * after / plan.n;  // LP: F3 on the diagonal
      continue;
    }
    index_rows(*it);
    const auto costs = detail::formula_costs(plan.n, static_cast<double>(it->entries.size()),
                                             static_cast<double>(it->rows.size()), after);
    const auto cheapest = static_cast<Formula>(std::min_element(costs.begin(), costs.end()) - costs.begin());
    it->formula = forced.value_or(cheapest);
    it->cost = costs[static_cast<std::size_t>(it->formula)];
    max_rows_ = std::max(max_rows_, static_cast<int>(it->rows.size()));
  }
  if (plan.diagonal) {
    plan.lp_columns.resize(static_cast<std::size_t>(plan.n));
    for (std::size_t a = 0; a < plan.members.size(); ++a)
      for (const FullEntry& e : plan.members[a].entries)
        plan.lp_columns[e.p].push_back({static_cast<int>(a), plan.members[a].row, e.value});
  } else {
    max_n_ = std::max(max_n_, plan.n);
  }
  plans_.push_back(std::move(plan));
}

// F1 pairs that would cost a thread more than its share of the whole go to the team (compute_dense_together).
void Elements::share_heavy_rows() {
  const int threads = map_.size();
  const double share = std::accumulate(row_cost_.begin(), row_cost_.end(), 0.0) / threads;
  std::size_t rows = 0, order = 0;
  for (int i = 0; i < m_ && threads > 1; ++i)
    std::erase_if(tasks_[i], [&](const std::pair<int, int>& task) {
      const BlockPlan& plan = plans_[task.first];
      const Member& mb = plan.members[task.second];
      if (plan.diagonal || mb.formula != Formula::f1 || mb.cost <= share) return false;
      together_tasks_.push_back(task);
      row_cost_[i] -= mb.cost;
      rows = std::max(rows, mb.rows.size() * plan.n);
      order = std::max(order, static_cast<std::size_t>(plan.n) * plan.n);
      return true;
    });
  together_ = std::make_unique<Scratch>();
  together_->zc.resize(rows);
  together_->ur.resize(rows);
  together_->fr.resize(rows);
  together_->g.resize(order);
}

// Threads in node order (node index, then thread), each given a contiguous range of rows of near-equal cost, and
// the raw rows laid out so that each node's rows lie on that node.
void Elements::share_rows() {
  const int threads = map_.size();
  std::vector<int> order(static_cast<std::size_t>(threads));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return map_[a].node_index < map_[b].node_index; });
  slot_.assign(static_cast<std::size_t>(threads), 0);
  for (int s = 0; s < threads; ++s) slot_[order[s]] = s;
  thread_rows_ = detail::balanced_ranges(row_cost_, threads);
  std::vector<std::size_t> node_begins(static_cast<std::size_t>(map_.nodes_used()), 0);
  for (int s = threads - 1; s >= 0; --s)
    node_begins[map_[order[s]].node_index] = static_cast<std::size_t>(thread_rows_[s]) * m_;
  raw_ = NodeArray<double>(topo_, map_, static_cast<std::size_t>(m_) * m_, node_begins);
}

void Elements::allocate_copies(std::size_t values) {
  const std::size_t bytes = 2 * std::max<std::size_t>(values, 1) * sizeof(double);
  if (placement_ == Placement::interleave) copies_.push_back(allocate_interleaved(topo_, bytes, {}));
  if (placement_ != Placement::copies) return;
  for (int node : map_.node_ids()) copies_.push_back(allocate_parts(topo_, {{bytes, node}}));
}

// X⁻¹ (which 0) or Y (which 1) as thread `thread` reads it. Under copies, the first thread of each node writes its
// node's copy (the caller's barrier follows); under interleave, thread 0 writes the one copy.
const double* Elements::copy_of(const BlockMatrix& m, int thread, int which) {
  if (placement_ == Placement::first_touch) return m.values().data();
  const std::size_t values = m.values().size();
  const int copy = placement_ == Placement::copies ? map_[thread].node_index : 0;
  double* at = static_cast<double*>(copies_[copy].data()) + which * values;
  const bool writer = placement_ == Placement::copies ? map_[thread].ordcore == 0 : thread == 0;
  if (writer) std::memcpy(at, m.values().data(), values * sizeof(double));
  return at;
}

void Elements::compute(const BlockMatrix& xinv, const BlockMatrix& y, std::span<double> b) {
  int team = map_.size();
#pragma omp parallel num_threads(map_.size())
  {
    // Each thread's rows are planned: a smaller team (OMP_THREAD_LIMIT, nesting) would leave rows of B unwritten.
    if (omp_get_num_threads() != map_.size()) {
#pragma omp single
      team = omp_get_num_threads();
    } else {
      compute_on_team(xinv, y, b);
    }
  }
  if (team != map_.size())
    throw system_error(fmt::format("ELEMENTS: OpenMP gave {} threads of the {} the mapping has", team, map_.size()));
}

// One thread's part of compute(), inside the team: its node's copies, its rows zeroed, the rows the team shares,
// its own rows, then (after every row exists) its columns of b.
void Elements::compute_on_team(const BlockMatrix& xinv, const BlockMatrix& y, std::span<double> b) {
  const int t = omp_get_thread_num();
  const double* u = copy_of(xinv, t, 0);
  const double* v = copy_of(y, t, 1);
  const auto [begin, end] = rows_of(t);
  std::fill(raw_.data() + static_cast<std::size_t>(begin) * m_, raw_.data() + static_cast<std::size_t>(end) * m_, 0.0);
#pragma omp barrier
  for (const auto& [pl, a] : together_tasks_)
    compute_dense_together(plans_[pl], a, u + plans_[pl].offset, v + plans_[pl].offset, t);
  compute_rows(t, u, v);
#pragma omp barrier
  assemble(t, b);
}

void Elements::compute_rows(int thread, const double* u, const double* v) {
  Scratch& s = scratch_[thread];
  const std::size_t m = static_cast<std::size_t>(m_);
  const auto [begin, end] = rows_of(thread);
  for (int i = begin; i < end; ++i) {
    double* row = raw_.data() + i * m;
    for (const auto& [pl, a] : tasks_[i]) {
      const BlockPlan& plan = plans_[pl];
      if (plan.diagonal)
        compute_lp(plan, a, u + plan.offset, v + plan.offset, row);
      else
        compute_dense(plan, a, u + plan.offset, v + plan.offset, row, s);
    }
  }
}

namespace {

// Columns [begin, end) of F_i Y on F_i's rows: zc[ρ n + q] = Σ_s F_{rows[ρ] s} V_sq, and of X⁻¹'s columns of those
// rows: ur[ρ n + p] = U_{p, rows[ρ]}. Dense rows as one product (fr: F_i's rows as an n×ρ column-major matrix).
void gather(const BlockPlan& plan, const Member& mi, const double* u, const double* v, Range cols, double* zc,
            double* ur, double* fr) {
  const std::size_t n = static_cast<std::size_t>(plan.n), rho = mi.rows.size();
  const auto inside = [&](std::size_t e) {
    return mi.slot[e] >= static_cast<int>(cols.begin) && mi.slot[e] < static_cast<int>(cols.end);
  };
  std::fill(zc + cols.begin * n, zc + cols.end * n, 0.0);
  if (detail::gather_by_product(plan.n, static_cast<double>(mi.entries.size()), static_cast<double>(rho))) {
    std::fill(fr + cols.begin * n, fr + cols.end * n, 0.0);
    for (std::size_t e = 0; e < mi.entries.size(); ++e)
      if (inside(e)) fr[mi.slot[e] * n + mi.entries[e].q] = mi.entries[e].value;
    if (!cols.empty())  // zc = V fr (V symmetric)
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, plan.n, static_cast<int>(cols.size()), plan.n, 1.0, v,
                  plan.n, fr + cols.begin * n, plan.n, 0.0, zc + cols.begin * n, plan.n);
  } else {
    for (std::size_t e = 0; e < mi.entries.size(); ++e)
      if (inside(e)) cblas_daxpy(plan.n, mi.entries[e].value, v + mi.entries[e].q * n, 1, zc + mi.slot[e] * n, 1);
  }
  for (std::size_t r = cols.begin; r < cols.end; ++r) std::memcpy(ur + r * n, u + mi.rows[r] * n, n * sizeof(double));
}

// Columns [begin, end) of G = Ur Zcᵀ (both n×ρ column-major): F1's dense product.
void product(const BlockPlan& plan, std::size_t rho, const double* zc, const double* ur, Range cols, double* g) {
  if (cols.empty()) return;
  const std::size_t n = static_cast<std::size_t>(plan.n);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, plan.n, static_cast<int>(cols.size()), static_cast<int>(rho),
              1.0, ur, plan.n, zc + cols.begin, plan.n, 0.0, g + cols.begin * n, plan.n);
}

// Columns [begin, end) of G's upper triangle ← (G + Gᵀ)/2 there: then F_j • G is one read per stored entry of F_j
// (f1_sums), half the reads of its full pattern. Reads only the strict lower triangle of other columns.
void symmetrize_upper(const BlockPlan& plan, Range cols, double* g) {
  const std::size_t n = static_cast<std::size_t>(plan.n);
  for (std::size_t q = cols.begin; q < cols.end; ++q)
    for (std::size_t p = 0; p < q; ++p) g[p + q * n] = (g[p + q * n] + g[q + p * n]) / 2;
}

// B_ij += F_j • G for the members a2 in `members`, G's upper triangle symmetrized.
void f1_sums(const BlockPlan& plan, const double* g, Range members, double* row) {
  const std::size_t n = static_cast<std::size_t>(plan.n);
  for (std::size_t a2 = members.begin; a2 < members.end; ++a2) {
    double sum = 0;
    for (const FullEntry& ej : plan.members[a2].upper) sum += ej.value * g[ej.p + ej.q * n];
    row[plan.members[a2].row] += sum;
  }
}

}  // namespace

// Row i's pairs in one dense block: B_ij += F_j • G for j at or after i in the block's order, G = X⁻¹ F_i Y.
void Elements::compute_dense(const BlockPlan& plan, std::size_t a, const double* u, const double* v, double* row,
                             Scratch& s) const {
  const Member& mi = plan.members[a];
  const std::size_t n = static_cast<std::size_t>(plan.n);
  const Range after{a, plan.members.size()};
  if (mi.formula == Formula::f3) {
    for (std::size_t a2 = a; a2 < plan.members.size(); ++a2) {
      const Member& mj = plan.members[a2];
      double sum = 0;
      for (const FullEntry& ej : mj.entries) {
        double g = 0;  // G_pq = Σ U_pr F_rs V_sq over F_i's entries
        for (const FullEntry& ei : mi.entries) g += ei.value * u[ej.p + ei.p * n] * v[ei.q + ej.q * n];
        sum += ej.value * g;
      }
      row[mj.row] += sum;
    }
    return;
  }
  const std::size_t rho = mi.rows.size();
  s.zc.resize(rho * n);
  s.ur.resize(rho * n);
  s.fr.resize(rho * n);
  gather(plan, mi, u, v, Range{0, rho}, s.zc.data(), s.ur.data(), s.fr.data());
  if (mi.formula == Formula::f1) {
    s.g.resize(n * n);
    product(plan, rho, s.zc.data(), s.ur.data(), Range{0, n}, s.g.data());
    symmetrize_upper(plan, Range{0, n}, s.g.data());
    f1_sums(plan, s.g.data(), after, row);
    return;
  }
  for (std::size_t a2 = a; a2 < plan.members.size(); ++a2) {  // F2
    double sum = 0;
    for (const FullEntry& ej : plan.members[a2].entries) {
      double g = 0;
      for (std::size_t r = 0; r < rho; ++r) g += s.ur[r * n + ej.p] * s.zc[r * n + ej.q];
      sum += ej.value * g;
    }
    row[plan.members[a2].row] += sum;
  }
}

// A row too costly for one thread's share (gpp's all-ones constraint: F1 on the whole block), computed by the
// whole team: F_i Y's columns, G's columns, G symmetrized by columns, then the sums by member, with barriers between.
void Elements::compute_dense_together(const BlockPlan& plan, std::size_t a, const double* u, const double* v,
                                      int thread) {
  const Member& mi = plan.members[a];
  const std::size_t n = static_cast<std::size_t>(plan.n), rho = mi.rows.size();
  const auto share = [&](Range r) {
    return even_share(r, static_cast<std::size_t>(thread), static_cast<std::size_t>(map_.size()));
  };
  gather(plan, mi, u, v, share(Range{0, rho}), together_->zc.data(), together_->ur.data(), together_->fr.data());
#pragma omp barrier
  product(plan, rho, together_->zc.data(), together_->ur.data(), share(Range{0, n}), together_->g.data());
#pragma omp barrier
  symmetrize_upper(plan, share(Range{0, n}), together_->g.data());
#pragma omp barrier
  f1_sums(plan, together_->g.data(), share(Range{a, plan.members.size()}),
          raw_.data() + static_cast<std::size_t>(mi.row) * m_);
#pragma omp barrier
}

// Row i's pairs in an LP block: B_ij += Σ_e F_i,e F_j,e Y_e / X_e over the elements both touch.
void Elements::compute_lp(const BlockPlan& plan, std::size_t a, const double* u, const double* v, double* row) const {
  for (const FullEntry& e : plan.members[a].entries) {
    const double w = e.value * u[e.p] * v[e.p];
    const auto& column = plan.lp_columns[e.p];
    auto it = std::lower_bound(column.begin(), column.end(), static_cast<int>(a),
                               [](const detail::LpColumnEntry& c, int pos) { return c.position < pos; });
    for (; it != column.end(); ++it) row[it->row] += w * it->value;
  }
}

// b's lower triangle, column c for each of the thread's rows c: each pair was written once per block, in the row
// of whichever of the two came first in that block's order.
void Elements::assemble(int thread, std::span<double> b) const {
  const std::size_t m = static_cast<std::size_t>(m_);
  const double* raw = raw_.data();
  const auto [begin, end] = rows_of(thread);
  for (int c = begin; c < end; ++c) {
    const std::size_t cc = static_cast<std::size_t>(c);
    b[cc + cc * m] = raw[cc * m + cc];
    for (std::size_t r = cc + 1; r < m; ++r) b[r + cc * m] = raw[cc * m + r] + raw[r * m + cc];
  }
}

std::array<long, 3> Elements::formula_counts() const {
  std::array<long, 3> counts{};
  for (const BlockPlan& plan : plans_)
    if (!plan.diagonal)
      for (const Member& mb : plan.members) ++counts[static_cast<std::size_t>(mb.formula)];
  return counts;
}

std::pair<int, int> Elements::rows_of(int thread) const {
  return {thread_rows_[slot_[thread]], thread_rows_[slot_[thread] + 1]};
}

double Elements::estimated_cost(int thread) const {
  const auto [begin, end] = rows_of(thread);
  return std::accumulate(row_cost_.begin() + begin, row_cost_.begin() + end, 0.0);
}

std::string Elements::describe() const {
  const auto counts = formula_counts();
  long lp = 0;
  for (const BlockPlan& plan : plans_)
    if (plan.diagonal)
      for (const Member& mb : plan.members) lp += static_cast<long>(mb.entries.size());
  std::string rows;
  for (int t = 0; t < map_.size(); ++t) {
    const auto [begin, end] = rows_of(t);
    rows += fmt::format("{}{}-{}", t ? " | " : "", begin, end - 1);
  }
  return fmt::format(
      "f1 {}, f2 {}, f3 {} (constraint, dense block) pairs; LP {} entries; rows by thread {}; X^-1 and "
      "Y: {}",
      counts[0], counts[1], counts[2], lp, rows, placement_name(placement_));
}

}  // namespace ulibc::sdp
