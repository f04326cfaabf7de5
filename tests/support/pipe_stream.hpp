// pipe_stream.hpp — an input stream that cannot seek, like a pipe, for the
// readers' paths that cannot measure their input before reading it.
#pragma once
#include <ios>
#include <istream>
#include <sstream>
#include <string>

namespace ulibc::testing {

class PipeBuf : public std::stringbuf {
 public:
  explicit PipeBuf(const std::string& s) : std::stringbuf(s) {}

 protected:
  pos_type seekoff(off_type, std::ios::seekdir, std::ios::openmode) override { return pos_type(off_type(-1)); }
  pos_type seekpos(pos_type, std::ios::openmode) override { return pos_type(off_type(-1)); }
};

}  // namespace ulibc::testing
