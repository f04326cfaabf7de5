// graph/tuples.hpp — edge tuples that can be read more than once without
// being held: a Kronecker graph's, drawn again from its counter-based
// generator whenever they are read, or an edge list's in memory (a file's).
//
// Graph500's kernel 1 and its validator both read the tuples; a Kronecker
// graph's need not stay in memory between the two (8 bytes a tuple): a pass
// over them draws each one again, in parallel, in any order.
#pragma once
#include <cstdint>
#include <optional>

#include "graph/edge_list.hpp"
#include "graph/generator.hpp"

namespace ulibc::graph {

class Tuples {
 public:
  // The tuples of `list`, which must outlive this object (not copied).
  explicit Tuples(const EdgeList& list) : list_(&list) {}
  // kronecker(p)'s tuples, drawn when read. Error(input) as check(p).
  explicit Tuples(const KroneckerParams& p) : kron_(p) {}

  std::int64_t vertices() const { return list_ ? list_->vertices : kron_->vertices(); }
  std::int64_t size() const { return list_ ? static_cast<std::int64_t>(list_->edges.size()) : kron_->size(); }
  // The edge list when the tuples are in memory, else nullptr.
  const EdgeList* list() const { return list_; }

  // f(i, tuple i) for each i in [begin, end), in order; one loop per kind of
  // source, so that the drawing inlines into f's loop.
  template <class F>
  void for_each(std::int64_t begin, std::int64_t end, F&& f) const {
    if (list_) {
      const Edge* edges = list_->edges.data();
      for (std::int64_t i = begin; i < end; ++i) f(i, edges[i]);
    } else {
      const KroneckerTuples& draw = *kron_;
      for (std::int64_t i = begin; i < end; ++i) f(i, draw(i));
    }
  }

 private:
  const EdgeList* list_ = nullptr;
  std::optional<KroneckerTuples> kron_;
};

}  // namespace ulibc::graph
