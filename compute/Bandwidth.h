#pragma once
// The device's roofline ceilings (docs/METRICS.md): its copy bandwidth, the ceiling of the stencil
// stages, and its measured FMA throughput, the compute ceiling of a roofline plot. Each is measured once
// per device and driver and kept with its spread and date in the cache dir (bandwidth.json, written
// whole through core/OutputFile), so that a run does not spend time on it.
#include <cstddef>
#include <optional>
#include <string>

#include "compute/DeviceRegistry.h"

namespace iso {

enum class CeilingProbe {
  // clEnqueueCopyBuffer of a large buffer (copyProbeBytes: 1 GiB on GPUs, 256 MiB on CPU devices, less
  // where the device or the free memory allows less): bytes read + written per second, GB/s (1e9).
  Copy,
  // A kernel of 8 independent float4 fma() chains per work-item (2 flop per lane and fma), enough
  // work-items to fill every compute unit, sized to about 30 ms: GFLOP/s. A measured single-precision
  // peak, since compute units × clock × lanes from the driver is not reliable (OpenCL reports neither
  // the lanes per unit nor a boost clock, and PoCL's CPU units are hardware threads).
  Fma,
};

// A probe's rate over its timed runs (7, after an untimed warm-up), and when it was measured.
struct CeilingMeasurement {
  double min = 0.0, median = 0.0, max = 0.0;
  int runs = 0;
  std::string date;  // UTC, ISO 8601
};

// Read from the cache unless `remeasure` or the entry is missing or damaged; then measured and stored
// (a cache that cannot be written costs one measurement per process). Throws ComputeError when the
// device cannot run the probe.
CeilingMeasurement measuredCeiling(const DeviceInfo& device, CeilingProbe probe, bool remeasure = false);

// The measurement there is without measuring: this process's own, or the cache's. A cache file that
// cannot be read (damaged, too large or deep) is set aside (CacheDirectory.h) and is measured again.
std::optional<CeilingMeasurement> storedCeiling(const DeviceInfo& device, CeilingProbe probe);

// The memory the copy probe takes on this device, both buffers: a CPU device's are host memory, so
// they are sized to what is free (at most a quarter of it), a run on the host must not fail for them.
std::size_t copyProbeBytes(const DeviceInfo& device);

// measuredCeiling(device, CeilingProbe::Copy, remeasure).median.
double copyBandwidthGBs(const DeviceInfo& device, bool remeasure = false);

}  // namespace iso
