// gmres/spmv.cpp — the four row kernels and the distributed product.
#include "gmres/spmv.hpp"

#include <fmt/format.h>

#include "harness/named.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

namespace {
constexpr std::array<const char*, 4> kKernelNames = {"csr", "unroll2", "unroll4", "unroll8"};
}  // namespace

std::string kernel_name(Kernel k) { return harness::name_of(k, kKernelNames); }
Kernel parse_kernel(const std::string& name) { return harness::parse_name<Kernel>(name, kKernelNames, "SpMV kernel"); }

namespace {

// Over `count` rows, the j-th being row(j): y[i] (+)= Σ values·x of row i, in Depth independent partial sums and
// then the remainder one by one.
template <int Depth, bool Add, class Row>
void rows_product(const LocalRows& part, Index count, Row row, const double* __restrict x, double* __restrict y) {
  const Index* rs = part.row_start.data();
  const Column* col = part.columns.data();
  const double* val = part.values.data();
  for (Index j = 0; j < count; ++j) {
    const Index i = row(j);
    double sums[Depth] = {};
    Index k = rs[i];
    const Index end = rs[i + 1];
    for (; k + Depth <= end; k += Depth)
      for (int u = 0; u < Depth; ++u) sums[u] += val[k + u] * x[col[k + u]];
    double s = 0;
    for (int u = 0; u < Depth; ++u) s += sums[u];
    for (; k < end; ++k) s += val[k] * x[col[k]];
    y[i] = Add ? y[i] + s : s;
  }
}

template <bool Add, class Row>
void product(Kernel k, const LocalRows& part, Index count, Row row, const double* x, double* y) {
  switch (k) {
    case Kernel::csr:
      return rows_product<1, Add>(part, count, row, x, y);
    case Kernel::unroll2:
      return rows_product<2, Add>(part, count, row, x, y);
    case Kernel::unroll4:
      return rows_product<4, Add>(part, count, row, x, y);
    case Kernel::unroll8:
      return rows_product<8, Add>(part, count, row, x, y);
  }
}

}  // namespace

void multiply_rows(Kernel k, const LocalRows& part, IndexRange<Index> r, const double* x, double* y) {
  product<false>(
      k, part, r.size(), [first = r.begin](Index j) { return first + j; }, x, y);
}

void add_listed_rows(Kernel k, const LocalRows& part, std::span<const Index> rows, const double* x, double* y) {
  product<true>(
      k, part, static_cast<Index>(rows.size()), [rows](Index j) { return rows[j]; }, x, y);
}

// The diagonal block needs only this rank's x, so it runs between start() and finish() (during the messages, for
// the overlapping ways); the outside part then adds the ghosts' contributions to the few rows that have any.
void Operator::apply(const double* x, double* y, harness::StageLog& log) {
  const harness::StageLog::Timed timed(log, "spmv");
  const Team& team = a_.team();
  const double sending = exchange_.start(comm, x, ghosts_.data());
  team.run([&](int, IndexRange<Index> r) { multiply_rows(kernel, a_.diagonal(), r, x, y); });
  log.add("comm", sending + exchange_.finish());
  if (!a_.outside_rows().empty()) {
    team.run([&](int, IndexRange<Index> r) {
      add_listed_rows(kernel, a_.outside(), a_.outside_rows(r), ghosts_.data(), y);
    });
  }
}

}  // namespace ulibc::gmres
