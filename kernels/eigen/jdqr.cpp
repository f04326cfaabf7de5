// eigen/jdqr.cpp — JDQR (Fokkema, Sleijpen and van der Vorst 1998, Algorithm 2.1), with harmonic extraction
// (their §2.5) and deflation by locking Schur vectors.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "blas/blas_threads.hpp"
#include "eigen/eigen.hpp"
#include "eigen/projected.hpp"
#include "eigen/space.hpp"
#include "gmres/krylov.hpp"
#include "harness/stage_log.hpp"
#include "random/random_stream.hpp"
#include "ulibc/error.hpp"
#include "ulibc/partition.hpp"

namespace ulibc::eigen {

namespace {

using namespace detail;
using Timed = harness::StageLog::Timed;

// The GMRES cycle's vector loops (kernels/gmres/krylov.cpp) run on OpenMP's default team: for the solve it is the
// mapping's team, which the caller bound (a larger default would put several threads on one processor).
class DefaultTeam {
 public:
  explicit DefaultTeam(int threads) : before_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~DefaultTeam() { omp_set_num_threads(before_); }
  DefaultTeam(const DefaultTeam&) = delete;
  DefaultTeam& operator=(const DefaultTeam&) = delete;

 private:
  int before_;
};

// Entry i of the start vector: parts uniform in [-1, 1), drawn from the counter-based stream of (seed, i), so
// the same on any thread count.
Complex start_entry(unsigned long long seed, std::uint64_t i) {
  rng::Stream draws(seed, i);
  auto unit = [](std::uint64_t z) { return static_cast<double>(z >> 11) * 0x1p-52 - 1; };
  const double re = unit(draws.next());
  return {re, unit(draws.next())};
}

SortKey key_of(const Options& o) {
  switch (o.which) {
    case Which::largest_magnitude:
      return [](Complex z) { return -std::abs(z); };
    case Which::largest_real:
      return [](Complex z) { return -z.real(); };
    case Which::target:
      break;
  }
  return [tau = o.target](Complex z) { return std::abs(z - tau); };
}

// The small matrices live with leading dimension jmax; LAPACK gets compact j x j copies.
class Small {
 public:
  explicit Small(int ld) : ld_(ld), m_(static_cast<std::size_t>(ld) * ld) {}
  Complex& operator()(int i, int c) { return m_[static_cast<std::size_t>(i) + static_cast<std::size_t>(c) * ld_]; }
  DenseMatrix compact(int j) const {
    DenseMatrix out(static_cast<std::size_t>(j) * j);
    for (int c = 0; c < j; ++c)
      for (int i = 0; i < j; ++i) out[i + c * j] = m_[static_cast<std::size_t>(i) + static_cast<std::size_t>(c) * ld_];
    return out;
  }
  void assign(const DenseMatrix& a, int j) {
    for (int c = 0; c < j; ++c)
      for (int i = 0; i < j; ++i) (*this)(i, c) = a[i + c * j];
  }

 private:
  int ld_;
  std::vector<Complex> m_;
};

// The wanted Ritz pair and the coefficients, in V, of the directions a restart or a lock keeps.
struct Extracted {
  DenseMatrix z;            // j x j: column 0 the wanted direction (unit), the others after it in order
  bool orthonormal = true;  // z's columns orthonormal (standard extraction); harmonic ones are not
  Complex theta = 0;
};

class Jdqr {
 public:
  Jdqr(const sparse::ComplexCsrMatrix& a, const Options& o, const Topology& topo, const Mapping& map)
      : a_(a),
        o_(o),
        n_(static_cast<std::size_t>(a.rows())),
        team_(NodePartition(map, n_), map.size()),
        v_(topo, team_, n_, o.jmax),
        av_(topo, team_, n_, o.jmax),
        x_(topo, team_, n_, harmonic() ? o.jmax : 0),
        q_(topo, team_, n_, o.nev + 1),
        work_(topo, team_, n_, kWorkColumns),
        m_(o.jmax),
        g_(o.jmax),
        h_(o.jmax),
        r_(static_cast<std::size_t>(o.nev) * static_cast<std::size_t>(o.nev)),
        key_(key_of(o)) {
    if (o.precond == Precond::jacobi) read_diagonal();
  }

  Result run();

 private:
  enum Column { kU, kAu, kR, kT, kY, kWorkColumns };
  bool harmonic() const { return o_.extraction == Extraction::harmonic; }
  Complex* w(Column c) { return work_.col(c); }

  void read_diagonal();
  void start_vector(Complex* t);
  void expand(Complex* t);
  void extend_projections();
  Extracted extract();
  double residual(const Extracted& e);
  bool converged(double rnorm, Complex theta) const {
    return rnorm <= o_.tol * (theta == Complex(0) ? 1.0 : std::abs(theta));
  }
  void lock(const Extracted& e);
  void restart(const Extracted& e, int keep);
  void keep_directions(const DenseMatrix& z, int p);
  void harmonic_column(int c);
  void rebuild_harmonic();
  void correct(Complex theta, double rnorm, int pair_iterations);
  void apply_a(const Complex* x, Complex* y);
  void finish();

  const sparse::ComplexCsrMatrix& a_;
  Options o_;
  std::size_t n_;
  zblas::Team team_;
  Block v_, av_, x_, q_, work_;
  Small m_, g_, h_;            // V^H A V; harmonic: X^H X and X^H V with X = (I - QQ^H)(A - tau I) V
  std::vector<Complex> r_;     // R, nev x nev
  std::vector<Complex> diag_;  // A's diagonal, for the Jacobi preconditioner
  SortKey key_;
  int j_ = 0, k_ = 0;
  unsigned long long random_vectors_ = 0;
  Result res_;
};

void Jdqr::read_diagonal() {
  diag_.assign(n_, Complex(0));
  const auto start = a_.row_start();
  const auto cols = a_.columns();
  const auto vals = a_.values();
  for (std::size_t i = 0; i < n_; ++i)
    for (auto k = start[i]; k < start[i + 1]; ++k)
      if (static_cast<std::size_t>(cols[k]) == i) diag_[i] = vals[k];
}

void Jdqr::apply_a(const Complex* x, Complex* y) {
  Timed t(res_.time, "spmv");
  multiply(team_, a_, x, y);
  ++res_.matvecs;
}

void Jdqr::start_vector(Complex* t) {
  const unsigned long long seed = o_.seed + random_vectors_++;  // a new vector each time
  for (std::size_t i = 0; i < n_; ++i) t[i] = start_entry(seed, i);
}

// V gets t made orthonormal to Q and V; A V, M (and for harmonic extraction X, G, H) get their new column.
void Jdqr::expand(Complex* t) {
  std::vector<Complex> coeff(static_cast<std::size_t>(std::max(o_.jmax, o_.nev + 1)));
  for (int attempt = 0;; ++attempt) {
    Timed timed(res_.time, "orth");
    const double before = zblas::dznrm2(team_, t);
    project_out(team_, q_, k_, t, coeff.data());
    project_out(team_, v_, j_, t, coeff.data());
    const double after = zblas::dznrm2(team_, t);
    // A correction inside the space (or a start vector in it) adds nothing: start afresh from a new vector.
    if (after > 1e-10 * before && after > 0) {
      scale(team_, 1.0 / after, t);
      copy(team_, t, v_.col(j_));
      break;
    }
    if (attempt == 3) throw system_error("eigen: no new direction orthogonal to the search space could be found");
    start_vector(t);
  }
  apply_a(v_.col(j_), av_.col(j_));
  extend_projections();
  ++j_;
}

// Column and row j of M = V^H A V (and of G, H): one block product each way.
void Jdqr::extend_projections() {
  Timed timed(res_.time, "orth");
  const auto jj = static_cast<std::size_t>(j_);
  std::vector<Complex> c(jj + 1);
  zblas::zgemv(team_, zblas::Trans::conj_trans, jj + 1, 1.0, v_.col(0), n_, av_.col(j_), 0.0, c.data());
  for (int i = 0; i <= j_; ++i) m_(i, j_) = c[i];
  zblas::zgemv(team_, zblas::Trans::conj_trans, jj, 1.0, av_.col(0), n_, v_.col(j_), 0.0, c.data());
  for (int i = 0; i < j_; ++i) m_(j_, i) = std::conj(c[i]);
  if (harmonic()) harmonic_column(j_);
}

// Column c of X = (I - QQ^H)(A V - tau V), and column and row c of G = X^H X and H = X^H V, from columns 0..c.
void Jdqr::harmonic_column(int c) {
  const auto cc = static_cast<std::size_t>(c);
  Complex* x = x_.col(c);
  copy(team_, av_.col(c), x);
  zblas::zaxpy(team_, -o_.target, v_.col(c), x);
  std::vector<Complex> coeff(static_cast<std::size_t>(o_.nev + 1)), p(cc + 1);
  project_out(team_, q_, k_, x, coeff.data());
  zblas::zgemv(team_, zblas::Trans::conj_trans, cc + 1, 1.0, x_.col(0), n_, x, 0.0, p.data());
  for (int i = 0; i <= c; ++i) {
    g_(i, c) = p[i];
    g_(c, i) = std::conj(p[i]);
  }
  zblas::zgemv(team_, zblas::Trans::conj_trans, cc + 1, 1.0, x_.col(0), n_, v_.col(c), 0.0, p.data());
  for (int i = 0; i <= c; ++i) h_(i, c) = p[i];
  zblas::zgemv(team_, zblas::Trans::conj_trans, cc, 1.0, v_.col(0), n_, x, 0.0, p.data());
  for (int i = 0; i < c; ++i) h_(c, i) = std::conj(p[i]);
}

Extracted Jdqr::extract() {
  Timed timed(res_.time, "dense");
  const DenseMatrix m = m_.compact(j_);
  if (!harmonic()) {
    SortedSchur s = sorted_schur(m, j_, key_, o_.hermitian);
    return {std::move(s.u), true, s.t[0]};
  }
  DenseMatrix z = harmonic_directions(g_.compact(j_), h_.compact(j_), j_);
  const double norm = std::sqrt(std::real(adjoint_times(z, z, j_, 1, 1)[0]));
  for (int i = 0; i < j_; ++i) z[i] /= norm;
  // theta: the Rayleigh quotient of u = V s, closer to the eigenvalue than the harmonic value itself.
  const Complex theta = adjoint_times(z, times(m, z, j_, j_, 1), j_, 1, 1)[0];
  return {std::move(z), false, theta};
}

// u = V s, A u = (A V) s, r = (I - QQ^H)(A u - theta u); its norm.
double Jdqr::residual(const Extracted& e) {
  Timed timed(res_.time, "orth");
  const auto jj = static_cast<std::size_t>(j_);
  zblas::zgemv(team_, zblas::Trans::none, jj, 1.0, v_.col(0), n_, e.z.data(), 0.0, w(kU));
  zblas::zgemv(team_, zblas::Trans::none, jj, 1.0, av_.col(0), n_, e.z.data(), 0.0, w(kAu));
  copy(team_, w(kAu), w(kR));
  zblas::zaxpy(team_, -e.theta, w(kU), w(kR));
  std::vector<Complex> coeff(static_cast<std::size_t>(o_.nev + 1));
  project_out(team_, q_, k_, w(kR), coeff.data());
  return zblas::dznrm2(team_, w(kR));
}

// u becomes Schur vector k: A Q = Q R gains the column R(0..k-1, k) = Q^H A u, R(k, k) = theta. The search goes on
// in V's other directions, made orthogonal to u in the small space (V is orthonormal, so that is orthogonality).
void Jdqr::lock(const Extracted& e) {
  {
    Timed timed(res_.time, "orth");
    std::vector<Complex> c(static_cast<std::size_t>(std::max(1, k_)));
    if (k_ > 0)
      zblas::zgemv(team_, zblas::Trans::conj_trans, static_cast<std::size_t>(k_), 1.0, q_.col(0), n_, w(kAu), 0.0,
                   c.data());
    const auto nev = static_cast<std::size_t>(o_.nev), kk = static_cast<std::size_t>(k_);
    for (std::size_t i = 0; i < kk; ++i) r_[i + kk * nev] = c[i];
    r_[kk + kk * nev] = e.theta;
    copy(team_, w(kU), q_.col(k_));
  }
  ++k_;
  res_.values.push_back(e.theta);
  if (k_ == o_.nev) return;
  DenseMatrix rest(static_cast<std::size_t>(j_) * static_cast<std::size_t>(j_ - 1));
  std::copy(e.z.begin() + j_, e.z.end(), rest.begin());
  {
    Timed timed(res_.time, "dense");
    const DenseMatrix s1(e.z.begin(), e.z.begin() + j_);
    const DenseMatrix overlap = adjoint_times(s1, rest, j_, 1, j_ - 1);
    for (int c = 0; c < j_ - 1; ++c)
      for (int i = 0; i < j_; ++i) rest[i + c * j_] -= s1[i] * overlap[c];
    rest = orthonormal_columns(std::move(rest), j_, j_ - 1);
  }
  keep_directions(rest, j_ - 1);
}

// The search space cut to its `keep` best directions.
void Jdqr::restart(const Extracted& e, int keep) {
  DenseMatrix z(e.z.begin(), e.z.begin() + static_cast<std::ptrdiff_t>(j_) * keep);
  if (!e.orthonormal) {
    Timed timed(res_.time, "dense");
    z = orthonormal_columns(std::move(z), j_, keep);
  }
  keep_directions(z, keep);
  ++res_.restarts;
}

// V <- V Z, A V <- (A V) Z, M <- Z^H M Z for Z (j x p) with orthonormal columns; X, G, H rebuilt.
void Jdqr::keep_directions(const DenseMatrix& z, int p) {
  {
    Timed timed(res_.time, "orth");
    combine(team_, v_, j_, z, p);
    combine(team_, av_, j_, z, p);
  }
  {
    Timed timed(res_.time, "dense");
    m_.assign(adjoint_times(z, times(m_.compact(j_), z, j_, j_, p), j_, p, p), p);
  }
  j_ = p;
  if (harmonic()) rebuild_harmonic();
}

// X, G and H again from V and A V, after a restart or a lock (Q has grown: X's projection changes).
void Jdqr::rebuild_harmonic() {
  Timed timed(res_.time, "orth");
  for (int c = 0; c < j_; ++c) harmonic_column(c);
}

// t ~ solution of (I - Q~Q~^H)(A - shift I)(I - Q~Q~^H) t = -r, t ⊥ Q~ = [Q, u], by a few GMRES steps (the linear
// solver's cycle, kernels/gmres/krylov.hpp). Vectors that enter the operator are already orthogonal to Q~ (the right
// side is, and the operator's results are projected), so only the left projection is applied. The tolerance
// tightens as a pair is refined (0.7^iterations, as Fokkema et al. do), so that early, rough pairs cost few steps.
void Jdqr::correct(Complex theta, double rnorm, int pair_iterations) {
  Complex* t = w(kT);
  std::fill(t, t + n_, Complex(0));
  const bool far = o_.which == Which::target && !converged(rnorm, theta) &&
                   rnorm > o_.shift_switch * (theta == Complex(0) ? 1.0 : std::abs(theta));
  const Complex shift = far ? o_.target : theta;
  copy(team_, w(kU), q_.col(k_));  // Q~ = [Q, u], for this solve
  const int cols = k_ + 1;
  std::vector<Complex> coeff(static_cast<std::size_t>(cols));
  auto project = [&](Complex* y) {  // one pass: y ⊥ Q~ to working precision as y is never far from it
    zblas::zgemv(team_, zblas::Trans::conj_trans, static_cast<std::size_t>(cols), 1.0, q_.col(0), n_, y, 0.0,
                 coeff.data());
    zblas::zgemv(team_, zblas::Trans::none, static_cast<std::size_t>(cols), -1.0, q_.col(0), n_, coeff.data(), 1.0, y);
  };
  Timed timed(res_.time, "correction");  // its products with A are a stage inside it
  scale(team_, -1.0, w(kR));             // the right side, -r
  if (o_.correction_steps == 0) {
    copy(team_, w(kR), t);  // no solve: t = -r, the Davidson-like expansion
  } else {
    const auto apply = [&](const Complex* x, Complex* y) {
      apply_a(x, y);
      zblas::zaxpy(team_, -shift, x, y);
      project(y);
    };
    const auto precond = [&](const Complex* x, Complex* y) {
      for (std::size_t i = 0; i < n_; ++i) {
        const Complex d = diag_[i] - shift;
        y[i] = d == Complex(0) ? x[i] : x[i] / d;
      }
      project(y);
    };
    const auto dot = [&](const Complex* x, const Complex* y) { return zblas::zdotc(team_, x, y); };
    const double rel_tol = std::pow(0.7, std::max(1, pair_iterations));
    const gmres::KrylovEnd end =
        o_.precond == Precond::jacobi
            ? gmres::gmres_few_steps(n_, apply, precond, dot, w(kR), t, o_.correction_steps, rel_tol)
            : gmres::gmres_few_steps(n_, apply, {}, dot, w(kR), t, o_.correction_steps, rel_tol);
    res_.correction_steps += end.steps;
  }
}

Result Jdqr::run() {
  res_.time = harness::StageLog("solve");  // the solve alone, not the set-up before it
  start_vector(w(kT));
  expand(w(kT));
  int pair_iterations = 0;
  while (res_.iterations < o_.max_iterations) {
    Extracted e = extract();
    double rnorm = residual(e);
    while (converged(rnorm, e.theta)) {
      lock(e);
      pair_iterations = 0;
      if (k_ == o_.nev) break;
      // A fresh random direction after each lock: the search space grew from one start vector, which holds one
      // combination only of the eigenvectors of a multiple eigenvalue; the others, wanted too, need a new one.
      start_vector(w(kT));
      expand(w(kT));
      e = extract();
      rnorm = residual(e);
    }
    if (k_ == o_.nev) break;
    res_.last_theta = e.theta;
    res_.last_residual = rnorm / (e.theta == Complex(0) ? 1.0 : std::abs(e.theta));
    if (j_ == o_.jmax) restart(e, o_.jmin);
    correct(e.theta, rnorm, ++pair_iterations);
    expand(w(kT));
    ++res_.iterations;
  }
  finish();
  res_.time.finish();
  return std::move(res_);
}

// The Schur vectors and R, and the eigenvectors Q y_i from R's own (ztrevc).
void Jdqr::finish() {
  res_.found = k_;
  res_.converged = k_ == o_.nev;
  const auto k = static_cast<std::size_t>(k_), nev = static_cast<std::size_t>(o_.nev);
  res_.schur_form.assign(k * k, Complex(0));
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t i = 0; i <= c; ++i) res_.schur_form[i + c * k] = r_[i + c * nev];
  res_.schur_vectors.assign(q_.col(0), q_.col(0) + n_ * k);
  if (k_ == 0) return;
  DenseMatrix y;
  {
    Timed timed(res_.time, "dense");
    y = triangular_eigenvectors(res_.schur_form, k_);
  }
  Timed timed(res_.time, "orth");
  combine(team_, q_, k_, y, k_);  // Q is not needed after this: it becomes Q Y in place
  res_.vectors.assign(q_.col(0), q_.col(0) + n_ * k);
}

// The entries of a that differ from their mirror's conjugate: the first, in words; "" when a = a^H.
std::string not_hermitian(const sparse::ComplexCsrMatrix& a) {
  const auto start = a.row_start();
  const auto cols = a.columns();
  const auto vals = a.values();
  for (sparse::Index i = 0; i < a.rows(); ++i)
    for (auto k = start[i]; k < start[static_cast<std::size_t>(i) + 1]; ++k) {
      const auto j = static_cast<sparse::Index>(cols[k]);
      const Complex v = vals[k];
      const auto row = cols.subspan(static_cast<std::size_t>(start[j]),
                                    static_cast<std::size_t>(start[static_cast<std::size_t>(j) + 1] - start[j]));
      const auto it = std::lower_bound(row.begin(), row.end(), static_cast<sparse::Column>(i));
      const Complex mirror = it != row.end() && *it == i ? vals[start[j] + (it - row.begin())] : Complex(0);
      if (std::abs(v - std::conj(mirror)) > 1e-12 * std::max(std::abs(v), std::abs(mirror)))
        return "entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ") is not the conjugate of entry (" +
               std::to_string(j + 1) + ", " + std::to_string(i + 1) + ")";
    }
  return "";
}

}  // namespace

std::string which_name(Which w) {
  switch (w) {
    case Which::largest_magnitude:
      return "largest-magnitude";
    case Which::largest_real:
      return "largest-real";
    case Which::target:
      break;
  }
  return "target";
}
std::string extraction_name(Extraction e) { return e == Extraction::harmonic ? "harmonic" : "standard"; }
std::string precond_name(Precond p) { return p == Precond::jacobi ? "jacobi" : "none"; }

void check_options(const Options& o, sparse::Index n) {
  auto refuse = [](const std::string& what) { throw input_error("eigen: " + what); };
  if (o.nev < 1 || o.nev >= n)
    refuse("--nev " + std::to_string(o.nev) + " must be at least 1 and less than the order " + std::to_string(n));
  if (o.jmin < 1 || o.jmax <= o.jmin)
    refuse("--jmin " + std::to_string(o.jmin) + " and --jmax " + std::to_string(o.jmax) + ": need 1 <= jmin < jmax");
  if (o.jmax > n) refuse("--jmax " + std::to_string(o.jmax) + " exceeds the order " + std::to_string(n));
  if (!(o.tol > 0) || !std::isfinite(o.tol)) refuse("--tol must be a positive number");
  if (!std::isfinite(o.target.real()) || !std::isfinite(o.target.imag())) refuse("--target must be finite");
  if (o.correction_steps < 0) refuse("--correction-steps must not be negative");
  if (o.max_iterations < 1) refuse("--max-iterations must be at least 1");
  if (o.extraction == Extraction::harmonic && o.which != Which::target)
    refuse("harmonic extraction needs a target (--target), not --which " + which_name(o.which));
}

Result solve(const sparse::ComplexCsrMatrix& a, const Options& o, const Topology& topo, const Mapping& map) {
  if (a.rows() != a.cols())
    throw input_error("eigen: the matrix is " + std::to_string(a.rows()) + " x " + std::to_string(a.cols()) +
                      ", not square");
  check_options(o, a.rows());
  for (const Complex v : a.values())
    if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) throw input_error("eigen: the matrix holds NaN or inf");
  if (o.hermitian)
    if (const std::string why = not_hermitian(a); !why.empty())
      throw input_error("eigen: --hermitian, but the matrix is not Hermitian: " + why);
  const blas::BlasThreads one(1);  // the small dense problems: OpenBLAS's own threads would cost more than they save
  const DefaultTeam team(map.size());
  return Jdqr(a, o, topo, map).run();
}

}  // namespace ulibc::eigen
