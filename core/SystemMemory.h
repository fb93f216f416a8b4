#pragma once
// How much memory this process can still use, for checks made before large allocations.
#include <cstddef>
#include <string>

namespace iso {

// The kernel's MemAvailable estimate (/proc/meminfo), lowered to the room left under the memory limit
// of this process's control group (cgroup v2 memory.max or v1 memory.limit_in_bytes, at every level
// of the hierarchy: a container's limit is usually set above the process's own group), and to the room
// under its address-space limit (RLIMIT_AS, `ulimit -v`). 0 when unknown.
std::size_t availableMemoryBytes();

// Throws ScenarioError "<what> needs <size> of memory, but only <size> is available ..." when `bytes`
// exceed availableMemoryBytes() (nothing is checked when that is unknown).
void requireAvailableMemory(std::size_t bytes, const std::string& what);

}  // namespace iso
