// io/file_io.hpp — what the file readers and writers of every layer and kernel share (the graph formats, Matrix
// Market, SDPA, the eigen problem specs): whole-stream reading, blank-separated fields, decimal numbers, message
// quoting, chunked binary reads, checked writes.
//
// The conventions it carries: a reader takes the whole stream into one buffer and parses it with std::from_chars;
// binary data is read straight into vectors in the host's layout (the formats are little-endian, which each
// format's source asserts); every failure is a ulibc::Error naming the source or path.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ulibc/error.hpp"

namespace ulibc::io {

// A piece of the input as a message shows it: quoted, printable, short.
inline std::string quoted(std::string_view s) {
  constexpr std::size_t kShown = 32;
  std::string out = "'";
  for (unsigned char c : s.substr(0, kShown)) {
    if (c >= 0x20 && c < 0x7f)
      out += static_cast<char>(c);
    else
      out += fmt::format("\\x{:02x}", c);
  }
  out += s.size() > kShown ? "...'" : "'";
  return out;
}

// errno's text, or a fallback when the failing call did not say.
inline std::string reason(int err) { return err ? std::strerror(err) : "the write did not complete"; }

// ---- Reading ---------------------------------------------------------------------

// The bytes between the stream's position and its end; nullopt when it cannot seek.
inline std::optional<std::uint64_t> remaining_bytes(std::istream& in) {
  const std::streampos here = in.tellg();
  if (here == std::streampos(-1)) {
    in.clear();
    return std::nullopt;
  }
  in.seekg(0, std::ios::end);
  const std::streampos end = in.tellg();
  in.clear();
  in.seekg(here);
  if (end == std::streampos(-1) || end < here || !in) {
    in.clear();
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(end - here);
}

// Appends up to `bytes` bytes from `in` to `out`; returns how many came.
inline std::size_t append_from(std::istream& in, std::string& out, std::size_t bytes) {
  const std::size_t have = out.size();
  out.resize(have + bytes);
  in.read(out.data() + have, static_cast<std::streamsize>(bytes));
  const auto got = static_cast<std::size_t>(in.gcount());
  out.resize(have + got);
  return got;
}

// The rest of the stream: one read when its size is known, then whatever
// else comes (all of it from a pipe) through a separate buffer, so that the
// read that meets the end does not grow, and so copy, a text of gigabytes.
inline std::string read_all(std::istream& in, const std::string& source) {
  std::string text;
  std::size_t chunk = std::size_t{1} << 20;
  if (const std::optional<std::uint64_t> left = remaining_bytes(in)) {
    append_from(in, text, static_cast<std::size_t>(*left));
    chunk = 4096;
  }
  std::string buffer;
  while (in && append_from(in, buffer, chunk) > 0) {
    text += buffer;
    buffer.clear();
  }
  if (in.bad()) throw system_error(fmt::format("cannot read {}", source));
  return text;
}

// Up to `count` values of T read straight from the stream, a bounded chunk at
// a time: memory grows with the data actually there, never with what a
// (possibly corrupt) header claims. Fewer than `count` when the stream ends
// first. `measured`: the stream is known to hold them all, so the vector is
// allocated once, at its size, instead of growing (and copying) by doubling.
template <class T>
std::vector<T> read_records(std::istream& in, std::uint64_t count, bool measured) {
  static_assert(std::is_trivially_copyable_v<T>, "records are read as bytes");
  constexpr std::uint64_t kChunk = (std::uint64_t{8} << 20) / sizeof(T);  // 8 MiB
  std::vector<T> out;
  if (measured) out.reserve(static_cast<std::size_t>(count));
  while (out.size() < count) {
    const std::size_t have = out.size();
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(count - have, kChunk));
    out.resize(have + want);
    in.read(reinterpret_cast<char*>(out.data() + have), static_cast<std::streamsize>(want * sizeof(T)));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got < want * sizeof(T)) {
      out.resize(have + got / sizeof(T));
      break;
    }
  }
  return out;
}

// A file opened for reading. Error(input) naming the path when it cannot be
// opened or is a directory (which an ifstream opens, then fails to read).
inline std::ifstream open_input(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(fmt::format("cannot open {}: {}", path, reason(errno)));
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw input_error(fmt::format("cannot open {}: {}", path, std::strerror(EISDIR)));
  return in;
}

// Whether `in` starts with `magic`, or with as much of it as it holds (a binary
// file cut short then reads as one, truncated); `in` is rewound after looking.
// `pipe_hint` tells the caller what to use where the stream cannot be rewound.
inline bool starts_with_magic(std::istream& in, std::string_view magic, const std::string& path,
                              std::string_view pipe_hint) {
  std::string start;
  const std::size_t got = append_from(in, start, magic.size());
  const bool binary = got > 0 && magic.substr(0, got) == start;
  in.clear();
  if (!in.seekg(0)) throw input_error(fmt::format("cannot read {}: it cannot be rewound ({})", path, pipe_hint));
  return binary;
}

inline std::uint64_t load_le64(const unsigned char* p) {
  std::uint64_t x = 0;
  for (int i = 7; i >= 0; --i) x = x << 8 | p[i];
  return x;
}

inline void store_le64(unsigned char* p, std::uint64_t x) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(x >> (8 * i));
}

// ---- Text fields -------------------------------------------------------------------

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The blank-separated fields of one line, in order; an empty view after the last.
class Fields {
 public:
  explicit Fields(std::string_view line) : rest_(line) {}
  std::string_view next() {
    std::size_t i = 0;
    while (i < rest_.size() && is_blank(rest_[i])) ++i;
    std::size_t j = i;
    while (j < rest_.size() && !is_blank(rest_[j])) ++j;
    const std::string_view field = rest_.substr(i, j - i);
    rest_.remove_prefix(j);
    return field;
  }

 private:
  std::string_view rest_;
};

// The whole field as a decimal integer, or nullopt (also for out-of-range
// values, which the caller tells apart from garbage by the digits alone).
inline std::optional<std::int64_t> to_integer(std::string_view field, bool& out_of_range) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  out_of_range = ec == std::errc::result_out_of_range && end == field.data() + field.size();
  if (ec != std::errc() || end != field.data() + field.size()) return std::nullopt;
  return value;
}

// ---- Writing -----------------------------------------------------------------------

// A file being written: Error(system) naming the path and errno's reason when
// it cannot be created or a write fails (what was written before stays). Each
// write is checked as it is made, so that errno still says why.
class OutputFile {
 public:
  explicit OutputFile(const std::string& path) : path_(path) {
    errno = 0;
    out_.open(path, std::ios::binary | std::ios::trunc);
    if (!out_) throw system_error(fmt::format("cannot create {}: {}", path, reason(errno)));
  }

  void write(const void* data, std::size_t bytes) {
    errno = 0;
    out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    if (!out_) fail();
  }
  void write(std::string_view s) { write(s.data(), s.size()); }
  // For writers that take a stream: what they write is checked by finish().
  std::ostream& stream() { return out_; }

  // Closes the file, which flushes what the stream still buffers.
  void finish() {
    errno = 0;
    out_.close();
    if (!out_) fail();
  }

 private:
  [[noreturn]] void fail() const { throw system_error(fmt::format("cannot write {}: {}", path_, reason(errno))); }

  std::string path_;
  std::ofstream out_;
};

// The one way a file is written whole: created (or refused, naming the path and why, before anything is
// computed for it when the caller opens it first), filled by `body`, closed and checked.
inline void write_file(const std::string& path, const std::function<void(std::ostream&)>& body) {
  OutputFile file(path);
  body(file.stream());
  file.finish();
}

// Text lines into an OutputFile through a 1 MiB buffer, numbers formatted with
// std::to_chars: a line is built with put() and number(), ended with end_line().
// A line may hold at most kLongestLine bytes.
class LineWriter {
 public:
  static constexpr std::size_t kLongestLine = 256;

  explicit LineWriter(OutputFile& file) : file_(file), buffer_(kBuffer), p_(buffer_.data()) {}

  void put(char c) { *p_++ = c; }
  void number(std::int64_t x) { p_ = std::to_chars(p_, p_ + kLongestLine, x).ptr; }
  void end_line() {
    *p_++ = '\n';
    if (p_ >= buffer_.data() + kBuffer - kLongestLine) flush();
  }
  // Text of any length, such as a header, written past the buffer when long.
  void text(std::string_view s) {
    flush();
    file_.write(s);
  }
  void finish() {
    flush();
    file_.finish();
  }

 private:
  static constexpr std::size_t kBuffer = std::size_t{1} << 20;
  void flush() {
    file_.write(buffer_.data(), static_cast<std::size_t>(p_ - buffer_.data()));
    p_ = buffer_.data();
  }

  OutputFile& file_;
  std::vector<char> buffer_;
  char* p_;
};

}  // namespace ulibc::io
