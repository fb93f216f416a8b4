#pragma once
// How fast planes move from one device to another, by the two paths a grid cut into slabs could use:
// through page-locked host memory (a read on one device's queue, a write on the other's: what the slabs
// do, core/DecomposedSolver.h), and by clEnqueueCopyBuffer between two buffers of one context holding
// both devices (the driver's device-to-device path, peer-to-peer where it has one). `iso3dfd devices
// --links` prints them; docs/SCALING.md compares them with what hiding the exchange takes.
#include <cstddef>
#include <string>
#include <vector>

#include "compute/DeviceRegistry.h"

namespace iso {

struct DeviceLink {
  std::string from, to;          // selectors
  std::size_t bytes = 0;         // of one copy
  double readGBs = 0.0;          // device -> page-locked host memory (the source device's queue)
  double writeGBs = 0.0;         // page-locked host memory -> device (the destination device's queue)
  double hostPathGBs = 0.0;      // the two one after the other: bytes / (read + write time)
  double deviceCopyGBs = 0.0;    // clEnqueueCopyBuffer in one context of both devices (0: not possible)
  std::string deviceCopyNote;    // why there is no figure, when there is none
};

// Every ordered pair of `devices` (distinct devices of one platform for the device-to-device path), the
// median of `repeats` copies of `bytes` each. Throws ComputeError when a device cannot be used.
std::vector<DeviceLink> measureDeviceLinks(const std::vector<DeviceInfo>& devices, std::size_t bytes, int repeats = 5);

}  // namespace iso
