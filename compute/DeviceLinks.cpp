#include "compute/DeviceLinks.h"

#include <algorithm>
#include <chrono>
#include <functional>

#include "compute/ClHost.h"
#include "compute/OpenClPlaneCopies.h"

namespace iso {

namespace {

using Clock = std::chrono::steady_clock;

// The median wall-clock seconds of `copy`, each time after `prepare` (untimed).
double medianSeconds(int repeats, const std::function<void()>& prepare, const std::function<void()>& copy) {
  std::vector<double> seconds;
  for (int r = 0; r < std::max(repeats, 1); ++r) {
    prepare();
    const auto start = Clock::now();
    copy();
    seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

double gbs(std::size_t bytes, double seconds) { return seconds > 0.0 ? double(bytes) / seconds / 1e9 : 0.0; }

// clEnqueueCopyBuffer from a buffer last written on `from` to one on `to`, both in one context of the two
// devices; the source is written again on `from` before every copy, so that each copy moves it anew.
double deviceCopySeconds(const ClContext& from, const ClContext& to, std::size_t bytes, int repeats) {
  cl_device_id devices[2] = {from.device(), to.device()};
  cl_int err = CL_SUCCESS;
  const ClContextHandle context(clCreateContext(nullptr, 2, devices, nullptr, nullptr, &err));
  checkCl(err, "clCreateContext", "one context of " + from.info().name + " and " + to.info().name);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  const ClQueueHandle source(clCreateCommandQueue(context.get(), devices[0], 0, &err));
  checkCl(err, "clCreateCommandQueue");
  const ClQueueHandle target(clCreateCommandQueue(context.get(), devices[1], 0, &err));
  checkCl(err, "clCreateCommandQueue");
#pragma GCC diagnostic pop
  const ClMemHandle x(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err));
  checkCl(err, "clCreateBuffer");
  const ClMemHandle y(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err));
  checkCl(err, "clCreateBuffer");
  float value = 0.0f;
  const auto write = [&] {
    value += 1.0f;
    checkCl(clEnqueueFillBuffer(source.get(), x.get(), &value, sizeof value, 0, bytes, 0, nullptr, nullptr), "clEnqueueFillBuffer");
    checkCl(clFinish(source.get()), "clFinish");
  };
  checkCl(clEnqueueFillBuffer(target.get(), y.get(), &value, sizeof value, 0, bytes, 0, nullptr, nullptr), "clEnqueueFillBuffer");
  checkCl(clFinish(target.get()), "clFinish");  // y lives on the target device from now on
  return medianSeconds(repeats, write, [&] {
    checkCl(clEnqueueCopyBuffer(target.get(), x.get(), y.get(), 0, 0, bytes, 0, nullptr, nullptr), "clEnqueueCopyBuffer");
    checkCl(clFinish(target.get()), "clFinish");
  });
}

}  // namespace

std::vector<DeviceLink> measureDeviceLinks(const std::vector<DeviceInfo>& devices, std::size_t bytes, int repeats) {
  std::vector<std::unique_ptr<ClContext>> contexts;
  std::vector<Buffer<float>> buffers;
  const std::size_t floats = bytes / sizeof(float);
  for (const DeviceInfo& d : devices) {
    contexts.push_back(std::make_unique<ClContext>(d));
    buffers.emplace_back(*contexts.back(), floats, CL_MEM_READ_WRITE, "planes for a link measurement");
    buffers.back().fill(*contexts.back(), 0.0f);
  }
  std::vector<DeviceLink> links;
  for (std::size_t a = 0; a < devices.size(); ++a) {
    const ClContext& from = *contexts[a];
    const HostPlanes host = allocatePageLocked(from, floats);  // page-locked by the source's driver
    for (std::size_t b = 0; b < devices.size(); ++b) {
      if (a == b) continue;
      const ClContext& to = *contexts[b];
      DeviceLink link;
      link.from = devices[a].selector();
      link.to = devices[b].selector();
      link.bytes = floats * sizeof(float);
      const double read = medianSeconds(repeats, [] {}, [&] { buffers[a].read(from, host.floats.data(), floats); });
      const double write = medianSeconds(repeats, [] {}, [&] { buffers[b].write(to, host.floats.data(), floats); });
      link.readGBs = gbs(link.bytes, read);
      link.writeGBs = gbs(link.bytes, write);
      link.hostPathGBs = gbs(link.bytes, read + write);
      if (devices[a].selector() == devices[b].selector()) {
        link.deviceCopyNote = "the same device";
      } else if (devices[a].platformIndex != devices[b].platformIndex) {
        link.deviceCopyNote = "different platforms share no context";
      } else {
        try {
          link.deviceCopyGBs = gbs(link.bytes, deviceCopySeconds(from, to, link.bytes, repeats));
        } catch (const ComputeError& e) {
          link.deviceCopyNote = e.what();
        }
      }
      links.push_back(link);
    }
  }
  return links;
}

}  // namespace iso
