// gmres/spmv.hpp — the sparse product y = A·x of a distributed matrix, by one of four kernels and five exchanges.
//
// The kernels differ only in how a row's sum runs: `csr` one running sum; `unroll2|4|8` that many independent
// partial sums, so that the additions of a long row overlap in the pipeline instead of waiting on each other. Rows
// shorter than the depth gain nothing (Katagiri and Kuroda §2.3: the best depth depends on the row lengths, known
// only at run time), so the tuner measures them on the matrix at hand.
#pragma once
#include <array>
#include <span>
#include <string>

#include "gmres/exchange.hpp"
#include "harness/stage_log.hpp"

namespace ulibc::gmres {

enum class Kernel { csr, unroll2, unroll4, unroll8 };
inline constexpr std::array<Kernel, 4> kKernels = {Kernel::csr, Kernel::unroll2, Kernel::unroll4, Kernel::unroll8};
std::string kernel_name(Kernel k);
Kernel parse_kernel(const std::string& name);  // Error(input) naming the accepted words

// y[i] = Σ_k values[k]·x[columns[k]] over rows [r.begin, r.end) of `part`.
void multiply_rows(Kernel k, const LocalRows& part, IndexRange<Index> r, const double* x, double* y);
// y[i] += the same sum, for the listed rows i of `part` only.
void add_listed_rows(Kernel k, const LocalRows& part, std::span<const Index> rows, const double* x, double* y);

// The matrix as an operator: y = A·x on this rank's rows, with the exchange it needs.
class Operator {
 public:
  explicit Operator(const DistributedMatrix& a) : a_(a), exchange_(a), ghosts_(a.ghosts().size()) {}
  const DistributedMatrix& matrix() const { return a_; }
  Exchange& exchange() { return exchange_; }

  Kernel kernel = Kernel::csr;
  Comm comm = Comm::p2p;

  // Collective. Its time is a run of the stage "spmv" of `log`, with MPI's part of the exchange as "comm" inside.
  void apply(const double* x, double* y, harness::StageLog& log);

 private:
  const DistributedMatrix& a_;
  Exchange exchange_;
  std::vector<double> ghosts_;
};

}  // namespace ulibc::gmres
