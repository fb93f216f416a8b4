#pragma once
// Tunable parameters of the OpenCL stages, read from the stages' descriptors (stages/OpenClStage.h).
// Resolution order for a stage's parameters (highest first):
//   1. the ExecutionConfig's params (manual override, e.g. {"tile_x": 64});
//   2. the tuning databases (TuningDatabase.h): the user's own tuning for this device and grid-size
//      class, else the most specific shipped entry (device, architecture, vendor; size class);
//   3. the descriptor's built-in defaults for the device's type (GPU, CPU).
#include <string>
#include <vector>

#include "compute/DeviceRegistry.h"
#include "core/Grid.h"
#include "core/StageRegistry.h"

namespace iso {

class OpenClStage;

// Defaults for this device without the databases (level 3), and with them for this grid (levels 2-3).
StageParamMap builtinStageDefaults(const OpenClStage& stage, const DeviceInfo& device);
StageParamMap defaultStageParams(const OpenClStage& stage, const DeviceInfo& device, const Grid& grid);

// Merges `overrides` over the defaults; throws ComputeError(InvalidParameter) for an unknown key or
// a value the device cannot run (work-group too large, too much local memory, ...), naming the limit.
StageParamMap resolveStageParams(const OpenClStage& stage, const DeviceInfo& device, const Grid& grid,
                                 const StageParamMap& overrides, bool useDatabase = true);

// Where resolveStageParams' values come from, for people: "your tuning for <device>, large grids (...)",
// "shipped tuning for ...", "built-in defaults for a GPU", with "tile_x set by you" when overridden.
std::string stageParamsOrigin(const OpenClStage& stage, const DeviceInfo& device, const Grid& grid,
                              const StageParamMap& overrides, bool useDatabase = true);

// Work-items of one work-group for a complete parameter set (0: the driver chooses).
std::size_t workGroupSize(const OpenClStage& stage, const StageParamMap& p);

// Every parameter set the tuner tries for this stage, device and grid (all valid for the device).
std::vector<StageParamMap> tuningCandidates(const OpenClStage& stage, const DeviceInfo& device, const Grid& grid);

// "tile_x=32 tile_y=8 z_chunk=0"
std::string formatStageParams(const StageParamMap& p);

}  // namespace iso
