// tests/fuzz/sdpa_format_fuzz.cpp — libFuzzer target for the SDPA reader (sdp/sdpa_format.hpp), both formats.
//
// Every input is read as sparse (.dat-s) and as dense (.dat). Properties:
//   - the reader returns a problem or throws ulibc::Error of kind input with a one-line message naming the
//     source; anything else thrown, a crash, a sanitizer report or an allocation beyond the input's size is a bug;
//   - an accepted problem is well formed: 1 <= m <= kMaxConstraints, f holds F_0..F_m; 1 <= nBLOCK, every size
//     from 1 to kMaxBlockSize, n <= kMaxOrder; each F_k's blocks in increasing order, none without entries; each
//     block's entries inside it, sorted by (i, j), each position once, i <= j, diagonal on an LP block, finite
//     and nonzero;
//   - it holds no more than the input could spell: every block size, c value and entry takes at least one
//     character and a separator, so each count is at most (size + 1) / 2;
//   - what it holds, written as .dat-s, reads back to the same problem.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_read.hpp"
#include "sdp/sdpa_format.hpp"

namespace {

using namespace ulibc::sdp;

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("sdpa_format_fuzz", what, input); }

// The problem, or nullopt when the reader threw as promised (fuzz_read.hpp).
std::optional<Problem> read(std::string_view input, SdpaFormat format) {
  const char* source = format == SdpaFormat::sparse ? "fuzz.dat-s" : "fuzz.dat";
  return fuzz::read_input("sdpa_format_fuzz", source, input,
                          [format](std::istream& in, const std::string& s) { return read_sdpa(in, s, format); });
}

void check_shape(const Problem& p, std::string_view input) {
  const std::size_t spelled = (input.size() + 1) / 2;
  CHECK(p.m() >= 1 && p.m() <= kMaxConstraints && p.c.size() <= spelled, input);
  CHECK(p.f.size() == p.c.size() + 1, input);
  CHECK(!p.blocks.empty() && p.blocks.size() <= spelled, input);
  for (const BlockShape& b : p.blocks) CHECK(b.size >= 1 && b.size <= kMaxBlockSize, input);
  CHECK(p.order() <= kMaxOrder, input);
  for (const double c : p.c) CHECK(std::isfinite(c), input);
}

void check_block(const Problem& p, const SparseBlock& b, std::string_view input) {
  CHECK(b.block >= 0 && static_cast<std::size_t>(b.block) < p.blocks.size() && !b.entries.empty(), input);
  const BlockShape shape = p.blocks[static_cast<std::size_t>(b.block)];
  for (std::size_t k = 0; k < b.entries.size(); ++k) {
    const Entry& e = b.entries[k];
    CHECK(e.i >= 0 && e.i <= e.j && e.j < shape.size && (!shape.diagonal || e.i == e.j), input);
    CHECK(std::isfinite(e.value) && e.value != 0, input);
    if (k > 0) {
      const Entry& q = b.entries[k - 1];
      CHECK(q.i < e.i || (q.i == e.i && q.j < e.j), input);
    }
  }
}

void check_entries(const Problem& p, std::string_view input) {
  std::size_t total = 0;
  for (const ConstraintMatrix& f : p.f) {
    for (std::size_t k = 0; k < f.blocks.size(); ++k) {
      check_block(p, f.blocks[k], input);
      if (k > 0) CHECK(f.blocks[k - 1].block < f.blocks[k].block, input);
    }
    total += f.nonzeros();
  }
  CHECK(total <= (input.size() + 1) / 2, input);
}

// The problem written as .dat-s and read again: the same sizes, c and entries, bit for bit.
void check_round_trip(const Problem& p, std::string_view input) {
  std::ostringstream out;
  write_sdpa_sparse(p, out);
  std::istringstream in(out.str());
  const Problem q = read_sdpa(in, "written.dat-s", SdpaFormat::sparse);
  CHECK(q.blocks.size() == p.blocks.size() && q.c == p.c && q.f.size() == p.f.size(), input);
  for (std::size_t b = 0; b < p.blocks.size(); ++b)
    CHECK(q.blocks[b].size == p.blocks[b].size && q.blocks[b].diagonal == p.blocks[b].diagonal, input);
  for (std::size_t k = 0; k < p.f.size(); ++k) {
    CHECK(q.f[k].blocks.size() == p.f[k].blocks.size(), input);
    for (std::size_t b = 0; b < p.f[k].blocks.size(); ++b) {
      const SparseBlock &x = p.f[k].blocks[b], &y = q.f[k].blocks[b];
      CHECK(x.block == y.block && x.entries.size() == y.entries.size(), input);
      for (std::size_t e = 0; e < x.entries.size(); ++e)
        CHECK(x.entries[e].i == y.entries[e].i && x.entries[e].j == y.entries[e].j &&
                  x.entries[e].value == y.entries[e].value,
              input);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  for (const SdpaFormat format : {SdpaFormat::sparse, SdpaFormat::dense})
    if (const auto p = read(input, format)) {
      check_shape(*p, input);
      check_entries(*p, input);
      check_round_trip(*p, input);
    }
  return 0;
}
