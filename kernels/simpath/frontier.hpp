// simpath/frontier.hpp — the frontier of each step and Simpath's "mate" rule.
//
// Deciding the edges e_0, e_1, … in turn, the search at step i knows, for
// each frontier vertex (touched by a decided edge, with an edge still to
// decide), where the path piece through it ends: its "mate" (Knuth). A state
// is the mates of the frontier, one byte per frontier slot:
//   mate == own slot   no chosen edge at the vertex yet (degree 0)
//   mate == kInterior  two chosen edges: the vertex is inside a piece
//   mate == other slot the vertex ends a piece whose other end is that slot
//   mate == kToS/kToT  the vertex ends a piece whose other end is s / t,
//                      which have left the frontier
// Equal states have equal futures, so the search keeps one node per state and
// step. A state goes to the 0-terminal as soon as it cannot become an s-t
// path (a degree-3 vertex, a cycle, s or t with two edges or none when they
// leave, a piece end leaving the frontier) and to the 1-terminal when the
// piece from s reaches t with no other piece open.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>
#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif

#include "simpath/path_problem.hpp"

namespace ulibc::simpath::detail {

using Mate = std::uint8_t;
inline constexpr int kMaxFrontier = 248;  // slots of a state; the byte values above are codes
inline constexpr Mate kInterior = 255;
inline constexpr Mate kToS = 254;
inline constexpr Mate kToT = 253;
inline constexpr Mate kAbsent = 252;  // s_slot / t_slot of an end not on the frontier

// Sixteen mates in one vector register (GCC's and Clang's vector extension).
using Lanes = std::uint8_t __attribute__((vector_size(16)));

// Step i's frontier layout. The working layout is the state's slots with the
// edge's entering ends appended; after the decision the leaving ends (only
// the edge's own ends can leave) are dropped and later slots move down.
struct Step {
  std::uint8_t width = 0;                           // slots of a state before the step
  std::uint8_t work_width = 0;                      // with the entering ends
  std::uint8_t next_width = 0;                      // slots of a state after the step
  std::uint8_t u = 0, v = 0;                        // the edge's ends, as working slots
  std::uint8_t s_slot = kAbsent, t_slot = kAbsent;  // working slots of s and t
  bool u_leaves = false, v_leaves = false;
  bool last = false;  // the final step: a state still open after it is a 0
  // For a working layout of at most 16 slots: lane p holds p for each
  // entering slot p (0 elsewhere); lane p of `renumber` slot p's number once
  // the leaving slots are gone; lane q of `gather` the working slot that
  // becomes slot q (0x80 beyond next_width: a zero lane).
  Lanes enter{};
  Lanes renumber{};
  Lanes gather{};
};

class FrontierPlan {
 public:
  // Error(input) when the frontier of this order grows beyond kMaxFrontier
  // (naming the step and the width): such a search could not finish anyway.
  FrontierPlan(const PathProblem& problem, std::vector<PathEdge> order);

  int steps() const { return static_cast<int>(steps_.size()); }
  const Step& step(int i) const { return steps_[i]; }
  const std::vector<PathEdge>& edges() const { return edges_; }  // step i decides edges()[i]
  int max_width() const { return max_width_; }                   // the widest working layout
  // 64-bit words a state before step i takes: its width rounded up, at least
  // two (child() reads narrow states 16 bytes at a time); the padding bytes
  // are zero, so states compare and hash as words.
  int state_words(int i) const { return i < steps() ? words(steps_[i].width) : 0; }
  static int words(int width) { return width <= 16 ? 2 : (width + 7) / 8; }

 private:
  std::vector<Step> steps_;
  std::vector<PathEdge> edges_;
  int max_width_ = 0;
};

enum class Outcome : std::uint8_t { zero, one, node };

// The working mates, read and written through get/set: bytes in memory for
// any width, or, for at most 16 slots, one vector register (writing bytes and
// reading them back as a vector stalled every child).
struct ByteMates {
  Mate* w;
  Mate get(int p) const { return w[p]; }
  void set(int p, Mate m) { w[p] = m; }
};
struct ByteView {
  const Mate* w;
  Mate get(int p) const { return w[p]; }
};
inline constexpr Lanes kLaneIds = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
struct LaneMates {
  Lanes x;
  Mate get(int p) const { return x[p]; }
  void set(int p, Mate m) {
    const auto at = reinterpret_cast<Lanes>(kLaneIds == static_cast<std::uint8_t>(p));
    x = (x & ~at) | (at & static_cast<std::uint8_t>(m));
  }
};

template <class Mates>
int degree(const Mates& w, int slot) {
  const Mate m = w.get(slot);
  return m == slot ? 0 : m == kInterior ? 2 : 1;
}
inline bool is_s(const Step& st, Mate end) { return end == kToS || end == st.s_slot; }
inline bool is_t(const Step& st, Mate end) { return end == kToT || end == st.t_slot; }
inline bool is_terminal_end(const Step& st, int slot) { return slot == st.s_slot || slot == st.t_slot; }

// Adds edge {u, v} to the working mates.
template <class Mates>
Outcome take_edge(const Step& st, Mates& w) {
  const int u = st.u, v = st.v;
  const int du = degree(w, u), dv = degree(w, v);
  if (du == 2 || dv == 2) return Outcome::zero;
  if ((du == 1 && is_terminal_end(st, u)) || (dv == 1 && is_terminal_end(st, v))) return Outcome::zero;
  if (du == 1 && w.get(u) == v) return Outcome::zero;        // u and v end the same piece: a cycle
  const Mate a = du == 0 ? static_cast<Mate>(u) : w.get(u);  // the far ends of the joined piece
  const Mate b = dv == 0 ? static_cast<Mate>(v) : w.get(v);
  if (du == 1) w.set(u, kInterior);
  if (dv == 1) w.set(v, kInterior);
  if ((is_s(st, a) && is_t(st, b)) || (is_t(st, a) && is_s(st, b))) {
    // The s-t path is whole: a path only if no other piece is open.
    for (int p = 0; p < st.work_width; ++p)
      if (w.get(p) != p && w.get(p) != kInterior && !is_terminal_end(st, p)) return Outcome::zero;
    return Outcome::one;
  }
  if (a < kMaxFrontier) w.set(a, b);
  if (b < kMaxFrontier) w.set(b, a);
  return Outcome::node;
}

// Whether taking the step's edge leaves `state` (before the step) a chance
// of an s-t path: take_edge and leave's tests, without building the child.
inline bool can_take(const Step& st, const Mate* state) {
  const ByteView w{state};
  const int u = st.u, v = st.v;
  const int du = u < st.width ? degree(w, u) : 0, dv = v < st.width ? degree(w, v) : 0;
  if (du == 2 || dv == 2) return false;
  if ((du == 1 && is_terminal_end(st, u)) || (dv == 1 && is_terminal_end(st, v))) return false;
  if (du == 1 && state[u] == v) return false;
  const Mate a = du == 0 ? static_cast<Mate>(u) : state[u];
  const Mate b = dv == 0 ? static_cast<Mate>(v) : state[v];
  if ((is_s(st, a) && is_t(st, b)) || (is_t(st, a) && is_s(st, b))) {
    for (int p = 0; p < st.width; ++p)
      if (p != u && p != v && state[p] != p && state[p] != kInterior && !is_terminal_end(st, p)) return false;
    return true;  // the 1-terminal
  }
  // A leaving end must have two edges, or s and t one, once this edge is in.
  const auto may_leave = [&](int slot, int d) { return is_terminal_end(st, slot) ? d == 0 : d == 1; };
  if (st.u_leaves && !may_leave(u, du)) return false;
  if (st.v_leaves && !may_leave(v, dv)) return false;
  return !st.last;
}

// The edge's end at `slot` leaves the frontier.
template <class Mates>
bool leave(const Step& st, Mates& w, int slot) {
  const int d = degree(w, slot);
  if (!is_terminal_end(st, slot)) return d != 1;
  if (d != 1) return false;
  w.set(w.get(slot), slot == st.s_slot ? kToS : kToT);  // the partner is a slot: s-t pieces ended at the 1
  return true;
}

// Takes the edge if asked and drops the leaving ends; Outcome::node when the
// mates still stand for a state.
template <class Mates>
Outcome decide(const Step& st, Mates& w, bool take) {
  if (take) {
    const Outcome o = take_edge(st, w);
    if (o != Outcome::node) return o;
  }
  if (st.u_leaves && !leave(st, w, st.u)) return Outcome::zero;
  if (st.v_leaves && !leave(st, w, st.v)) return Outcome::zero;
  return st.last ? Outcome::zero : Outcome::node;
}

// The working mates without the leaving slots lu and lv (255: none), slot
// numbers above them moved down, into `out`, zero-padded to whole words.
inline void compact(const Step& st, const Mate* w, int lu, int lv, Mate* out) {
  int q = 0;
  for (int p = 0; p < st.work_width; ++p) {
    if (p == lu || p == lv) continue;
    const Mate m = w[p];
    out[q++] = m < kMaxFrontier ? static_cast<Mate>(m - (m > lu) - (m > lv)) : m;
  }
  std::memset(out + q, 0, static_cast<std::size_t>(FrontierPlan::words(q)) * 8 - q);
}

// The same for at most 16 slots in lanes: each slot number is looked up in
// `renumber` (codes, whose high bit is set, stay), then the lanes are
// gathered into their new places.
inline Lanes compact_lanes(const Step& st, Lanes x) {
#if defined(__SSSE3__)
  const __m128i m = reinterpret_cast<__m128i>(x);
  const __m128i codes = _mm_cmplt_epi8(m, _mm_setzero_si128());
  const __m128i renumbered =
      _mm_or_si128(_mm_and_si128(m, codes), _mm_shuffle_epi8(reinterpret_cast<__m128i>(st.renumber), m));
  return reinterpret_cast<Lanes>(_mm_shuffle_epi8(renumbered, reinterpret_cast<__m128i>(st.gather)));
#else
  Lanes out{};
  for (int q = 0; q < 16; ++q)
    if (st.gather[q] < 16) {
      const Mate m = x[st.gather[q]];
      out[q] = m < 16 ? st.renumber[m] : m;
    }
  return out;
#endif
}

// The child of `state` (a state before step `st`) when the step's edge is
// taken or not. For Outcome::node the child state, padded with zero bytes to
// whole words, is written to `out`, which must hold the next step's words
// and at least 16 bytes.
[[gnu::always_inline]] inline Outcome child(const Step& st, const Mate* state, bool take, Mate* out) {
  if (st.work_width <= 16) {
    LaneMates w;
    std::memcpy(&w.x, state, 16);  // states are at least 16 bytes (FrontierPlan::words), zero-padded
    w.x |= st.enter;
    const Outcome o = decide(st, w, take);
    if (o == Outcome::node) {
      const Lanes next = compact_lanes(st, w.x);
      std::memcpy(out, &next, 16);
    }
    return o;
  }
  Mate bytes[256];
  std::memcpy(bytes, state, st.width);
  for (int p = st.width; p < st.work_width; ++p) bytes[p] = static_cast<Mate>(p);
  ByteMates w{bytes};
  const Outcome o = decide(st, w, take);
  if (o == Outcome::node) compact(st, bytes, st.u_leaves ? st.u : 255, st.v_leaves ? st.v : 255, out);
  return o;
}

}  // namespace ulibc::simpath::detail
