// sdp/problem.cpp — the sizes a Problem derives from its blocks and entries.
#include "sdp/problem.hpp"

namespace ulibc::sdp {

std::size_t ConstraintMatrix::nonzeros() const {
  std::size_t count = 0;
  for (const SparseBlock& b : blocks) count += b.entries.size();
  return count;
}

long long Problem::order() const {
  long long n = 0;
  for (const BlockShape& b : blocks) n += b.size;
  return n;
}

}  // namespace ulibc::sdp
