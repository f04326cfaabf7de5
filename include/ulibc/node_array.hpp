// ulibc/node_array.hpp — an array spread over the nodes of a mapping.
//
// One contiguous range of virtual memory, so a[i] is plain indexing, whose
// part for node index k is bound (mbind, strict) to that node: node k's part
// holds the elements of NodePartition::node_range(k), each thread's own
// elements are thread_range(t). The paper's Fig. 6 Triad becomes
//   NodeArray<double> a(topo, map, n), b(...), c(...);
//   run_team(map, [&](const Placement& p) {
//     for (auto i : a.thread_range(p.thread)) a[i] = b[i] + s * c[i]; });
// Under policy none nothing is bound and placement is left to first touch.
#pragma once
#include <complex>
#include <cstddef>
#include <span>
#include <type_traits>

#include "ulibc/affinity.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/partition.hpp"

namespace ulibc {

// The untyped storage behind NodeArray: allocation and binding of the parts.
class NodeStorage {
 public:
  NodeStorage() = default;
  // Node parts in proportion to the mapping's threads, or beginning at
  // `node_begins` (NodePartition's two constructors) when that is not empty.
  NodeStorage(const Topology& topo, const Mapping& map, std::size_t count, std::size_t elem_size, PageKind pages,
              std::span<const std::size_t> node_begins = {});
  // The partition such storage gets, without allocating: node parts aligned
  // so that each starts on a page of `pages`. Error(input) for count 0.
  static NodePartition layout(const Mapping& map, std::size_t count, std::size_t elem_size, PageKind pages,
                              std::span<const std::size_t> node_begins = {});
  void* data() const { return buffer_.data(); }
  const NodePartition& partition() const { return partition_; }
  const NumaBuffer& buffer() const { return buffer_; }

 private:
  NumaBuffer buffer_;
  NodePartition partition_;
};

// Types whose value is all zero bytes before anything is written: plain data,
// and std::complex, whose default value (0, 0) is zero bytes.
template <class T>
struct starts_as_zeros : std::is_trivially_default_constructible<T> {};
template <class F>
struct starts_as_zeros<std::complex<F>> : std::is_floating_point<F> {};

template <class T>
class NodeArray {
  static_assert(std::is_trivially_copyable_v<T> && starts_as_zeros<T>::value,
                "NodeArray holds plain data: its pages start as zeros");

 public:
  // Index iteration over a Range: for (std::size_t i : a.thread_range(t)).
  class Indices {
   public:
    explicit Indices(Range r) : r_(r) {}
    struct iterator {
      std::size_t i;
      std::size_t operator*() const { return i; }
      iterator& operator++() {
        ++i;
        return *this;
      }
      bool operator==(const iterator&) const = default;
    };
    iterator begin() const { return {r_.begin}; }
    iterator end() const { return {r_.end}; }
    Range range() const { return r_; }

   private:
    Range r_;
  };

  NodeArray() = default;
  NodeArray(const Topology& topo, const Mapping& map, std::size_t n, PageKind pages = PageKind::normal)
      : storage_(topo, map, n, sizeof(T), pages), map_(map) {}
  // Node k's part beginning at element node_begins[k] (on the page that holds it), for work that is not spread
  // in proportion to threads: tasks::adws_node_begins gives where ADWS runs a loop.
  NodeArray(const Topology& topo, const Mapping& map, std::size_t n, std::span<const std::size_t> node_begins,
            PageKind pages = PageKind::normal)
      : storage_(topo, map, n, sizeof(T), pages, node_begins), map_(map) {}

  T* data() const { return static_cast<T*>(storage_.data()); }
  std::size_t size() const { return storage_.partition().size(); }
  T& operator[](std::size_t i) const { return data()[i]; }

  const NodePartition& partition() const { return storage_.partition(); }
  const NumaBuffer& buffer() const { return storage_.buffer(); }
  Indices node_range(int node_index) const { return Indices(partition().node_range(node_index)); }
  Indices thread_range(int thread) const { return Indices(partition().thread_range(thread)); }
  std::span<T> node_part(int node_index) const { return span_of(partition().node_range(node_index)); }
  std::span<T> thread_part(int thread) const { return span_of(partition().thread_range(thread)); }

  // Parallel first touch: every thread of the mapping, bound, writes `value`
  // over its own range (faults its pages in on its node, in parallel).
  void fill(const T& value) {
    run_team(map_, [&](const Placement& p) {
      for (T& x : thread_part(p.thread)) x = value;
    });
  }

 private:
  std::span<T> span_of(Range r) const { return {data() + r.begin, r.size()}; }
  NodeStorage storage_;
  Mapping map_;
};

}  // namespace ulibc
