// ulibc/cpuset.hpp — a set of processor (or node) ids, sized by its contents.
//
// Never a fixed cpu_set_t: machines with more than 1024 processors exist and
// the kernel's sysfs masks grow with them. Parsers accept exactly what the
// kernel writes (cpulist "0-3,8" and cpumap "ffffffff,0000000f") and reject
// anything else with an Error of kind input that names the bad text.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ulibc {

class CpuSet {
 public:
  // Ids above this are rejected by the parsers: far beyond any kernel's
  // NR_CPUS (8192) or MAX_NUMNODES (1024), small enough that a typo such as
  // "99999999" cannot make us allocate gigabytes.
  static constexpr int kMaxId = (1 << 16) - 1;

  CpuSet() = default;
  CpuSet(std::initializer_list<int> ids);

  // "0-3,8,10-11" (ascending or not; whitespace around the text ignored).
  static CpuSet parse_list(std::string_view text);
  // "00000000,0000ffff": comma-separated 32-bit hex words, most significant first.
  static CpuSet parse_mask(std::string_view text);

  void set(int id);
  void reset(int id);
  bool test(int id) const noexcept;
  int count() const noexcept;
  bool empty() const noexcept { return words_.empty(); }
  int first() const noexcept { return next(-1); }
  int next(int after) const noexcept;  // smallest id > after, or -1
  int last() const noexcept;           // largest id, or -1

  std::vector<int> ids() const;
  std::string to_list() const;  // canonical cpulist, "" when empty

  CpuSet operator&(const CpuSet& o) const;
  CpuSet operator|(const CpuSet& o) const;
  CpuSet operator-(const CpuSet& o) const;
  bool intersects(const CpuSet& o) const;
  bool contains(const CpuSet& o) const { return (o - *this).empty(); }
  bool operator==(const CpuSet& o) const = default;

  // Iterates ids in ascending order: for (int cpu : set) ...
  class iterator {
   public:
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const CpuSet* s, int id) : set_(s), id_(id) {}
    int operator*() const { return id_; }
    iterator& operator++() {
      id_ = set_->next(id_);
      return *this;
    }
    iterator operator++(int) {
      auto old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator& o) const { return id_ == o.id_; }

   private:
    const CpuSet* set_ = nullptr;
    int id_ = -1;
  };
  iterator begin() const { return {this, first()}; }
  iterator end() const { return {this, -1}; }

 private:
  void trim();
  std::vector<std::uint64_t> words_;  // no trailing zero words, so == compares sets
};

using NodeSet = CpuSet;

}  // namespace ulibc
