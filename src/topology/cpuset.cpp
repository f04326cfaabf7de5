// topology/cpuset.cpp — CpuSet and the kernel's cpulist and cpumap formats.
#include "ulibc/cpuset.hpp"

#include <bit>
#include <charconv>

#include "ulibc/error.hpp"

namespace ulibc {

namespace {

constexpr int kBits = 64;

std::string_view trim_space(std::string_view s) {
  const char* ws = " \t\r\n";
  auto b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

[[noreturn]] void bad(std::string_view kind, std::string_view text, std::string_view why) {
  throw input_error("bad " + std::string(kind) + " \"" + std::string(text) + "\": " + std::string(why));
}

int parse_id(std::string_view token, std::string_view whole) {
  if (token.empty()) bad("cpulist", whole, "missing number");
  // from_chars takes a sign; the kernel never writes one ("0--0" is not a range).
  if (token.front() < '0' || token.front() > '9')
    bad("cpulist", whole, "\"" + std::string(token) + "\" is not a non-negative integer");
  int value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && value > CpuSet::kMaxId))
    bad("cpulist", whole, "id " + std::string(token) + " exceeds " + std::to_string(CpuSet::kMaxId));
  if (ec != std::errc() || end != token.data() + token.size())
    bad("cpulist", whole, "\"" + std::string(token) + "\" is not a non-negative integer");
  return value;
}

}  // namespace

CpuSet::CpuSet(std::initializer_list<int> ids) {
  for (int id : ids) set(id);
}

CpuSet CpuSet::parse_list(std::string_view text) {
  const std::string_view whole = trim_space(text);
  CpuSet out;
  if (whole.empty()) return out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = whole.find(',', pos);
    const std::string_view item = whole.substr(pos, comma == std::string_view::npos ? whole.npos : comma - pos);
    const std::size_t dash = item.find('-');
    const int lo = parse_id(item.substr(0, dash), whole);
    const int hi = dash == std::string_view::npos ? lo : parse_id(item.substr(dash + 1), whole);
    if (hi < lo) bad("cpulist", whole, "range " + std::string(item) + " runs backwards");
    for (int id = lo; id <= hi; ++id) out.set(id);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return out;
}

CpuSet CpuSet::parse_mask(std::string_view text) {
  const std::string_view whole = trim_space(text);
  CpuSet out;
  if (whole.empty()) return out;
  // Words are written most significant first; count them to know each one's weight.
  std::size_t nwords = 1;
  for (char c : whole) nwords += c == ',';
  if ((nwords - 1) * 32 > static_cast<std::size_t>(kMaxId) + 1)
    bad("cpumap", whole, "more than " + std::to_string(kMaxId + 1) + " bits");
  std::size_t pos = 0;
  for (std::size_t w = nwords; w-- > 0;) {
    const std::size_t comma = whole.find(',', pos);
    const std::string_view word = whole.substr(pos, comma == std::string_view::npos ? whole.npos : comma - pos);
    if (word.empty() || word.size() > 8) bad("cpumap", whole, "each word must be 1 to 8 hex digits");
    std::uint32_t bits = 0;
    auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), bits, 16);
    if (ec != std::errc() || end != word.data() + word.size())
      bad("cpumap", whole, "\"" + std::string(word) + "\" is not hexadecimal");
    // A whole word at once: a large machine's masks are long, mostly zeros.
    if (bits != 0) {
      const std::size_t at = w * 32 / kBits;
      if (at >= out.words_.size()) out.words_.resize(at + 1, 0);
      out.words_[at] |= std::uint64_t{bits} << (w * 32 % kBits);
    }
    pos = comma + 1;
  }
  return out;
}

void CpuSet::set(int id) {
  if (id < 0 || id > kMaxId) throw input_error("processor/node id " + std::to_string(id) + " out of range");
  const std::size_t w = static_cast<std::size_t>(id) / kBits;
  if (w >= words_.size()) words_.resize(w + 1, 0);
  words_[w] |= std::uint64_t{1} << (id % kBits);
}

void CpuSet::reset(int id) {
  if (!test(id)) return;
  words_[static_cast<std::size_t>(id) / kBits] &= ~(std::uint64_t{1} << (id % kBits));
  trim();
}

bool CpuSet::test(int id) const noexcept {
  if (id < 0) return false;
  const std::size_t w = static_cast<std::size_t>(id) / kBits;
  return w < words_.size() && (words_[w] >> (id % kBits) & 1u);
}

int CpuSet::count() const noexcept {
  int n = 0;
  for (auto w : words_) n += std::popcount(w);
  return n;
}

int CpuSet::next(int after) const noexcept {
  int id = after + 1;
  std::size_t w = static_cast<std::size_t>(id) / kBits;
  if (w >= words_.size()) return -1;
  std::uint64_t bits = words_[w] & (~std::uint64_t{0} << (id % kBits));
  while (bits == 0) {
    if (++w == words_.size()) return -1;
    bits = words_[w];
  }
  return static_cast<int>(w * kBits) + std::countr_zero(bits);
}

int CpuSet::last() const noexcept {
  if (words_.empty()) return -1;
  return static_cast<int>(words_.size() * kBits) - 1 - std::countl_zero(words_.back());
}

std::vector<int> CpuSet::ids() const {
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(count()));
  for (int id : *this) out.push_back(id);
  return out;
}

std::string CpuSet::to_list() const {
  std::string out;
  for (int lo = first(); lo >= 0;) {
    int hi = lo;
    while (test(hi + 1)) ++hi;
    if (!out.empty()) out += ',';
    out += std::to_string(lo);
    if (hi > lo) out += '-' + std::to_string(hi);
    lo = next(hi);
  }
  return out;
}

CpuSet CpuSet::operator&(const CpuSet& o) const {
  CpuSet r;
  r.words_.resize(std::min(words_.size(), o.words_.size()));
  for (std::size_t i = 0; i < r.words_.size(); ++i) r.words_[i] = words_[i] & o.words_[i];
  r.trim();
  return r;
}

CpuSet CpuSet::operator|(const CpuSet& o) const {
  CpuSet r = words_.size() >= o.words_.size() ? *this : o;
  const CpuSet& small = words_.size() >= o.words_.size() ? o : *this;
  for (std::size_t i = 0; i < small.words_.size(); ++i) r.words_[i] |= small.words_[i];
  return r;
}

CpuSet CpuSet::operator-(const CpuSet& o) const {
  CpuSet r = *this;
  for (std::size_t i = 0; i < std::min(r.words_.size(), o.words_.size()); ++i) r.words_[i] &= ~o.words_[i];
  r.trim();
  return r;
}

bool CpuSet::intersects(const CpuSet& o) const { return !(*this & o).empty(); }

void CpuSet::trim() {
  while (!words_.empty() && words_.back() == 0) words_.pop_back();
}

}  // namespace ulibc
