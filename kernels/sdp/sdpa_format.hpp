// sdp/sdpa_format.hpp — SDPA's input files (the sparse .dat-s and the dense .dat format) read into a Problem,
// checked while reading, and a Problem written as .dat-s.
//
// The format, as the SDPA user's manual gives it (Fujisawa, Kojima, Nakata et al.):
//   - comment lines at the top, each starting (after blanks) with `"` or `*`; blank lines are skipped;
//   - m, the first number of its line: the rest of that line is ignored ("2 =mdim");
//   - nBLOCK, the number of blocks: the same rule;
//   - the nBLOCK block sizes (negative: an LP block of |size| scalars, stored as a diagonal block), then c_1..c_m:
//     numbers read across lines, `, ( ) { }` counted as blanks ("{2, -3}"). Once each list is complete, the rest
//     of its line may be a label, which is skipped ("2 = bLOCKsTRUCT", as the manual's example writes); a number
//     there continues the stream instead (sizes running on into c; dense: c running on into F_0);
//   - sparse (.dat-s): one entry per line, "matno blkno i j value": F_matno (0..m), block blkno (1..nBLOCK),
//     row i and column j (1..size); blank lines allowed. After the five numbers the line may hold text, ignored
//     as SDPA ignores it, but no sixth number: SDPA would read that as the next entry while writers put one entry
//     on each line, so it means a damaged file, refused rather than guessed at. The c line ends with c_m;
//   - dense (.dat): F_0, ..., F_m, each block in turn in full, row by row (an LP block: its |size| diagonal
//     values), numbers across lines with the same blanks; nothing may follow F_m.
// Windows line ends are tolerated and the last line needs no line end.
//
// What is read: an entry of either triangle is stored in the upper one (i <= j), 0-based, each block's entries
// sorted by (i, j), F_k's blocks in increasing order, only the blocks it has entries in. A position given twice
// with the same value (a mirror or a repeat; dense: every off-diagonal pair) is kept once; with different values
// it is refused ("... contradicts line N"), a zero counting as a value there. Zeros are not stored. On an LP block
// i must equal j.
//
// Refused, each as Error(input) with one line "<source>:<line>: <what>" (an item missing at the end of the text:
// the line after the last; an empty text: "<source>: <what>"): m or nBLOCK outside its limits below, a block
// size 0 or too large, fewer sizes or c values than declared, a token that is not a number, a value that is NaN
// or infinite or overflows a double, indices that are not whole numbers or lie outside 0..m, 1..nBLOCK,
// 1..size, an entry line with fewer than five numbers (a truncated file) or more, a dense file ending early or
// going on after F_m, two values for one position, an off-diagonal entry on an LP block.
//
// Memory grows with the text actually read, never with a declared count: a corrupt header costs nothing.
#pragma once
#include <istream>
#include <ostream>
#include <string>

#include "sdp/problem.hpp"

namespace ulibc::sdp {

enum class SdpaFormat { sparse, dense };

// The limits the reader accepts: far beyond what the dense algebra of an interior-point method handles (X and
// Y are n x n), small enough that every count and index fits an int and every product of two sizes an int64.
inline constexpr int kMaxConstraints = 10'000'000;  // m
inline constexpr int kMaxBlockSize = 1'000'000;     // |size| of one block
inline constexpr int kMaxOrder = 10'000'000;        // n, the sum of the blocks' sizes
inline constexpr int kMaxBlocks = kMaxOrder;        // nBLOCK: every block has at least one row

// The problem in `in`, in `format`; `source` names it in messages.
Problem read_sdpa(std::istream& in, const std::string& source, SdpaFormat format);

// The problem in the file at `path`, its format from the name: ".dat" is dense, ".dat-s" and any other name
// sparse (the format SDPLIB and most writers use). Error(input) naming the path when it cannot be opened.
Problem read_sdpa_file(const std::string& path);

// `p` in the sparse format: m, nBLOCK, the sizes (LP blocks negative), c, then every stored entry 1-based, each
// value with 17 significant digits so that it reads back to the same bits. The caller checks `out`'s state.
void write_sdpa_sparse(const Problem& p, std::ostream& out);

}  // namespace ulibc::sdp
