#include "core/Allocation.h"

#include "core/Format.h"

namespace iso {

void throwAllocationError(const std::string& what, std::size_t bytes) {
  throw AllocationError("out of memory: cannot allocate " + what + " (" + byteSize(double(bytes)) + ")");
}

}  // namespace iso
