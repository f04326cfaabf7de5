// gmres/preconditioner.cpp — none, Jacobi, block ILU(0) and the Neumann polynomial.
#include "gmres/preconditioner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "harness/named.hpp"
#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

namespace {
constexpr std::array<const char*, 4> kPrecondNames = {"none", "jacobi", "bilu0", "poly"};
constexpr std::array<const char*, 2> kIluBlockNames = {"rank", "thread"};
}  // namespace

std::string precond_name(Precond p) { return harness::name_of(p, kPrecondNames); }
Precond parse_precond(const std::string& name) {
  return harness::parse_name<Precond>(name, kPrecondNames, "preconditioner");
}
std::string ilu_blocks_name(IluBlocks b) { return harness::name_of(b, kIluBlockNames); }
IluBlocks parse_ilu_blocks(const std::string& name) {
  return harness::parse_name<IluBlocks>(name, kIluBlockNames, "ILU(0) blocks");
}

namespace {

// a_ii of the rank's local row i (0 where the row stores none).
double diagonal_entry(const LocalRows& d, Index i) {
  for (Index k = d.row_start[i]; k < d.row_start[i + 1]; ++k)
    if (d.columns[k] == i) return d.values[k];
  return 0;
}

// The diagonal of this rank's rows, inverted. Error(input) naming the global row of a zero or missing one.
Vector inverse_diagonal(const DistributedMatrix& a, const char* who) {
  Vector inv(a.team(), a.rows());
  for (Index i = 0; i < a.rows(); ++i) {
    const double diag = diagonal_entry(a.diagonal(), i);
    if (diag == 0 || !std::isfinite(diag))
      throw input_error(
          fmt::format("{}: row {} has a zero diagonal entry, which it cannot divide by", who, a.own().begin + i + 1));
    inv[i] = 1 / diag;
  }
  return inv;
}

class Identity final : public Preconditioner {
 public:
  explicit Identity(const Team& team) : team_(team) {}
  void apply(const Vector& v, Vector& z) override {
    team_.run([&](int, IndexRange<Index> r) {
      for (Index i = r.begin; i < r.end; ++i) z[i] = v[i];
    });
  }
  std::string describe() const override { return "none"; }

 private:
  const Team& team_;
};

class Jacobi final : public Preconditioner {
 public:
  explicit Jacobi(const DistributedMatrix& a) : team_(a.team()), inv_(inverse_diagonal(a, "jacobi")) {}
  void apply(const Vector& v, Vector& z) override {
    team_.run([&](int, IndexRange<Index> r) {
      for (Index i = r.begin; i < r.end; ++i) z[i] = inv_[i] * v[i];
    });
  }
  std::string describe() const override { return "jacobi"; }

 private:
  const Team& team_;
  Vector inv_;
};

// ILU(0) of each block [b.begin, b.end) of the diagonal part: L unit lower and U upper in the pattern of A's
// entries inside the block (IKJ order, Saad §10.3.2), stored over a copy of those entries.
class BlockIlu0 final : public Preconditioner {
 public:
  BlockIlu0(const DistributedMatrix& a, IluBlocks blocks) : a_(a), team_(a.team()), kind_(blocks) {
    if (kind_ == IluBlocks::rank)
      blocks_.push_back({0, a.rows()});
    else
      for (int t = 0; t < team_.threads(); ++t) blocks_.push_back(team_.share(t));
    copy_block_entries();
    factor_all();
  }

  void apply(const Vector& v, Vector& z) override {
    team_.run([&](int t, IndexRange<Index>) {
      if (static_cast<std::size_t>(t) < blocks_.size()) solve(blocks_[t], v, z);
    });
  }

  std::string describe() const override {
    return fmt::format("bilu0 (per {}, {} block{})", ilu_blocks_name(kind_), blocks_.size(),
                       blocks_.size() == 1 ? "" : "s");
  }

 private:
  IndexRange<Index> block_of(Index row) const {
    for (const auto& b : blocks_)
      if (row >= b.begin && row < b.end) return b;
    return blocks_.back();
  }

  void copy_block_entries() {
    const LocalRows& d = a_.diagonal();
    row_start_.assign(1, 0);
    for (Index i = 0; i < a_.rows(); ++i) {
      const auto b = block_of(i);
      diag_.push_back(-1);
      for (Index k = d.row_start[i]; k < d.row_start[i + 1]; ++k) {
        const Column c = d.columns[k];
        if (c < b.begin || c >= b.end) continue;
        if (c == i) diag_.back() = static_cast<Index>(columns_.size());
        columns_.push_back(c);
        values_.push_back(d.values[k]);
      }
      row_start_.push_back(static_cast<Index>(columns_.size()));
    }
  }

  // Each block on its own thread; a zero pivot is reported by the first block (in order) that met one.
  void factor_all() {
    std::vector<std::string> failures(blocks_.size());
    team_.run([&](int t, IndexRange<Index>) {
      if (static_cast<std::size_t>(t) < blocks_.size()) failures[t] = factor(blocks_[t]);
    });
    for (const std::string& f : failures)
      if (!f.empty()) throw input_error(f);
    for (const Index d : diag_) inverse_pivot_.push_back(1 / values_[d]);  // the solves multiply
  }

  std::string factor(IndexRange<Index> b) {
    std::vector<Index> position(static_cast<std::size_t>(b.size()), -1);  // column → its entry in row i
    for (Index i = b.begin; i < b.end; ++i) {
      for (Index k = row_start_[i]; k < row_start_[i + 1]; ++k) position[columns_[k] - b.begin] = k;
      for (Index k = row_start_[i]; k < row_start_[i + 1] && columns_[k] < i; ++k) {
        const Index p = columns_[k];
        values_[k] /= values_[diag_[p]];
        for (Index q = diag_[p] + 1; q < row_start_[p + 1]; ++q) {
          const Index at = position[columns_[q] - b.begin];
          if (at >= 0) values_[at] -= values_[k] * values_[q];
        }
      }
      for (Index k = row_start_[i]; k < row_start_[i + 1]; ++k) position[columns_[k] - b.begin] = -1;
      if (diag_[i] < 0 || values_[diag_[i]] == 0 || !std::isfinite(values_[diag_[i]]))
        return fmt::format(
            "block ILU(0): zero pivot in row {}{}: the factorisation without fill breaks down there; choose "
            "another preconditioner (--precond jacobi, poly or none)",
            a_.own().begin + i + 1, diag_[i] < 0 ? " (no diagonal entry)" : "");
    }
    return "";
  }

  // Each row needs its neighbour's result just before it (column i ∓ 1, where the stencil has one): that chain
  // is the solve's critical path, so the neighbour's value is carried in a register rather than read back from z
  // (a store and a reload on every row).
  void solve(IndexRange<Index> b, const Vector& v, Vector& z) const {
    double previous = 0;
    for (Index i = b.begin; i < b.end; ++i) {  // L y = v, L unit lower
      const Index end = diag_[i];
      const bool chained = end > row_start_[i] && columns_[end - 1] == i - 1;
      double s = v[i];
      for (Index k = row_start_[i]; k < end - chained; ++k) s -= values_[k] * z[columns_[k]];
      if (chained) s -= values_[end - 1] * previous;
      z[i] = previous = s;
    }
    for (Index i = b.end - 1; i >= b.begin; --i) {  // U z = y
      const Index first = diag_[i] + 1;
      const bool chained = first < row_start_[i + 1] && columns_[first] == i + 1;
      double s = z[i];
      for (Index k = first + chained; k < row_start_[i + 1]; ++k) s -= values_[k] * z[columns_[k]];
      if (chained) s -= values_[first] * previous;
      z[i] = previous = s * inverse_pivot_[i];
    }
  }

  const DistributedMatrix& a_;
  const Team& team_;
  IluBlocks kind_;
  std::vector<IndexRange<Index>> blocks_;
  std::vector<Index> row_start_, diag_;
  std::vector<Column> columns_;
  std::vector<double> values_, inverse_pivot_;
};

class Neumann final : public Preconditioner {
 public:
  Neumann(Operator& op, int degree)
      : op_(op),
        team_(op.matrix().team()),
        degree_(degree),
        inv_(inverse_diagonal(op.matrix(), "poly")),
        product_(team_, team_.rows()) {}

  // z_0 = D⁻¹v; z_{j+1} = z_j + D⁻¹(v − A z_j): after d steps, Σ_{j≤d} (I − D⁻¹A)^j D⁻¹ v.
  void apply(const Vector& v, Vector& z) override {
    team_.run([&](int, IndexRange<Index> r) {
      for (Index i = r.begin; i < r.end; ++i) z[i] = inv_[i] * v[i];
    });
    for (int j = 0; j < degree_; ++j) {
      op_.apply(z.data(), product_.data(), products_);
      team_.run([&](int, IndexRange<Index> r) {
        for (Index i = r.begin; i < r.end; ++i) z[i] += inv_[i] * (v[i] - product_[i]);
      });
    }
  }
  std::string describe() const override { return fmt::format("poly (Neumann, degree {})", degree_); }

 private:
  Operator& op_;
  const Team& team_;
  int degree_;
  Vector inv_, product_;
  // The products' own log, made once rather than at every application (it allocates its stages): the caller counts
  // all of apply() as preconditioner time.
  harness::StageLog products_;
};

}  // namespace

bool diagonal_is_scalar(const DistributedMatrix& a) {
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  for (Index i = 0; i < a.rows(); ++i) {
    const double diag = diagonal_entry(a.diagonal(), i);
    lowest = std::min(lowest, diag);
    highest = std::max(highest, diag);
  }
  highest = mpi::max(highest, a.comm());
  return highest != 0 && highest == -mpi::max(-lowest, a.comm());
}

std::unique_ptr<Preconditioner> make_preconditioner(Precond which, Operator& op, const PrecondOptions& opts) {
  std::unique_ptr<Preconditioner> m;
  mpi::together(op.matrix().comm(), [&] {
    switch (which) {
      case Precond::none:
        m = std::make_unique<Identity>(op.matrix().team());
        break;
      case Precond::jacobi:
        m = std::make_unique<Jacobi>(op.matrix());
        break;
      case Precond::bilu0:
        m = std::make_unique<BlockIlu0>(op.matrix(), opts.ilu_blocks);
        break;
      case Precond::poly:
        m = std::make_unique<Neumann>(op, opts.poly_degree);
        break;
    }
  });
  return m;
}

}  // namespace ulibc::gmres
