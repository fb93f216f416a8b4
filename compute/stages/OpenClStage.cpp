#include "compute/stages/OpenClStage.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "core/Format.h"

namespace iso {

// The descriptors, one per file of this folder.
const OpenClStage& gpuBasicStage();
const OpenClStage& gpuLinearStage();
const OpenClStage& gpuPrivateZStage();
const OpenClStage& gpuPrivateXStage();
const OpenClStage& gpuSlmStage();
const OpenClStage& gpuOptimizedStage();
const OpenClStage& gpuHalfStage();
const OpenClStage& gpuTemporalStage();

const std::vector<const OpenClStage*>& openClStages() {
  static const std::vector<const OpenClStage*> all = {&gpuBasicStage(),    &gpuLinearStage(), &gpuPrivateZStage(),
                                                      &gpuPrivateXStage(), &gpuSlmStage(),    &gpuOptimizedStage(), &gpuHalfStage(),
                                                      &gpuTemporalStage()};
  return all;
}

const OpenClStage& openClStage(const std::string& stage) {
  for (const OpenClStage* s : openClStages())
    if (s->id() == stage) return *s;
  throw stageParamError(stage, "not an OpenCL stage (OpenCL stages: " +
                                   commaList(openClStages(), [](const OpenClStage* s) { return s->id(); }) + ")");
}

ComputeError stageParamError(const std::string& stage, const std::string& what) {
  return ComputeError(ComputeStatus::InvalidParameter, "stage '" + stage + "': " + what);
}

OpenClStage::OpenClStage(StageInfo info) : info_(std::move(info)) { info_.opencl = true; }

void OpenClStage::checkParameters(const StageParamMap&, const DeviceInfo&) const {}
std::string OpenClStage::buildOptions(const StageParamMap&, const Grid&) const { return {}; }
std::size_t OpenClStage::localMemoryBytes(const StageParamMap&) const { return 0; }
bool OpenClStage::kernelLimitIsReliable(const StageParamMap&, const DeviceInfo&) const { return true; }
std::vector<StageParamMap> OpenClStage::proposedCandidates(const DeviceInfo&) const { return {}; }
int OpenClStage::stepsPerPass(const StageParamMap&) const { return 1; }
int OpenClStage::fieldBuffers(const StageParamMap&) const { return 2; }
FieldStorage OpenClStage::fieldStorage(const StageParamMap&) const { return {}; }
bool OpenClStage::foldsLayer(const StageParamMap&) const { return false; }

// One step a pass reads u^n, vel and u^(n−1) (or D, whose storage also writes U^(n+1)) and writes the new
// level, each in its storage's bytes; two steps a pass: the descriptor's count (docs/STAGES.md).
double OpenClStage::bytesPerPointStep(const StageParamMap& p) const {
  if (stepsPerPass(p) != 1) return info_.bytesPerPointStep;
  const FieldStorage storage = fieldStorage(p);
  const double field = storage.halfField ? 2.0 : 4.0, vel = storage.halfVel ? 2.0 : 4.0;
  return (storage.incremental ? 4.0 : 3.0) * field + vel;
}

namespace stage_parts {

StageParamSpec workGroupX(int defaultValue) {
  return {"wg_x", defaultValue, 1, kMaxTile, "work-group width along x in work-items"};
}
StageParamSpec workGroupY(int defaultValue) {
  return {"wg_y", defaultValue, 1, kMaxTile, "work-group height along y in work-items"};
}
StageParamSpec chunk(const char* name, char axis, int defaultValue) {
  return {name, defaultValue, 0, kUnbounded,
          std::string("cells along ") + axis + " that one work-item streams through; chunk 0 = the whole axis"};
}
StageParamSpec maxRegisters(int defaultValue) {
  return {"max_registers", defaultValue, 0, 255,
          "NVIDIA only: cap on registers per work-item (PTX .maxnreg), 32..255; 0 = the compiler's choice"};
}

void checkMaxRegisters(const std::string& stage, const StageParamMap& p, const DeviceInfo& device) {
  const int cap = p.at("max_registers");
  if (cap == 0) return;
  if (!isNvidia(device))
    throw stageParamError(stage, "max_registers caps registers through the PTX of NVIDIA's OpenCL; " + device.name +
                                     " is not an NVIDIA device: use max_registers=0");
  if (cap < 32)
    throw stageParamError(stage, "max_registers = " + std::to_string(cap) + " must be 0 or 32..255");
}

void requireOneOf(const std::string& stage, const StageParamMap& p, const std::string& key,
                  const std::vector<int>& allowed, const std::string& why) {
  const int value = p.at(key);
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  std::string list;
  for (std::size_t i = 0; i < allowed.size(); ++i)
    list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::to_string(allowed[i]);
  throw stageParamError(stage, key + " = " + std::to_string(value) + " must be " + list + " (" + why + ")");
}

bool isNvidia(const DeviceInfo& device) { return device.vendor.find("NVIDIA") != std::string::npos; }
bool isNvidiaAmpereOrNewer(const DeviceInfo& device) { return isNvidia(device) && device.nvComputeMajor >= 8; }
std::size_t roundUp(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }
std::size_t ceilDiv(std::size_t n, std::size_t m) { return (n + m - 1) / m; }
StageLaunch workGroupGrid(std::size_t wx, std::size_t wy, std::size_t a, std::size_t b, std::size_t layers) {
  return {{roundUp(a, wx), roundUp(b, wy), layers}, {wx, wy, 1}, {}};
}
int chunkLength(int chunk, int n) { return chunk == 0 ? n : std::min(chunk, n); }


CellPerWorkItemStage::CellPerWorkItemStage(StageInfo info)
    : OpenClStage(std::move(info)), kernelFile_(std::filesystem::path(this->info().sourceFiles.at(0)).filename().string()) {}
std::vector<StageParamSpec> CellPerWorkItemStage::parameters(const DeviceInfo&) const {
  return {workGroupX(32), workGroupY(4)};
}
std::array<std::size_t, 2> CellPerWorkItemStage::workGroup(const StageParamMap& p) const {
  return {std::size_t(p.at("wg_x")), std::size_t(p.at("wg_y"))};
}
StageLaunch CellPerWorkItemStage::launch(const StageParamMap& p, const Grid& g) const {
  return workGroupGrid(p.at("wg_x"), p.at("wg_y"), g.n1, g.n2, g.n3);
}

}  // namespace stage_parts
}  // namespace iso
