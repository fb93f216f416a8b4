#include "core/CpuSolvers.h"

#include <mutex>
#include <stdexcept>
#include <utility>

#include "core/CpuParallelSolver.h"
#include "core/CpuSerialSolver.h"
#include "core/Format.h"

namespace iso {
namespace {

// One CPU stage: what the registry shows, the parameters it accepts, and how it is built.
struct CpuStage {
  StageInfo info;
  std::vector<StageParamSpec> (*parameters)();
  std::unique_ptr<WaveSolver> (*create)(Problem, const StageParamMap&);
};

const std::vector<CpuStage>& cpuStages() {
  static const std::vector<CpuStage> stages = {
      {{.id = "cpu-serial",
        .title = "CPU serial",
        .description = "Scalar triple loop over the padded grid: the reference every other stage is checked against.",
        .sampleName = "1_CPU_only",
        .bytesPerPointStep = 16,
        .sourceFiles = {"core/CpuSerialSolver.cpp"}},
       [] { return std::vector<StageParamSpec>{}; },
       [](Problem problem, const StageParamMap& params) -> std::unique_ptr<WaveSolver> {
         return std::make_unique<CpuSerialSolver>(std::move(problem), params);
       }},
      {{.id = "cpu-parallel",
        .title = "CPU parallel",
        .description = "All cores, SIMD over x, cache blocking in x/y and streaming along z: the fastest native "
                       "code here.",
        .bytesPerPointStep = 16,
        .preferred = true,
        .previous = "cpu-serial",
        .sourceFiles = {"core/CpuParallelSolver.cpp", "core/CpuStencilKernel.inc"}},
       cpuParallelParameterSpecs,
       [](Problem problem, const StageParamMap& params) -> std::unique_ptr<WaveSolver> {
         return std::make_unique<CpuParallelSolver>(std::move(problem), params);
       }},
  };
  return stages;
}

const CpuStage* findCpuStage(const std::string& stage) {
  for (const CpuStage& s : cpuStages())
    if (s.info.id == stage) return &s;
  return nullptr;
}

}  // namespace

std::unique_ptr<WaveSolver> createCpuSolver(Problem problem, const std::string& stage, const StageParamMap& params) {
  if (const CpuStage* s = findCpuStage(stage)) return s->create(std::move(problem), params);
  throw std::invalid_argument("createCpuSolver: stage '" + stage + "' is not a CPU stage (CPU stages: " +
                              commaList(cpuStages(), [](const CpuStage& s) { return s.info.id; }) + ")");
}

std::vector<StageParamSpec> cpuStageParameterSpecs(const std::string& stage) {
  const CpuStage* s = findCpuStage(stage);
  return s ? s->parameters() : std::vector<StageParamSpec>{};
}

std::vector<StageInfo> cpuStageInfos() {
  std::vector<StageInfo> out;
  for (const CpuStage& s : cpuStages()) out.push_back(s.info);
  return out;
}

void registerCpuStages() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (StageInfo& info : cpuStageInfos()) StageRegistry::add(std::move(info));
  });
}

}  // namespace iso
