#include "app/studio/HostMemoryRoof.h"

#include <chrono>

#include "app/studio/BenchmarkCharts.h"
#include "core/HostBandwidth.h"

namespace iso {

HostMemoryRoof::HostMemoryRoof() : gbs_(std::async(std::launch::async, [] { return hostCopyBandwidthGBs(); }).share()) {}

double HostMemoryRoof::gbs() const {
  return gbs_.wait_for(std::chrono::seconds(0)) == std::future_status::ready ? gbs_.get() : 0.0;
}

Throughput HostMemoryRoof::throughputOf(const ControllerStatus& status) const {
  if (!status.onHostCores || status.ceilingName == kHostCeilingName || gbs() <= 0.0) return status.throughput;
  return onOtherCeiling(status.throughput, gbs());
}

}  // namespace iso
