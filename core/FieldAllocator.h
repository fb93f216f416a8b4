#pragma once
// Allocator for the CPU solvers' grid-sized arrays: 64-byte aligned, so that SIMD rows can start on a
// cache line, and — for arrays of 4 MiB or more — 2 MiB aligned with transparent huge pages requested
// (madvise), because one stencil vector touches 17 planes hundreds of KiB apart and 4 KiB pages make
// that a TLB miss apiece. Where huge pages are off or unknown the request is simply ignored.
#include <cstddef>
#include <new>
#include <vector>

namespace iso {

void* allocateFieldBytes(std::size_t bytes);  // throws std::bad_alloc
void freeFieldBytes(void* p) noexcept;

template <class T>
struct FieldAllocator {
  using value_type = T;
  FieldAllocator() = default;
  template <class U>
  FieldAllocator(const FieldAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(allocateFieldBytes(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t) noexcept { freeFieldBytes(p); }
  template <class U>
  bool operator==(const FieldAllocator<U>&) const noexcept { return true; }
};

using FieldArray = std::vector<float, FieldAllocator<float>>;

}  // namespace iso
