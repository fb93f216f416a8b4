#pragma once
// One memory roof per physical memory: a stage that runs on the host's cores, a CPU stage or an OpenCL
// stage on a CPU device (PoCL), is measured against the host's copy bandwidth, so that their % of
// roofline compare. The counters of an OpenCL stage on a CPU device come with its own device copy
// bandwidth; this puts them on the host's. The host's bandwidth is read from the cache (or measured
// once, half a second) off the GUI thread.
#include <future>

#include "app/controller/SimulationController.h"

namespace iso {

class HostMemoryRoof {
 public:
  HostMemoryRoof();
  // GB/s, 0 until known.
  double gbs() const;
  // The run's throughput against the roof of the memory it ran on: the host's for the host's cores
  // (unchanged until the host's bandwidth is known), the device's otherwise.
  Throughput throughputOf(const ControllerStatus& status) const;

 private:
  std::shared_future<double> gbs_;
};

}  // namespace iso
