#include "compute/StageParams.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "compute/ClError.h"
#include "compute/KernelCache.h"
#include "compute/stages/OpenClStage.h"
#include "core/AtomicFile.h"

namespace iso {

namespace {

std::string databasePath() {
  const std::string dir = cacheDirectory();
  return dir.empty() ? std::string() : dir + "/tuning.json";
}

nlohmann::json readDatabase() {
  const std::string path = databasePath();
  if (path.empty()) return nlohmann::json::object();
  std::ifstream f(path);
  if (!f) return nlohmann::json::object();
  // A corrupt database only loses the tuned values: fall back to the defaults.
  nlohmann::json j = nlohmann::json::parse(f, nullptr, /*allow_exceptions=*/false);
  return j.is_object() ? j : nlohmann::json::object();
}

}  // namespace

std::vector<StageParamSpec> openClStageParameterSpecs(const std::string& stage, const DeviceInfo& device) {
  return openClStage(stage).parameters(device);
}

StageParamMap builtinStageDefaults(const std::string& stage, const DeviceInfo& device) {
  StageParamMap p;
  for (const StageParamSpec& spec : openClStageParameterSpecs(stage, device)) p[spec.name] = spec.defaultValue;
  return p;
}

StageParamMap defaultStageParams(const std::string& stage, const DeviceInfo& device) {
  StageParamMap p = builtinStageDefaults(stage, device);
  StageParamMap tuned;
  if (lookupTunedParams(stage, device, tuned))
    for (const auto& [k, v] : tuned)
      if (p.count(k)) p[k] = v;
  return p;
}

std::size_t workGroupSize(const std::string& stage, const StageParamMap& p) {
  const auto [wx, wy] = openClStage(stage).workGroup(p);
  return wx * wy;
}

std::size_t localMemoryBytes(const std::string& stage, const StageParamMap& p) {
  return openClStage(stage).localMemoryBytes(p);
}

StageParamMap resolveStageParams(const std::string& stage, const DeviceInfo& device,
                                 const StageParamMap& overrides, bool useDatabase) {
  const OpenClStage& descriptor = openClStage(stage);
  const std::vector<StageParamSpec> specs = descriptor.parameters(device);
  StageParamMap p = useDatabase ? defaultStageParams(stage, device) : builtinStageDefaults(stage, device);
  for (const auto& [key, value] : overrides) {
    if (!p.count(key)) {
      std::string known;
      for (const auto& spec : specs) known += (known.empty() ? "" : ", ") + spec.name;
      throw stageParamError(stage, "unknown parameter '" + key + "' (this stage takes: " + known + ")");
    }
    p[key] = value;
  }
  for (const StageParamSpec& spec : specs) {
    const int value = p.at(spec.name);
    const std::string is = spec.name + " = " + std::to_string(value);
    if (value < spec.minValue)
      throw stageParamError(stage, is + " must be >= " + std::to_string(spec.minValue) + " (" + spec.meaning + ")");
    if (value > spec.maxValue)
      throw stageParamError(stage, is + " exceeds " + std::to_string(spec.maxValue) + " (" + spec.meaning + ")");
  }
  descriptor.checkParameters(p, device);

  if (const auto [wx, wy] = descriptor.workGroup(p); wx * wy > 0) {
    if (wx * wy > device.maxWorkGroupSize)
      throw stageParamError(stage, "work-group of " + std::to_string(wx * wy) + " work-items (" + std::to_string(wx) +
                                       " x " + std::to_string(wy) +
                                       ") exceeds the device's maximum work-group size of " +
                                       std::to_string(device.maxWorkGroupSize) + " on " + device.name);
    if (device.maxWorkItemSizes.size() >= 2 && (wx > device.maxWorkItemSizes[0] || wy > device.maxWorkItemSizes[1]))
      throw stageParamError(stage, "work-group " + std::to_string(wx) + " x " + std::to_string(wy) +
                                       " exceeds the device's maximum work-item sizes " +
                                       std::to_string(device.maxWorkItemSizes[0]) + " x " +
                                       std::to_string(device.maxWorkItemSizes[1]));
  }
  if (const std::size_t local = descriptor.localMemoryBytes(p); local > device.localMemBytes)
    throw stageParamError(stage, "tile needs " + std::to_string(local) + " bytes of local memory (" +
                                     formatStageParams(p) + ") but " + device.name + " has " +
                                     std::to_string(device.localMemBytes) + " bytes; choose a smaller tile");
  return p;
}

std::vector<StageParamMap> tuningCandidates(const std::string& stage, const DeviceInfo& device, const Grid& grid) {
  std::vector<StageParamMap> raw = openClStage(stage).tuningCandidates(device);
  if (raw.empty()) raw.push_back({});  // the defaults alone
  std::vector<StageParamMap> out;
  for (auto& p : raw) {
    // z chunks at least as tall as the grid are the same candidate as "whole axis".
    if (p.count("z_chunk") && p["z_chunk"] >= grid.n3) p["z_chunk"] = 0;
    try {
      // Candidates override the defaults, so every candidate is a complete parameter set.
      StageParamMap complete = resolveStageParams(stage, device, p, /*useDatabase=*/false);
      if (std::find(out.begin(), out.end(), complete) == out.end()) out.push_back(std::move(complete));
    } catch (const ComputeError&) {
      // Not runnable on this device (work-group or local memory limits): not a candidate.
    }
  }
  return out;
}

std::string formatStageParams(const StageParamMap& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

std::string deviceKey(const DeviceInfo& device) {
  return device.name + " | " + device.platformName + " | " + device.driverVersion;
}

void storeTunedParams(const std::string& stage, const DeviceInfo& device, const StageParamMap& params,
                      const Grid& tunedOn, double mptsPerSecond) {
  const std::string path = databasePath();
  if (path.empty())
    throw ComputeError(ComputeStatus::DeviceError, "no writable cache directory for the tuning database "
                                                   "(set ISO3DFD_CACHE_DIR)");
  nlohmann::json db = readDatabase();
  nlohmann::json entry;
  entry["params"] = params;
  entry["grid"] = {tunedOn.n1, tunedOn.n2, tunedOn.n3};
  entry["mpts_per_s"] = mptsPerSecond;
  db[deviceKey(device)][stage] = entry;
  try {  // whole or not at all: a full disk keeps the previous database
    writeFileAtomically(path, db.dump(2) + "\n");
  } catch (const FileWriteError& e) {
    throw ComputeError(ComputeStatus::DeviceError, std::string("the tuning database was not updated: ") + e.what());
  }
}

bool lookupTunedParams(const std::string& stage, const DeviceInfo& device, StageParamMap& out) {
  const nlohmann::json db = readDatabase();
  const auto dev = db.find(deviceKey(device));
  if (dev == db.end() || !dev->is_object()) return false;
  const auto st = dev->find(stage);
  if (st == dev->end() || !st->contains("params") || !(*st)["params"].is_object()) return false;
  out.clear();
  for (const auto& [k, v] : (*st)["params"].items())
    if (v.is_number_integer()) out[k] = v.get<int>();
  return !out.empty();
}

}  // namespace iso
