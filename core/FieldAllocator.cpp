#include "core/FieldAllocator.h"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace iso {

namespace {
constexpr std::size_t kCacheLine = 64;
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kHugePageThreshold = std::size_t(4) << 20;
}  // namespace

void* allocateFieldBytes(std::size_t bytes) {
  const bool huge = bytes >= kHugePageThreshold;
  const std::size_t alignment = huge ? kHugePage : kCacheLine;
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;  // aligned_alloc needs it
  void* p = std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
  if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (huge) madvise(p, rounded, MADV_HUGEPAGE);  // a hint: failure only means small pages
#endif
  return p;
}

void freeFieldBytes(void* p) noexcept { std::free(p); }

}  // namespace iso
