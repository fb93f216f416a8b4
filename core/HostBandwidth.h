#pragma once
// The host's measured memory copy bandwidth: the roofline ceiling for the CPU stages (docs/METRICS.md).
// Measured once per machine and kept in the cache directory (CacheDirectory.h), so that a run does
// not spend memory and half a second on it every time.
#include <cstddef>
#include <optional>
#include <string>

namespace iso {

struct HostBandwidth {
  double minGBs = 0.0, medianGBs = 0.0, maxGBs = 0.0;  // over the passes, bytes read plus written
  int passes = 0;
  std::size_t bufferBytes = 0;  // each of the two buffers copied between
  int threads = 0;
  std::string machine;  // what the measurement is valid for: CPU model, hardware threads, memory
  std::string date;     // UTC, ISO 8601
};

// The size of each of the two buffers the probe copies between, sized to the machine: an eighth of
// the available memory (SystemMemory.h), within 4 to 256 MiB.
std::size_t hostBandwidthBufferBytes();

// Copies between two buffers of bufferBytes with every hardware thread, `passes` times.
HostBandwidth measureHostBandwidth(int passes, std::size_t bufferBytes);

// The measurement stored in `cacheFile` when it was made on this machine and `remeasure` is false;
// otherwise a new one (7 passes), stored there (atomically; a file that cannot be written is only a lost
// optimisation).
HostBandwidth cachedHostBandwidth(const std::string& cacheFile, std::size_t bufferBytes = hostBandwidthBufferBytes(),
                                  bool remeasure = false);

// cachedHostBandwidth(cacheDirectory()/host-bandwidth.json): read once per process, or measured again
// and stored with `remeasure` (what later calls then return).
HostBandwidth hostCopyBandwidth(bool remeasure = false);

// The measurement there is without measuring: this process's, or the cache file's (a damaged file is set
// aside, CacheDirectory.h); nothing when there is none for this machine.
std::optional<HostBandwidth> storedHostBandwidth();
// The measurement `cacheFile` holds for this machine, read the same way.
std::optional<HostBandwidth> storedHostBandwidth(const std::string& cacheFile);

// hostCopyBandwidth().medianGBs, in GB/s.
double hostCopyBandwidthGBs();

}  // namespace iso
