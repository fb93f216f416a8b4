#include "Allocation.h"

#include <cstdio>

namespace iso {

std::string byteSize(double bytes) {
  constexpr double kKiB = 1024.0, kMiB = kKiB * 1024.0, kGiB = kMiB * 1024.0, kTiB = kGiB * 1024.0;
  char buf[48];
  if (bytes >= kTiB)
    std::snprintf(buf, sizeof buf, "%.2f TiB", bytes / kTiB);
  else if (bytes >= kGiB)
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / kGiB);
  else if (bytes >= kMiB)
    std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / kMiB);
  else if (bytes >= kKiB)
    std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / kKiB);
  else
    std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
  return buf;
}

void throwAllocationError(const std::string& what, std::size_t bytes) {
  throw AllocationError("out of memory: cannot allocate " + what + " (" + byteSize(double(bytes)) + ")");
}

}  // namespace iso
