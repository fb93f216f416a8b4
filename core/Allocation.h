#pragma once
// Allocations of grid-sized arrays that fail say what was being allocated and how big, instead of a
// bare std::bad_alloc ("std::bad_alloc" alone tells a user nothing).
#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace iso {

struct AllocationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throwAllocationError(const std::string& what, std::size_t bytes);

// Runs allocate(), turning std::bad_alloc and std::length_error into AllocationError naming `what`
// and `bytes`.
template <class F>
decltype(auto) withAllocationContext(const std::string& what, std::size_t bytes, F&& allocate) {
  try {
    return allocate();
  } catch (const std::bad_alloc&) {
    throwAllocationError(what, bytes);
  } catch (const std::length_error&) {
    throwAllocationError(what, bytes);
  }
}

// `count` elements of `value`; AllocationError naming `what` when memory runs out.
template <class Vector = std::vector<float>>
Vector allocateArray(std::size_t count, const std::string& what, typename Vector::value_type value = {}) {
  return withAllocationContext(what, count * sizeof(value), [&] { return Vector(count, value); });
}

}  // namespace iso
