// gmres/spmv.cpp — the four row kernels and the distributed product.
#include "gmres/spmv.hpp"

#include <fmt/format.h>

#include "gmres/named.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

namespace {
constexpr std::array<const char*, 4> kKernelNames = {"csr", "unroll2", "unroll4", "unroll8"};
}  // namespace

std::string kernel_name(Kernel k) { return detail::name_of(k, kKernelNames); }
Kernel parse_kernel(const std::string& name) { return detail::parse_name<Kernel>(name, kKernelNames, "SpMV kernel"); }

namespace {

// Depth independent partial sums per row, then the remainder one by one.
template <int Depth>
void rows_product(const LocalRows& part, IndexRange<Index> r, const double* __restrict x, double* __restrict y,
                  bool accumulate) {
  const Index* rs = part.row_start.data();
  const Column* col = part.columns.data();
  const double* val = part.values.data();
  for (Index i = r.begin; i < r.end; ++i) {
    double sums[Depth] = {};
    Index k = rs[i];
    const Index end = rs[i + 1];
    for (; k + Depth <= end; k += Depth)
      for (int u = 0; u < Depth; ++u) sums[u] += val[k + u] * x[col[k + u]];
    double s = 0;
    for (int u = 0; u < Depth; ++u) s += sums[u];
    for (; k < end; ++k) s += val[k] * x[col[k]];
    y[i] = accumulate ? y[i] + s : s;
  }
}

}  // namespace

void multiply_rows(Kernel k, const LocalRows& part, IndexRange<Index> r, const double* x, double* y, bool accumulate) {
  switch (k) {
    case Kernel::csr:
      return rows_product<1>(part, r, x, y, accumulate);
    case Kernel::unroll2:
      return rows_product<2>(part, r, x, y, accumulate);
    case Kernel::unroll4:
      return rows_product<4>(part, r, x, y, accumulate);
    case Kernel::unroll8:
      return rows_product<8>(part, r, x, y, accumulate);
  }
}

// The diagonal block needs only this rank's x, so it runs between start() and finish() (during the messages, for
// the overlapping ways); the outside part adds the ghosts' contributions once they are in.
void Operator::apply(const double* x, double* y, TimeSplit& split) {
  const Team& team = a_.team();
  split.comm += exchange_.start(comm, x, ghosts_.data());
  {
    Timed t(split.spmv);
    team.run([&](int, IndexRange<Index> r) { multiply_rows(kernel, a_.diagonal(), r, x, y, false); });
  }
  split.comm += exchange_.finish();
  if (a_.outside().nonzeros() > 0) {
    Timed t(split.spmv);
    team.run([&](int, IndexRange<Index> r) { multiply_rows(kernel, a_.outside(), r, ghosts_.data(), y, true); });
  }
}

}  // namespace ulibc::gmres
