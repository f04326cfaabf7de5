// peers/boost_peer.hpp — what the Boost Graph Library peers of the graph
// benchmarks share: handing ULIBC's CSR arrays to BGL's CSR graph, and
// reporting the Boost release and their own peak memory.
#pragma once
#include <boost/version.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "ulibc/error.hpp"

namespace ulibc::peers {

inline std::string boost_version() {
  return std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
         std::to_string(BOOST_VERSION % 100);
}

// The process's peak resident set, VmHWM: of this program alone (getrusage's
// ru_maxrss survives exec, so it would also count what the parent held).
inline long long peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;  // in kB
  return -1;
}

// The arcs of a CSR graph in order, as the (tail, head) pairs BGL's
// edges_are_sorted constructor reads in one pass: `offsets` are the row
// starts, head(i) the head of arc i (a copy-assignable functor, as BGL may
// assign iterators).
template <class VertexId, class ArcIndex, class HeadOf>
class CsrArcIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = std::pair<VertexId, VertexId>;
  using difference_type = std::ptrdiff_t;
  using pointer = const value_type*;
  using reference = const value_type&;

  CsrArcIterator(const std::vector<std::int64_t>& offsets, ArcIndex arc, HeadOf head)
      : offsets_(&offsets), arc_(arc), head_(head) {
    load_arc();
  }
  reference operator*() const { return value_; }
  pointer operator->() const { return &value_; }  // BGL reads ei->first, ei->second
  CsrArcIterator& operator++() {
    ++arc_;
    load_arc();
    return *this;
  }
  bool operator==(const CsrArcIterator& o) const { return arc_ == o.arc_; }
  bool operator!=(const CsrArcIterator& o) const { return arc_ != o.arc_; }

 private:
  void load_arc() {  // find the row holding arc_, if there is one
    const std::vector<std::int64_t>& start = *offsets_;
    const std::size_t n = start.size() - 1;
    if (arc_ >= static_cast<ArcIndex>(start.back())) return;
    while (tail_ < n && static_cast<ArcIndex>(start[tail_ + 1]) <= arc_) ++tail_;
    value_ = {tail_, static_cast<VertexId>(head_(arc_))};
  }
  const std::vector<std::int64_t>* offsets_;
  ArcIndex arc_;
  HeadOf head_;
  VertexId tail_ = 0;
  value_type value_{};
};

// A driver's work after its options are parsed: its exit status, or on a
// ulibc::Error its message and 2 for bad input (1 otherwise), 1 when out of memory.
template <class Body>
int run_reporting_errors(const char* program, Body&& body) {
  try {
    return body();
  } catch (const ulibc::Error& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return e.kind() == ulibc::ErrorKind::input ? 2 : 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory\n", program);
    return 1;
  }
}

}  // namespace ulibc::peers
