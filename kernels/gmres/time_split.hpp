// gmres/time_split.hpp — where a solve's time went, in the parts Katagiri and Kuroda's Fig. 12 stacks.
#pragma once
#include <mpi.h>

namespace ulibc::gmres {

struct TimeSplit {
  double spmv = 0;     // the products' arithmetic (the main loop's; the polynomial preconditioner's count as precond)
  double comm = 0;     // MPI calls of the products' exchanges
  double orth = 0;     // orthogonalisation, its reductions included
  double precond = 0;  // preconditioner set-up and application
  double tuning = 0;   // every measurement and trial of the tuner, whatever it ran
  double total = 0;    // wall time of the whole solve, tuning included
  double other() const { return total - spmv - comm - orth - precond - tuning; }
};

// Adds the seconds from construction to destruction to one field.
class Timed {
 public:
  explicit Timed(double& into) : into_(into), start_(MPI_Wtime()) {}
  ~Timed() { into_ += MPI_Wtime() - start_; }
  Timed(const Timed&) = delete;
  Timed& operator=(const Timed&) = delete;

 private:
  double& into_;
  double start_;
};

}  // namespace ulibc::gmres
