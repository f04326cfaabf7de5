// sdp/elements.hpp — ELEMENTS: the Schur complement matrix B of the HRVW/KSH/M direction, NUMA-aware.
//
//   B_ij = F_i • (X⁻¹ F_j Y)                                    (i, j = 1..m; symmetric, positive definite)
//
// After Fujisawa, Kojima and Nakata, "Exploiting sparsity in primal-dual interior-point methods for semidefinite
// programming" (Math. Programming 79, 1997), §3: in each block, the constraints are ordered by their non-zeros
// (densest first) and constraint i computes B_ij for itself and every constraint after it, by the cheapest of
//   F1  G = X⁻¹ (F_i Y) in full (a dense product), then F_j • G for each j: the dense constraints;
//   F2  F_i Y, then each element of G that F_j touches as one short inner product: the middling ones;
//   F3  each element of G that F_j touches straight from F_i's entries: the very sparse ones;
// by their cost estimates (the paper's, with κ its cost of one indirectly addressed multiply–add). F_i Y has only
// the rows that F_i has, so F1's product and F2's inner products run over those rows alone. LP blocks are F3 on
// their diagonals.
//
// In parallel (Yasui, Fujisawa et al., the ULIBC paper's §4.3): each thread owns a contiguous range of rows i,
// sized by the rows' estimated cost (they are very uneven: the first constraints of each order compute the most),
// and writes only its rows, so no two threads write one element; a row that would cost one thread more than its
// share of the whole is computed by the whole team. The threads' rows are laid out node by node on
// their nodes, and each node reads X⁻¹ and Y from its own copy (Placement::copies), from pages spread over the
// nodes (interleave), or from where the solver first wrote them (first_touch).
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sdp/block_matrix.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/node_array.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::sdp {

enum class Formula { f1, f2, f3 };
const char* formula_name(Formula f);
// "f1", "f2", "f3", or "auto" (nullopt: each pair's cheapest); Error(input) naming the accepted words otherwise.
std::optional<Formula> formula_named(const std::string& word);

enum class Placement { copies, interleave, first_touch };
const char* placement_name(Placement p);
// "copies", "interleave" or "first-touch"; Error(input) naming the accepted words otherwise.
Placement placement_named(const std::string& word);

inline constexpr double kIndirectCost = 2.2;  // κ: an indirectly addressed multiply–add, in dense ones

namespace detail {

// An entry of a constraint's block with its mirror stored too (p, q both ways).
struct FullEntry {
  int p = 0, q = 0;
  double value = 0;
};

// Constraint k's part in one block, at its place in the block's order.
struct Member {
  int row = 0;  // k − 1: its row of B
  Formula formula = Formula::f3;
  std::vector<FullEntry> entries;  // the full pattern (an LP block: the diagonal)
  std::vector<FullEntry> upper;    // the stored entries (p ≤ q), each off-diagonal one's value doubled
  std::vector<int> rows;           // the distinct p of `entries`, ascending (dense blocks)
  std::vector<int> slot;           // for each entry, the index of its p in `rows`
  double cost = 0;                 // the estimate of the formula chosen
};

// An LP block's entries by element: for element e, (order position, row of B, value), by position.
struct LpColumnEntry {
  int position = 0, row = 0;
  double value = 0;
};

struct BlockPlan {
  int block = 0, n = 0;
  bool diagonal = false;
  std::size_t offset = 0;                              // where the block begins in a BlockMatrix's values
  std::vector<Member> members;                         // in the block's order
  std::vector<std::vector<LpColumnEntry>> lp_columns;  // LP blocks only
};

// Whether F_i Y on F_i's rows is cheaper as one dense product (its rows nearly full: gpp's all-ones constraint)
// than entry by entry.
bool gather_by_product(double n, double full, double rows);

// The costs of the three formulas for a constraint with `full` entries over `rows` rows in a dense block of order
// n, when the constraints at or after it in the block's order hold `after` entries.
std::array<double, 3> formula_costs(double n, double full, double rows, double after);

// Contiguous ranges of rows with near-equal sums of `cost`: part t is [begins[t], begins[t + 1]).
std::vector<int> balanced_ranges(std::span<const double> cost, int parts);

}  // namespace detail

class Elements {
 public:
  // Plans ELEMENTS for `problem` on the mapping's threads; `forced` uses one formula for every dense block.
  Elements(const Problem& problem, std::optional<Formula> forced, const Topology& topo, const Mapping& map,
           Placement placement);
  ~Elements();
  Elements(const Elements&) = delete;
  Elements& operator=(const Elements&) = delete;

  // b (m×m, column-major) ← the lower triangle of B for the current X⁻¹ and Y; its strict upper triangle is left
  // as it was. Runs the mapping's team (bound by the caller: ulibc::ScopedOpenMPTeam); Error(system) when OpenMP
  // gives fewer threads.
  void compute(const BlockMatrix& xinv, const BlockMatrix& y, std::span<double> b);

  // How many (constraint, dense block) pairs use each formula, and the LP blocks' entries.
  std::array<long, 3> formula_counts() const;
  // "f1 12, f2 40, f3 3000 (dense blocks); LP 174 entries; rows by cost: 0-87 | 88-173; placement copies"
  std::string describe() const;
  // The rows thread t computes (contiguous; threads in node order).
  std::pair<int, int> rows_of(int thread) const;
  double estimated_cost(int thread) const;
  // Where the data lives, for the placement checks: the raw rows (node k's part holds its threads' rows), and the
  // copies of X⁻¹ and Y (one per node index under copies, one interleaved, none under first_touch).
  const NodeArray<double>& raw_rows() const { return raw_; }
  const std::vector<NumaBuffer>& copies() const { return copies_; }

 private:
  struct Scratch;
  void plan_block(const Problem& problem, int block, std::size_t offset, std::optional<Formula> forced);
  void share_heavy_rows();
  void share_rows();
  void allocate_copies(std::size_t values);
  const double* copy_of(const BlockMatrix& m, int thread, int which);
  void compute_on_team(const BlockMatrix& xinv, const BlockMatrix& y, std::span<double> b);
  void compute_rows(int thread, const double* u, const double* v);
  void compute_dense(const detail::BlockPlan& plan, std::size_t a, const double* u, const double* v, double* row,
                     Scratch& s) const;
  void compute_dense_together(const detail::BlockPlan& plan, std::size_t a, const double* u, const double* v,
                              int thread);
  void compute_lp(const detail::BlockPlan& plan, std::size_t a, const double* u, const double* v, double* row) const;
  void assemble(int thread, std::span<double> b) const;

  int m_ = 0;
  Placement placement_;
  const Mapping& map_;
  const Topology& topo_;
  std::vector<detail::BlockPlan> plans_;
  std::vector<std::vector<std::pair<int, int>>> tasks_;  // per row: (plan, member) pairs
  std::vector<double> row_cost_;
  std::vector<int> thread_rows_;    // thread t owns rows [thread_rows_[slot t], thread_rows_[slot t + 1])
  std::vector<int> slot_;           // thread → its place in node order
  NodeArray<double> raw_;           // row-major m×m: each pair once per block, in the row of its first in order
  std::vector<NumaBuffer> copies_;  // X⁻¹ then Y: per node index (copies) or one (interleave)
  std::vector<Scratch> scratch_;    // per thread, first touched by it
  std::vector<std::pair<int, int>> together_tasks_;  // (plan, member) pairs the whole team computes
  std::unique_ptr<Scratch> together_;                // their buffers, shared
  int max_n_ = 0, max_rows_ = 0;
};

}  // namespace ulibc::sdp
