// sdp/result_file.cpp — x, X and Y in SDPA's result layout.
#include "sdp/result_file.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "io/file_io.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sdp {

namespace {

std::string row(const double* v, int count, std::size_t stride) {
  std::string s = "{";
  for (int k = 0; k < count; ++k) s += fmt::format("{}{:+.16e}", k ? "," : "", v[k * stride]);
  return s + "}";
}

void write_matrix(const char* name, const BlockMatrix& a, std::ostream& out) {
  fmt::print(out, "{} = \n{{\n", name);
  for (int b = 0; b < a.blocks(); ++b) {
    const int n = a.shape(b).size;
    if (a.shape(b).diagonal) {
      fmt::print(out, "{}\n", row(a.block(b).data(), n, 1));
      continue;
    }
    fmt::print(out, "{{");
    for (int i = 0; i < n; ++i)  // row i of a symmetric block: column-major element (i, j) at i + j n
      fmt::print(out, "{}{}", i ? ",\n " : " ", row(a.block(b).data() + i, n, static_cast<std::size_t>(n)));
    fmt::print(out, " }}\n");
  }
  fmt::print(out, "}}\n");
}

}  // namespace

void write_result(const Problem& problem, const Result& r, std::ostream& out) {
  fmt::print(out, "phase.value  = {}\n   Iteration = {}\nobjValPrimal = {:+.16e}\nobjValDual   = {:+.16e}\n",
             phase_name(r.phase), r.iterations, r.obj_p, r.obj_d);
  fmt::print(out, "relative gap = {:+.16e}\np.feas.error = {:+.16e}\nd.feas.error = {:+.16e}\n", r.relative_gap,
             r.p_feas_error, r.d_feas_error);
  fmt::print(out, "m = {}, blocks = {}\nxVec = \n{}\n", problem.m(), problem.blocks.size(),
             row(r.x.data(), static_cast<int>(r.x.size()), 1));
  write_matrix("xMat", r.X, out);
  write_matrix("yMat", r.Y, out);
}

void write_result_file(const Problem& problem, const Result& result, const std::string& path) {
  io::write_file(path, [&](std::ostream& out) { write_result(problem, result, out); });
}

}  // namespace ulibc::sdp
