#include "compute/Bandwidth.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "compute/ClHost.h"
#include "compute/KernelCache.h"
#include "compute/StageParams.h"

namespace iso {

namespace {

double measure(const DeviceInfo& device) {
  ClContext ctx(device);
  std::uint64_t bytes = device.type == "CPU" ? (256ull << 20) : (1ull << 30);
  bytes = std::min<std::uint64_t>({bytes, device.maxAllocBytes, device.globalMemBytes / 4});
  const std::size_t count = std::size_t(bytes / sizeof(float));
  Buffer<float> src(ctx, count, CL_MEM_READ_WRITE, "bandwidth source"), dst(ctx, count, CL_MEM_READ_WRITE, "bandwidth target");
  src.fill(ctx, 1.0f);
  dst.fill(ctx, 0.0f);
  std::vector<double> times;
  for (int i = 0; i < 8; ++i) {
    cl_event e = nullptr;
    checkCl(clEnqueueCopyBuffer(ctx.queue(), src.get(), dst.get(), 0, 0, src.bytes(), 0, nullptr, &e),
            "clEnqueueCopyBuffer", "bandwidth measurement");
    const double t = Event(e).seconds();
    if (i > 0) times.push_back(t);  // the first copy is a warm-up
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  return median > 0.0 ? 2.0 * double(src.bytes()) / median / 1e9 : 0.0;
}

}  // namespace

double copyBandwidthGBs(const DeviceInfo& device, bool remeasure) {
  const std::string dir = cacheDirectory();
  const std::string path = dir.empty() ? std::string() : dir + "/bandwidth.json";
  nlohmann::json db = nlohmann::json::object();
  if (!path.empty()) {
    std::ifstream f(path);
    if (f) db = nlohmann::json::parse(f, nullptr, false);
    if (!db.is_object()) db = nlohmann::json::object();
  }
  const std::string key = deviceKey(device);
  if (!remeasure && db.contains(key) && db[key].is_number()) return db[key].get<double>();
  const double gbs = measure(device);
  if (!path.empty()) {
    db[key] = gbs;
    std::ofstream f(path);
    f << db.dump(2) << "\n";  // a failed write only costs a re-measurement next time
  }
  return gbs;
}

}  // namespace iso
