#pragma once
// Tunable parameters of the OpenCL stages, read from the stages' descriptors (stages/OpenClStage.h),
// and the per-device tuning database. Resolution order for a stage's parameters (highest first):
//   1. the ExecutionConfig's params (manual override, e.g. {"tile_x": 64});
//   2. the tuning database in the cache dir (tuning.json), for this exact device;
//   3. built-in defaults for the device's vendor/type (e.g. NVIDIA GPU, CPU);
//   4. generic defaults.
#include <string>
#include <vector>

#include "compute/DeviceRegistry.h"
#include "core/Grid.h"
#include "core/StageRegistry.h"

namespace iso {

// The parameters of an OpenCL stage with this device's built-in defaults (stages/OpenClStage.h).
// Throws ComputeError(InvalidParameter) for a stage that is not an OpenCL stage.
std::vector<StageParamSpec> openClStageParameterSpecs(const std::string& stage, const DeviceInfo& device);

// Defaults for this device without the database (levels 3-4), and with it (levels 2-4).
StageParamMap builtinStageDefaults(const std::string& stage, const DeviceInfo& device);
StageParamMap defaultStageParams(const std::string& stage, const DeviceInfo& device);

// Merges `overrides` over the defaults; throws ComputeError(InvalidParameter) for an unknown key or
// a value the device cannot run (work-group too large, too much local memory, ...), naming the limit.
StageParamMap resolveStageParams(const std::string& stage, const DeviceInfo& device,
                                 const StageParamMap& overrides, bool useDatabase = true);

// Work-group size (0: the driver chooses) and local-memory bytes a complete parameter set needs.
std::size_t workGroupSize(const std::string& stage, const StageParamMap& p);
std::size_t localMemoryBytes(const std::string& stage, const StageParamMap& p);

// Every parameter set the tuner tries for this stage, device and grid (all valid for the device).
std::vector<StageParamMap> tuningCandidates(const std::string& stage, const DeviceInfo& device, const Grid& grid);

// "tile_x=32 tile_y=8 z_chunk=0"
std::string formatStageParams(const StageParamMap& p);

// The tuning database (ISO3DFD cache dir / tuning.json), keyed by device name + driver.
std::string deviceKey(const DeviceInfo& device);
void storeTunedParams(const std::string& stage, const DeviceInfo& device, const StageParamMap& params,
                      const Grid& tunedOn, double mptsPerSecond);
bool lookupTunedParams(const std::string& stage, const DeviceInfo& device, StageParamMap& out);

}  // namespace iso
