#pragma once
// The host's measured memory copy bandwidth: the roofline ceiling for the CPU stages (docs/METRICS.md).

namespace iso {

// Copies a 256 MiB buffer with every hardware thread, counting bytes read plus bytes written; the
// median of several passes, in GB/s. Measured once per process (about half a second), then remembered.
double hostCopyBandwidthGBs();

}  // namespace iso
