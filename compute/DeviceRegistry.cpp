#include "compute/DeviceRegistry.h"

#include <CL/cl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "compute/ClError.h"

namespace iso {

namespace {

std::string platformString(cl_platform_id p, cl_platform_info what) {
  std::size_t n = 0;
  checkCl(clGetPlatformInfo(p, what, 0, nullptr, &n), "clGetPlatformInfo");
  std::string s(n, '\0');
  checkCl(clGetPlatformInfo(p, what, n, s.data(), nullptr), "clGetPlatformInfo");
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string deviceString(cl_device_id d, cl_device_info what) {
  std::size_t n = 0;
  checkCl(clGetDeviceInfo(d, what, 0, nullptr, &n), "clGetDeviceInfo");
  std::string s(n, '\0');
  checkCl(clGetDeviceInfo(d, what, n, s.data(), nullptr), "clGetDeviceInfo");
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

template <class T>
T deviceValue(cl_device_id d, cl_device_info what) {
  T v{};
  checkCl(clGetDeviceInfo(d, what, sizeof v, &v, nullptr), "clGetDeviceInfo");
  return v;
}

std::string typeName(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "GPU";
  if (t & CL_DEVICE_TYPE_CPU) return "CPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

std::string deviceList(const std::vector<DeviceInfo>& all) {
  if (all.empty()) return "  (none: " + noOpenClPlatformReason() + ")";
  std::string s;
  for (const auto& d : all) s += "  " + d.summary() + "\n";
  if (!s.empty()) s.pop_back();
  return s;
}

}  // namespace

bool DeviceInfo::hasExtension(const std::string& ext) const {
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

std::string DeviceInfo::selector() const {
  return std::to_string(platformIndex) + ":" + std::to_string(deviceIndex);
}

std::string DeviceInfo::summary() const {
  char mem[32];
  std::snprintf(mem, sizeof mem, "%.1f GiB", double(globalMemBytes) / double(1ull << 30));
  return selector() + " " + name + " (" + type + ", " + std::to_string(computeUnits) + " CUs, " + mem + ")";
}

std::vector<DeviceInfo> listDevices() {
  cl_uint np = 0;
  // ocl-icd answers CL_PLATFORM_NOT_FOUND_KHR (-1001) when no ICD is registered: that is "no devices".
  if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return {};
  std::vector<cl_platform_id> platforms(np);
  checkCl(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");

  std::vector<DeviceInfo> out;
  for (cl_uint p = 0; p < np; ++p) {
    cl_uint nd = 0;
    const cl_int err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
    if (err == CL_DEVICE_NOT_FOUND || nd == 0) continue;
    checkCl(err, "clGetDeviceIDs");
    std::vector<cl_device_id> devices(nd);
    checkCl(clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr), "clGetDeviceIDs");
    const std::string pname = platformString(platforms[p], CL_PLATFORM_NAME);
    const std::string pversion = platformString(platforms[p], CL_PLATFORM_VERSION);
    for (cl_uint d = 0; d < nd; ++d) {
      cl_device_id id = devices[d];
      DeviceInfo info;
      info.platformIndex = int(p);
      info.deviceIndex = int(d);
      info.platformName = pname;
      info.platformVersion = pversion;
      info.name = deviceString(id, CL_DEVICE_NAME);
      info.vendor = deviceString(id, CL_DEVICE_VENDOR);
      info.driverVersion = deviceString(id, CL_DRIVER_VERSION);
      info.deviceVersion = deviceString(id, CL_DEVICE_VERSION);
      info.openclCVersion = deviceString(id, CL_DEVICE_OPENCL_C_VERSION);
      info.type = typeName(deviceValue<cl_device_type>(id, CL_DEVICE_TYPE));
      info.globalMemBytes = deviceValue<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
      info.maxAllocBytes = deviceValue<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
      info.localMemBytes = deviceValue<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE);
      info.computeUnits = deviceValue<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
      info.maxWorkGroupSize = deviceValue<std::size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE);
      const auto dims = deviceValue<cl_uint>(id, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
      info.maxWorkItemSizes.resize(dims);
      checkCl(clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(std::size_t),
                              info.maxWorkItemSizes.data(), nullptr),
              "clGetDeviceInfo");
      std::istringstream ext(deviceString(id, CL_DEVICE_EXTENSIONS));
      for (std::string e; ext >> e;) info.extensions.push_back(e);
      if (info.hasExtension("cl_nv_device_attribute_query")) {
        constexpr cl_device_info kComputeMajorNv = 0x4000;  // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV (cl_ext.h)
        constexpr cl_device_info kComputeMinorNv = 0x4001;  // CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV
        info.nvComputeMajor = int(deviceValue<cl_uint>(id, kComputeMajorNv));
        info.nvComputeMinor = int(deviceValue<cl_uint>(id, kComputeMinorNv));
      }
      out.push_back(std::move(info));
    }
  }
  return out;
}

std::string noOpenClPlatformReason() {
  std::string why = "no OpenCL platform is installed and registered in /etc/OpenCL/vendors, or its driver did not start";
  // PoCL's own folder: $POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl, else $HOME/.cache/pocl; made if it can be.
  const auto usable = [](const char* base, const char* below) {
    if (!base || !*base) return false;
    const std::filesystem::path folder = std::filesystem::path(base) / below;
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    return !ec && ::access(folder.c_str(), W_OK | X_OK) == 0;
  };
  const char* home = std::getenv("HOME");
  const char* pocl = std::getenv("POCL_CACHE_DIR");
  if (!(pocl && *pocl) && !usable(std::getenv("XDG_CACHE_HOME"), "pocl") && !usable(home, ".cache/pocl"))
    why += std::string("; PoCL, the CPU driver, does not start without a writable cache folder, and $HOME") +
           (home && *home ? " (" + std::string(home) + ")" : "") + " is not writable: set POCL_CACHE_DIR to a folder of yours";
  return why;
}

std::string deviceKey(const DeviceInfo& device) {
  return device.name + " | " + device.platformName + " | " + device.driverVersion;
}

namespace {

std::vector<std::string> listItems(const std::string& selector) {
  std::vector<std::string> items;
  if (selector.empty()) return {""};  // the default device
  std::stringstream ss(selector);
  for (std::string item; std::getline(ss, item, ',');) items.push_back(item);
  if (!selector.empty() && selector.back() == ',') items.push_back("");
  return items;
}

DeviceInfo selectOneDevice(const std::string& selector);
DeviceInfo localRankDevice(int localRank);

}  // namespace

bool namesSeveralDevices(const std::string& selector) {
  return selector.find(',') != std::string::npos || lower(selector) == kAllGpus;
}

std::vector<std::vector<DeviceInfo>> gpusByPlatform() { return gpusByPlatform(listDevices()); }

std::vector<std::vector<DeviceInfo>> gpusByPlatform(const std::vector<DeviceInfo>& devices) {
  std::vector<std::vector<DeviceInfo>> platforms;
  for (const DeviceInfo& d : devices) {
    if (d.type != "GPU") continue;
    if (platforms.empty() || platforms.back().front().platformIndex != d.platformIndex) platforms.emplace_back();
    platforms.back().push_back(d);
  }
  return platforms;
}

std::vector<DeviceChoice> deviceChoices() { return deviceChoices(listDevices()); }

std::vector<DeviceChoice> deviceChoices(const std::vector<DeviceInfo>& devices) {
  std::vector<DeviceChoice> out;
  for (const DeviceInfo& d : devices) out.push_back({d.selector(), d.summary()});
  for (const auto& gpus : gpusByPlatform(devices)) {
    if (gpus.size() < 2) continue;
    std::string selector;
    for (const DeviceInfo& d : gpus) {
      if (!selector.empty()) selector += ',';
      selector += d.selector();
    }
    const bool alike = std::all_of(gpus.begin(), gpus.end(), [&](const DeviceInfo& d) { return d.name == gpus[0].name; });
    const std::string what = alike ? gpus[0].name : "GPUs of " + gpus[0].platformName;
    out.push_back({selector, std::to_string(gpus.size()) + " × " + what + " (" + selector + ": one slab of the grid each)"});
  }
  return out;
}

std::vector<DeviceInfo> selectDevices(const std::string& selector) {
  if (lower(selector) == kAllGpus) {
    const auto platforms = gpusByPlatform();
    if (platforms.empty())
      throw ComputeError(ComputeStatus::UnknownDevice, std::string(kAllGpus) + " names every GPU of a platform, and "
                                                       "there is none; devices:\n" + deviceList(listDevices()));
    const auto several = std::find_if(platforms.begin(), platforms.end(), [](const auto& p) { return p.size() > 1; });
    return several != platforms.end() ? *several : platforms.front();
  }
  std::vector<DeviceInfo> out;
  for (const std::string& item : listItems(selector)) {
    if (item.empty() && namesSeveralDevices(selector))
      throw ComputeError(ComputeStatus::UnknownDevice, "the device list '" + selector + "' has an empty entry");
    out.push_back(selectOneDevice(item));
  }
  return out;
}

namespace {

// The device of the MPI rank at place `localRank` on its host, for "local-rank".
DeviceInfo localRankDevice(int localRank) {
  const auto platforms = gpusByPlatform();
  if (platforms.empty()) return selectOneDevice("cpu");
  const auto& gpus = *std::max_element(platforms.begin(), platforms.end(),
                                       [](const auto& a, const auto& b) { return a.size() < b.size(); });
  return gpus[std::size_t(localRank) % gpus.size()];
}

}  // namespace

DeviceInfo selectDevice(const std::string& selector) { return selectDevices(selector).front(); }

namespace {

// The rank's place on its host as the MPI launchers tell their processes (Open MPI, MPICH, Slurm), else 0.
int localRankOfProcess() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char* value = std::getenv(name)) return std::max(0, std::atoi(value));
  return 0;
}

DeviceInfo selectOneDevice(const std::string& selector) {
  if (lower(selector) == kLocalRankDevice) return localRankDevice(localRankOfProcess());
  const std::vector<DeviceInfo> all = listDevices();
  const std::string sel = lower(selector);
  auto firstOfType = [&](const std::string& type) -> const DeviceInfo* {
    for (const auto& d : all)
      if (d.type == type) return &d;
    return nullptr;
  };
  const DeviceInfo* found = nullptr;
  if (sel.empty() || sel == "gpu") {
    found = firstOfType("GPU");
    if (!found) found = firstOfType("CPU");
    if (!found && !all.empty()) found = &all.front();
  } else if (sel == "cpu") {
    found = firstOfType("CPU");
  } else if (std::all_of(sel.begin(), sel.end(), [](char c) { return std::isdigit((unsigned char)c); })) {
    // An index too large for a number is no device, like any other index past the last one.
    std::size_t n = 0;
    if (std::from_chars(sel.data(), sel.data() + sel.size(), n).ec == std::errc() && n < all.size()) found = &all[n];
  } else if (const auto colon = sel.find(':'); colon != std::string::npos &&
             std::all_of(sel.begin(), sel.end(), [](char c) { return std::isdigit((unsigned char)c) || c == ':'; })) {
    for (const auto& d : all)
      if (d.selector() == sel) found = &d;
  } else {
    for (const auto& d : all)
      if (lower(d.name).find(sel) != std::string::npos || lower(d.platformName).find(sel) != std::string::npos) {
        found = &d;
        break;
      }
  }
  if (!found)
    throw ComputeError(ComputeStatus::UnknownDevice, "no OpenCL device matches '" + selector +
                                                    "' (use '', gpu, cpu, an index N, P:D, a name substring, or for "
                                                    "slabs on several devices a list P:D,P:D, all-gpus or local-rank); "
                                                    "devices:\n" + deviceList(all));
  return *found;
}

}  // namespace

}  // namespace iso
