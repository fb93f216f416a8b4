#include "compute/StageParams.h"

#include <algorithm>

#include "compute/ClError.h"
#include "compute/TuningDatabase.h"
#include "compute/stages/OpenClStage.h"
#include "core/Format.h"

namespace iso {

StageParamMap builtinStageDefaults(const OpenClStage& stage, const DeviceInfo& device) {
  StageParamMap p;
  for (const StageParamSpec& spec : stage.parameters(device)) p[spec.name] = spec.defaultValue;
  return p;
}

StageParamMap defaultStageParams(const OpenClStage& stage, const DeviceInfo& device, const Grid& grid) {
  StageParamMap p = builtinStageDefaults(stage, device);
  if (const std::optional<TunedParams> tuned = lookupTuning(stage.id(), device, grid))
    for (const auto& [k, v] : tuned->params)
      if (p.count(k)) p[k] = v;
  return p;
}

std::string stageParamsOrigin(const OpenClStage& stage, const DeviceInfo& device, const Grid& grid,
                              const StageParamMap& overrides, bool useDatabase) {
  const std::optional<TunedParams> tuned = useDatabase ? lookupTuning(stage.id(), device, grid) : std::nullopt;
  std::string origin = tuned ? tuned->origin : "built-in defaults for a " + device.type;
  if (!overrides.empty()) {
    origin = commaList(overrides, [](const auto& kv) { return kv.first; }) + " set by you, the rest from " + origin;
  }
  return origin;
}

std::size_t workGroupSize(const OpenClStage& stage, const StageParamMap& p) {
  const auto [wx, wy] = stage.workGroup(p);
  return wx * wy;
}

StageParamMap resolveStageParams(const OpenClStage& stage, const DeviceInfo& device, const Grid& grid,
                                 const StageParamMap& overrides, bool useDatabase) {
  const std::vector<StageParamSpec> specs = stage.parameters(device);
  StageParamMap p = useDatabase ? defaultStageParams(stage, device, grid) : builtinStageDefaults(stage, device);
  for (const auto& [key, value] : overrides) {
    if (!p.count(key)) {
      throw stageParamError(stage.id(), "unknown parameter '" + key + "' (this stage takes: " +
                                       commaList(specs, [](const StageParamSpec& s) { return s.name; }) + ")");
    }
    p[key] = value;
  }
  for (const StageParamSpec& spec : specs) {
    const int value = p.at(spec.name);
    const std::string is = spec.name + " = " + std::to_string(value);
    if (value < spec.minValue)
      throw stageParamError(stage.id(), is + " must be >= " + std::to_string(spec.minValue) + " (" + spec.meaning + ")");
    if (value > spec.maxValue)
      throw stageParamError(stage.id(), is + " exceeds " + std::to_string(spec.maxValue) + " (" + spec.meaning + ")");
  }
  stage.checkParameters(p, device);

  if (const auto [wx, wy] = stage.workGroup(p); wx * wy > 0) {
    if (wx * wy > device.maxWorkGroupSize)
      throw stageParamError(stage.id(), "work-group of " + std::to_string(wx * wy) + " work-items (" + std::to_string(wx) +
                                       " x " + std::to_string(wy) +
                                       ") exceeds the device's maximum work-group size of " +
                                       std::to_string(device.maxWorkGroupSize) + " on " + device.name);
    if (device.maxWorkItemSizes.size() >= 2 && (wx > device.maxWorkItemSizes[0] || wy > device.maxWorkItemSizes[1]))
      throw stageParamError(stage.id(), "work-group " + std::to_string(wx) + " x " + std::to_string(wy) +
                                       " exceeds the device's maximum work-item sizes " +
                                       std::to_string(device.maxWorkItemSizes[0]) + " x " +
                                       std::to_string(device.maxWorkItemSizes[1]));
  }
  if (const std::size_t local = stage.localMemoryBytes(p); local > device.localMemBytes)
    throw stageParamError(stage.id(), "tile needs " + std::to_string(local) + " bytes of local memory (" +
                                     formatStageParams(p) + ") but " + device.name + " has " +
                                     std::to_string(device.localMemBytes) + " bytes; choose a smaller tile");
  return p;
}

std::vector<StageParamMap> tuningCandidates(const OpenClStage& stage, const DeviceInfo& device, const Grid& grid) {
  std::vector<StageParamMap> raw = stage.proposedCandidates(device);
  if (raw.empty()) raw.push_back({});  // the defaults alone
  std::vector<StageParamMap> out;
  for (auto& p : raw) {
    // z chunks at least as tall as the grid are the same candidate as "whole axis".
    if (p.count("z_chunk") && p["z_chunk"] >= grid.n3) p["z_chunk"] = 0;
    try {
      // Candidates override the defaults, so every candidate is a complete parameter set.
      StageParamMap complete = resolveStageParams(stage, device, grid, p, /*useDatabase=*/false);
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

}  // namespace iso
