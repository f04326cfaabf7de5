// sdp/result_file.hpp — the solution written as SDPA writes it: the objective values, then x ("xVec") and the two
// block matrices X ("xMat") and Y ("yMat"), each block in braces, LP blocks as one row, full precision.
#pragma once
#include <ostream>
#include <string>

#include "sdp/problem.hpp"
#include "sdp/sdp.hpp"

namespace ulibc::sdp {

void write_result(const Problem& problem, const Result& result, std::ostream& out);
// To the file at `path`; Error(system) naming it when it cannot be written.
void write_result_file(const Problem& problem, const Result& result, const std::string& path);

}  // namespace ulibc::sdp
