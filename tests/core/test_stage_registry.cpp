// The stage registry of a program built on core alone: the CPU stages, described in core/CpuSolvers.cpp,
// which its main() registers (CoreTestMain.cpp), in teaching order; registering a stage twice, one
// compared with a stage not registered before it, or one that does not state its bytes per point-step,
// is refused and leaves the registry as it was.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/CpuSolvers.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

TEST(StageRegistry, HoldsTheRegisteredCpuStagesInTeachingOrder) {
  const std::vector<std::string> cpu = {"cpu-serial", "cpu-parallel"};
  EXPECT_EQ(StageRegistry::ids(/*includeOpenCL=*/false), cpu);
  EXPECT_EQ(StageRegistry::ids(), cpu) << "core alone registers no OpenCL stage";
  EXPECT_EQ(StageRegistry::get("cpu-parallel").previous, "cpu-serial");
  EXPECT_EQ(StageRegistry::get("cpu-serial").sampleName, "1_CPU_only");
  for (const StageInfo& s : StageRegistry::all()) {
    EXPECT_FALSE(s.opencl) << s.id;
    EXPECT_FALSE(s.title.empty()) << s.id;
    EXPECT_FALSE(s.sourceFiles.empty()) << s.id;
    EXPECT_EQ(s.explanationFile(), "stages/" + s.id + ".md");
    EXPECT_EQ(s.bytesPerPointStep, 16.0) << s.id << " reads prev, vel and next and writes next once per step";
  }
  registerCpuStages();  // a second call changes nothing
  EXPECT_EQ(StageRegistry::ids(), cpu);
}

// The message of the std::logic_error that registering `stage` throws ("" when it is registered).
std::string refusal(const StageInfo& stage) {
  try {
    StageRegistry::add(stage);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

TEST(StageRegistry, RefusesADuplicateAnUnregisteredPreviousStageOrNoBytesPerPointStep) {
  const std::size_t before = StageRegistry::all().size();
  EXPECT_NE(refusal(StageRegistry::get("cpu-parallel")).find("registered twice"), std::string::npos);
  const std::string orphan = refusal({.id = "cpu-fancy", .title = "CPU fancy", .bytesPerPointStep = 16, .previous = "cpu-quantum"});
  EXPECT_NE(orphan.find("cpu-quantum"), std::string::npos) << orphan;
  const std::string silent = refusal({.id = "cpu-silent", .title = "CPU silent", .previous = "cpu-serial"});
  EXPECT_NE(silent.find("bytes per point-step"), std::string::npos) << silent;
  EXPECT_EQ(StageRegistry::all().size(), before);
  EXPECT_EQ(StageRegistry::find("cpu-fancy"), nullptr);
  EXPECT_EQ(StageRegistry::find("cpu-silent"), nullptr);
}

// The ends of the ladder: the first and the preferred stage of each kind, here the two CPU stages; one
// preferred stage per kind.
TEST(StageRegistry, TheLadderEndsAreTheFirstAndThePreferredOfEachKind) {
  EXPECT_TRUE(StageRegistry::get("cpu-parallel").preferred);
  const std::string second = refusal({.id = "cpu-best", .title = "CPU best", .bytesPerPointStep = 16, .preferred = true});
  EXPECT_NE(second.find("'cpu-parallel'"), std::string::npos) << second;
  EXPECT_EQ(StageRegistry::ladderEnds(), (std::vector<std::string>{"cpu-serial", "cpu-parallel"}));
  EXPECT_EQ(StageRegistry::ladderEnds(/*includeOpenCL=*/false), (std::vector<std::string>{"cpu-serial", "cpu-parallel"}));
}

TEST(StageRegistry, AnUnknownStageNamesTheKnownOnes) {
  try {
    StageRegistry::get("gpu-slm");
    FAIL() << "core alone knows no OpenCL stage";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-serial, cpu-parallel"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace iso
