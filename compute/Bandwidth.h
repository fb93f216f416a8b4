#pragma once
// The device's copy bandwidth: the roofline ceiling of the stencil stages (docs/METRICS.md).
#include "compute/DeviceRegistry.h"

namespace iso {

// clEnqueueCopyBuffer of a large buffer (1 GiB on GPUs, 256 MiB on CPU devices, less where the device
// allows less), bytes read + written over the median of 7 timed copies, in GB/s (1e9). Measured once per
// device and driver, then read from the cache dir (bandwidth.json) unless `remeasure`.
double copyBandwidthGBs(const DeviceInfo& device, bool remeasure = false);

}  // namespace iso
