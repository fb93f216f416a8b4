#pragma once
// OpenCL platform and device discovery, and choosing a device from a user's selector.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace iso {

struct DeviceInfo {
  int platformIndex = 0, deviceIndex = 0;  // selector "P:D"
  std::string platformName, platformVersion;
  std::string name, vendor, driverVersion, deviceVersion, openclCVersion;
  std::string type;                 // "GPU", "CPU", "accelerator", "other"
  std::uint64_t globalMemBytes = 0, maxAllocBytes = 0, localMemBytes = 0;
  unsigned computeUnits = 0;
  std::size_t maxWorkGroupSize = 0;
  std::vector<std::size_t> maxWorkItemSizes;
  std::vector<std::string> extensions;
  int nvComputeMajor = 0;  // NVIDIA: compute capability (cl_nv_device_attribute_query), else 0
  int nvComputeMinor = 0;
  bool hasExtension(const std::string& ext) const;
  std::string selector() const;     // "P:D"
  std::string summary() const;      // one line: "0:0 NVIDIA H100 80GB HBM3 (GPU, 132 CUs, 79.2 GiB)"
};

// Name + platform + driver: the key of the per-device caches (copy bandwidth).
std::string deviceKey(const DeviceInfo& device);

// Every device of every platform; empty (not an error) when there is no OpenCL platform.
std::vector<DeviceInfo> listDevices();

// Why listDevices() found nothing, for messages: no platform registered, or a driver that did not start;
// names the usual cause of the latter (PoCL without a writable cache folder: $HOME unusable and
// POCL_CACHE_DIR unset) when it applies.
std::string noOpenClPlatformReason();

// Selector: "" or "gpu" (first GPU, else first CPU device), "cpu", an index "P:D" or "N" (N-th in
// listDevices order), or a case-insensitive name substring. Throws std::runtime_error listing the devices
// when nothing matches. Of a selector naming several devices (below), the first.
DeviceInfo selectDevice(const std::string& selector);

// Selectors naming several devices, one slab of a grid cut along z each (core/DecomposedSolver.h):
// a comma-separated list of single selectors ("1:0,1:1"; "cpu,cpu" names one device twice, two slabs
// on it), or "all-gpus", every GPU of the first platform that has several (else of the first that has
// one). "local-rank" names one device per MPI rank: the GPU at the rank's place on its host (modulo the
// GPUs of the platform that has most; the launcher's OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID or
// SLURM_LOCALID, else 0), the first CPU device where there is none.
inline constexpr const char* kAllGpus = "all-gpus";
inline constexpr const char* kLocalRankDevice = "local-rank";
bool namesSeveralDevices(const std::string& selector);
// Every device the selector names, in order (one for a single selector). Throws as selectDevice does.
std::vector<DeviceInfo> selectDevices(const std::string& selector);
// The GPUs of each platform that has any, in platform order (of `devices`, as listDevices gives them).
std::vector<std::vector<DeviceInfo>> gpusByPlatform(const std::vector<DeviceInfo>& devices);
std::vector<std::vector<DeviceInfo>> gpusByPlatform();

// What a device box offers: every device (its summary), then every GPU of each platform that has
// several, together ("2 × NVIDIA H100 80GB HBM3": the grid cut into one slab per GPU).
struct DeviceChoice {
  std::string selector, label;
};
std::vector<DeviceChoice> deviceChoices(const std::vector<DeviceInfo>& devices);  // of these devices
std::vector<DeviceChoice> deviceChoices();                                        // of listDevices()

}  // namespace iso
