// gmres/team.hpp — a rank's rows shared among its OpenMP threads, and the vectors that live on those shares.
//
// The rows are split by stored entries (ulibc::weighted_share), not by count, so that every thread's share of a
// sparse product costs the same. Every loop of the solver over rows or vector entries — the products, the
// preconditioners, the vector operations, and the first touch of every array — gives thread t the same rows, so
// under a binding policy each thread works on memory its own node holds (first touch places a page on the node of
// the thread that writes it first).
#pragma once
#ifdef _OPENMP
#include <omp.h>
#endif

#include <memory>
#include <span>
#include <vector>

#include "sparse/csr_matrix.hpp"
#include "ulibc/range.hpp"

namespace ulibc::gmres {

using sparse::Column;
using sparse::Index;

class Team {
 public:
  // Below this many stored entries a thread's share costs less than the fork and join of the parallel region
  // that runs it (a few microseconds): a small matrix runs on fewer threads than the team has.
  static constexpr Index kMinEntriesPerThread = 32768;

  // `row_start`: the rank's CSR offsets (rows + 1 of them). Up to `threads` (>= 1) threads, at least
  // kMinEntriesPerThread entries each.
  Team(std::span<const Index> row_start, int threads);
  int threads() const { return static_cast<int>(shares_.size()); }
  Index rows() const { return rows_; }
  IndexRange<Index> share(int thread) const { return shares_[thread]; }

  // f(thread, share) on every thread of the team at once.
  template <class F>
  void run(F&& f) const {
#pragma omp parallel num_threads(threads())
    {
#ifdef _OPENMP
      const int t = omp_get_thread_num();
#else
      const int t = 0;
#endif
      f(t, share(t));
    }
  }

  // Σ over the rows of term(i), summed per thread (a SIMD reduction) and then in thread order: the same rows and
  // order every time, so the same inputs give the same bits.
  template <class Term>
  double sum(Term&& term) const {
    std::vector<double> partial(static_cast<std::size_t>(threads()), 0.0);
    run([&](int t, IndexRange<Index> r) {
      double s = 0;
#pragma omp simd reduction(+ : s)
      for (Index i = r.begin; i < r.end; ++i) s += term(i);
      partial[t] = s;
    });
    double s = 0;
    for (const double p : partial) s += p;
    return s;
  }

 private:
  Index rows_ = 0;
  std::vector<IndexRange<Index>> shares_;
};

// An array of `size` values, each share first written by the thread that owns it.
template <class T>
class TeamArray {
 public:
  TeamArray() = default;
  // Thread t writes the positions of its rows: [offsets[share.begin], offsets[share.end]); `offsets` null: the
  // rows themselves (one value per row).
  TeamArray(const Team& team, Index size, std::span<const Index> offsets = {}) : data_(new T[size]), size_(size) {
    team.run([&](int, IndexRange<Index> r) {
      const Index begin = offsets.empty() ? r.begin : offsets[r.begin];
      const Index end = offsets.empty() ? r.end : offsets[r.end];
      for (Index i = begin; i < end; ++i) data_[i] = T{};
    });
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  Index size() const { return size_; }
  T& operator[](Index i) { return data_[i]; }
  const T& operator[](Index i) const { return data_[i]; }
  std::span<T> span() { return {data_.get(), static_cast<std::size_t>(size_)}; }
  std::span<const T> span() const { return {data_.get(), static_cast<std::size_t>(size_)}; }

 private:
  std::unique_ptr<T[]> data_;
  Index size_ = 0;
};

using Vector = TeamArray<double>;  // one value per local row

}  // namespace ulibc::gmres
