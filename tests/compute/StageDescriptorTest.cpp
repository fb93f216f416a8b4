// The stage descriptors (compute/stages/) and the stage objects (compute/Stage.h) against the registry
// and against themselves: one descriptor per OpenCL stage, registered explicitly with the CPU stages,
// parameter specs whose defaults lie in their ranges and run on typical devices, the kernel files exist
// and are the ones the registry shows, the bytes each stage moves, and the halo radius reaches the
// kernels from the host.
#include <algorithm>
#include <set>

#include "core/Grid.h"
#include "compute/KernelSources.h"
#include "tests/compute/OpenClTestSupport.h"
#include "compute/Stage.h"
#include "compute/StageParams.h"
#include "compute/stages/OpenClStage.h"

namespace iso::test {
namespace {

// Device descriptions for each class of defaults: a CPU, an NVIDIA 8.0+ GPU, another GPU.
std::vector<DeviceInfo> deviceClasses() {
  DeviceInfo cpu;
  cpu.name = "a CPU";
  cpu.type = "CPU";
  cpu.vendor = "GenuineIntel";
  cpu.maxWorkGroupSize = 4096;
  cpu.maxWorkItemSizes = {4096, 4096, 4096};
  cpu.localMemBytes = 256 * 1024;
  DeviceInfo nvidia = cpu;
  nvidia.name = "an NVIDIA GPU";
  nvidia.type = "GPU";
  nvidia.vendor = "NVIDIA Corporation";
  nvidia.nvComputeMajor = 9;
  nvidia.maxWorkGroupSize = 1024;
  nvidia.maxWorkItemSizes = {1024, 1024, 64};
  nvidia.localMemBytes = 48 * 1024;
  DeviceInfo other = nvidia;
  other.name = "another GPU";
  other.vendor = "Advanced Micro Devices, Inc.";
  other.nvComputeMajor = 0;
  other.maxWorkGroupSize = 256;
  other.maxWorkItemSizes = {256, 256, 256};
  other.localMemBytes = 32 * 1024;
  return {cpu, nvidia, other};
}

TEST(StageDescriptors, OnePerOpenClStageOfTheRegistryInItsOrder) {
  std::vector<std::string> described;
  for (const OpenClStage* s : openClStages()) described.push_back(s->id());
  EXPECT_EQ(described, openClStageIds());
  // The registry's entries are the descriptors' own, after the CPU stages.
  const std::vector<std::string> cpu = {"cpu-serial", "cpu-parallel"};
  EXPECT_EQ(StageRegistry::ids(/*includeOpenCL=*/false), cpu);
  std::vector<std::string> all = cpu;
  all.insert(all.end(), described.begin(), described.end());
  EXPECT_EQ(StageRegistry::ids(), all);
  for (const OpenClStage* s : openClStages()) {
    const StageInfo& registered = StageRegistry::get(s->id());
    EXPECT_TRUE(registered.opencl) << s->id();
    EXPECT_EQ(registered.title, s->info().title) << s->id();
    EXPECT_EQ(registered.previous, s->info().previous) << s->id();
    EXPECT_EQ(registered.sourceFiles, s->info().sourceFiles) << s->id();
    EXPECT_EQ(registered.explanationFile(), "stages/" + s->id() + ".md") << s->id();
  }
  for (const std::string& id : StageRegistry::ids(/*includeOpenCL=*/false)) {
    EXPECT_THROW(openClStage(id), ComputeError) << id << " is a CPU stage";
    EXPECT_EQ(resolveStage(id).openCl(), nullptr) << id;
  }
  try {
    openClStage("gpu-fastest");
    FAIL() << "an unknown stage has a descriptor";
  } catch (const ComputeError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu-optimized"), std::string::npos) << "lists the stages: " << e.what();
  }
}

TEST(StageDescriptors, DefaultsLieInTheirRangesAndRunOnEveryDeviceClass) {
  const Grid grid(37, 29, 23);
  for (const OpenClStage* stage : openClStages()) {
    for (const DeviceInfo& device : deviceClasses()) {
      const std::string what = stage->id() + " on " + device.name;
      const std::vector<StageParamSpec> specs = stage->parameters(device);
      ASSERT_FALSE(specs.empty()) << what;
      std::set<std::string> names;
      for (const StageParamSpec& spec : specs) {
        EXPECT_TRUE(names.insert(spec.name).second) << what << ": " << spec.name << " twice";
        EXPECT_LE(spec.minValue, spec.defaultValue) << what << " " << spec.name;
        EXPECT_LE(spec.defaultValue, spec.maxValue) << what << " " << spec.name;
        EXPECT_FALSE(spec.meaning.empty()) << what << " " << spec.name;
        EXPECT_EQ(spec.meaning.find('\n'), std::string::npos) << what << " " << spec.name << ": one line";
      }
      StageParamMap p;
      ASSERT_NO_THROW(p = resolveStageParams(*stage, device, grid, {}, /*useDatabase=*/false)) << what;
      EXPECT_EQ(p, builtinStageDefaults(*stage, device)) << what;
      EXPECT_NO_THROW(kernelSource(stage->kernelFile(p))) << what;
      // The teaching view shows the descriptor's source files: they must include the kernel that runs.
      const std::vector<std::string>& shown = stage->info().sourceFiles;
      EXPECT_NE(std::find(shown.begin(), shown.end(), "resources/kernels/" + stage->kernelFile(p)), shown.end())
          << what << " runs " << stage->kernelFile(p);
      const StageLaunch launch = stage->launch(p, grid);
      const auto [wx, wy] = stage->workGroup(p);
      for (int d = 0; d < 3; ++d) {
        EXPECT_GT(launch.global[d], 0u) << what;
        if (launch.local[d] > 0) {
          EXPECT_EQ(launch.global[d] % launch.local[d], 0u) << what << " dimension " << d;
        }
      }
      if (wx * wy > 0) {
        EXPECT_EQ(launch.local[0] * launch.local[1], wx * wy) << what;
      } else {
        EXPECT_EQ(launch.local[0], 0u) << what << ": the driver chooses";
      }
      for (const StageParamMap& c : tuningCandidates(*stage, device, grid))
        EXPECT_NO_THROW(kernelSource(stage->kernelFile(c))) << what << " " << formatStageParams(c);
    }
  }
}

// The stage objects hand out what the registry holds, each resolved once: the same facts in the same
// order, each stage's own parameters, its kind of code.
TEST(Stages, TheObjectsAreTheRegisteredStagesInTheirOrder) {
  std::vector<std::string> ids;
  for (const Stage* s : allStages()) {
    ids.push_back(s->id());
    const StageInfo& registered = StageRegistry::get(s->id());
    EXPECT_EQ(registered.title, s->info().title) << s->id();
    EXPECT_EQ(registered.opencl, s->opencl()) << s->id();
    EXPECT_EQ(registered.bytesPerPointStep, s->bytesPerPointStep()) << s->id();
    EXPECT_EQ(s->opencl(), s->openCl() != nullptr) << s->id();
    EXPECT_EQ(&resolveStage(s->id()), s) << "one object per stage";
    std::vector<std::string> names;
    for (const auto& spec : s->parameterSpecs()) names.push_back(spec.name);
    EXPECT_EQ(names, s->parameterNames()) << s->id();
  }
  EXPECT_EQ(ids, StageRegistry::ids());
  // The compare view's default: the reference and the best of each kind (gpu-temporal, the last, is
  // slower than gpu-optimized on every device measured, docs/PERFORMANCE.md).
  EXPECT_EQ(StageRegistry::ladderEnds(), (std::vector<std::string>{"cpu-serial", "cpu-parallel", "gpu-basic", "gpu-optimized"}));
  EXPECT_TRUE(resolveStage("cpu-serial").parameterSpecs().empty());
  const auto parallel = resolveStage("cpu-parallel").parameterNames();
  EXPECT_NE(std::find(parallel.begin(), parallel.end(), "threads"), parallel.end());
  const auto slm = resolveStage("gpu-slm").parameterNames();
  EXPECT_NE(std::find(slm.begin(), slm.end(), "tile_x"), slm.end());
  try {
    resolveStage("gpu-fastest");
    FAIL() << "an unknown stage resolved";
  } catch (const ComputeError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-serial, cpu-parallel, gpu-basic"), std::string::npos) << e.what();
  }
}

// A scenario's stage parameters for several stages side by side: each stage takes its own.
TEST(Stages, AnExecutionKeepsTheParametersTheStageTakes) {
  Scenario s = presetScenario("default");
  s.device = "cpu";
  s.stageParams = {{"threads", 2}, {"tile_x", 16}, {"wg_x", 8}};
  const ExecutionConfig slm = resolveStage("gpu-slm").execution(s);
  EXPECT_EQ(slm.stage, "gpu-slm");
  EXPECT_EQ(slm.device, "cpu");
  EXPECT_EQ(slm.params, (StageParamMap{{"tile_x", 16}}));
  EXPECT_EQ(resolveStage("cpu-parallel").execution(s).params, (StageParamMap{{"threads", 2}}));
  EXPECT_TRUE(resolveStage("cpu-serial").execution(s).params.empty());
}

// The tunable stages are those whose descriptors propose candidates; the CPU stages have none.
TEST(Stages, TheTunableStagesAreThoseWithCandidates) {
  std::vector<std::string> tunable;
  for (const Stage* s : tunableStages()) tunable.push_back(s->id());
  EXPECT_EQ(tunable, (std::vector<std::string>{"gpu-slm", "gpu-optimized", "gpu-half", "gpu-temporal"}));
  for (const Stage* s : allStages()) {
    DeviceInfo gpu;
    gpu.type = "GPU";
    EXPECT_EQ(s->tunable(), s->openCl() && !s->openCl()->proposedCandidates(gpu).empty()) << s->id();
  }
}

// What a stage moves per point and step (in its default form): a stage that advances one step per pass
// reads prev, vel and next and writes next (16 B in float; gpu-half's incremental storage reads U, D and
// vel and writes D and U^(n+1), 2 B each); one that advances two steps per pass moves its four arrays
// once for two steps plus the second level's write (10 B, docs/STAGES.md).
TEST(Stages, EachStatesTheBytesItMovesPerPointAndStep) {
  for (const Stage* s : allStages()) {
    double expected = 16.0;
    if (const OpenClStage* cl = s->openCl()) {
      const StageParamMap p = builtinStageDefaults(*cl, deviceClasses()[1]);
      const FieldStorage storage = cl->fieldStorage(p);
      const double field = storage.halfField ? 2.0 : 4.0, vel = storage.halfVel ? 2.0 : 4.0;
      expected = cl->stepsPerPass(p) == 2 ? 10.0 : (storage.incremental ? 4 : 3) * field + vel;
      EXPECT_EQ(cl->bytesPerPointStep(p), expected) << s->id() << ": the count the counters use";
    }
    EXPECT_EQ(s->bytesPerPointStep(), expected) << s->id();
  }
  EXPECT_EQ(resolveStage("gpu-temporal").bytesPerPointStep(), 10.0);
  EXPECT_EQ(resolveStage("gpu-half").bytesPerPointStep(), 10.0);
  // gpu-half's other storage forms: vel in float, plain storage with vel in half, and in float.
  const OpenClStage& half = openClStage("gpu-half");
  StageParamMap p = builtinStageDefaults(half, deviceClasses()[1]);
  for (const auto& [storage, bytes] : {std::pair{1, 12.0}, std::pair{2, 8.0}, std::pair{3, 10.0}}) {
    p["storage"] = storage;
    EXPECT_EQ(half.bytesPerPointStep(p), bytes) << "storage " << storage;
  }
}

// The kernels take R from the host's kHalfLength: every program's options carry it, and common.cl
// refuses to build without it.
TEST(StageDescriptors, TheHaloRadiusComesFromTheHost) {
  const std::string define = "-DR=" + std::to_string(kHalfLength);
  for (const OpenClStage* stage : openClStages()) {
    const DeviceInfo device = deviceClasses()[2];
    const StageParamMap p = builtinStageDefaults(*stage, device);
    const std::string options = stageBuildOptions(*stage, p, /*damping=*/true, Grid(16, 16, 16));
    EXPECT_NE(options.find(define), std::string::npos) << stage->id() << ": " << options;
    EXPECT_NE(options.find("-DDAMPING=1"), std::string::npos) << stage->id() << ": " << options;
  }
  ISO_REQUIRE_DEVICE();
  try {
    OpenClSolver::buildForTest(*device, kernelSource("common.cl"), "");
    FAIL() << "common.cl built without R";
  } catch (const ComputeError& e) {
    EXPECT_EQ(e.status(), ComputeStatus::BuildFailure);
    EXPECT_NE(std::string(e.what()).find("half length"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(OpenClSolver::buildForTest(*device, kernelSource("common.cl"), define));
}

}  // namespace
}  // namespace iso::test
