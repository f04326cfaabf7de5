// harness/page_array.hpp — large arrays taken from the kernel and handed back the moment they are freed.
//
// The C allocator keeps what is freed for its next requests. A kernel that frees a large structure piece
// by piece while it builds another (Simpath's search diagram while its ZDD grows) leaves the freed pieces
// scattered among live blocks, where no trim can return them: the process stays as large as both. Arrays
// of at least kPageArrayBytes are mapped whole instead (untouched pages cost nothing) and unmapped when
// freed; smaller ones come from the allocator.
#pragma once
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "ulibc/process_memory.hpp"

namespace ulibc::harness {

inline constexpr std::size_t kPageArrayBytes = std::size_t{1} << 20;

// n elements of a trivial type, not initialised.
template <class T>
class PageArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  PageArray() = default;
  explicit PageArray(std::size_t n)
      : size_(n), data_(n * sizeof(T) >= kPageArrayBytes ? static_cast<T*>(map_pages(n * sizeof(T))) : new T[n]) {}
  PageArray(PageArray&& o) noexcept : size_(std::exchange(o.size_, 0)), data_(std::exchange(o.data_, nullptr)) {}
  PageArray& operator=(PageArray&& o) noexcept {
    if (this != &o) {
      free();
      size_ = std::exchange(o.size_, 0);
      data_ = std::exchange(o.data_, nullptr);
    }
    return *this;
  }
  ~PageArray() { free(); }

  std::size_t size() const { return size_; }
  T* get() { return data_; }
  const T* get() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  void free() noexcept {
    if (size_ * sizeof(T) >= kPageArrayBytes)
      unmap_pages(data_, size_ * sizeof(T));
    else
      delete[] data_;
    size_ = 0;
    data_ = nullptr;
  }

  std::size_t size_ = 0;
  T* data_ = nullptr;
};

}  // namespace ulibc::harness
