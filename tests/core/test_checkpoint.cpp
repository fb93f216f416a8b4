// Checkpoints: a solver's state saved, loaded and continued equals the run without the stop, bit for bit;
// a damaged file is refused with a message that says what is wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/OutputFile.h"
#include "core/Checkpoint.h"
#include "core/VelocityModel.h"
#include "tests/ScratchDir.h"
#include "tests/core/SolverTestUtil.h"

namespace iso {
namespace {

Scenario checkpointScenario() {
  Scenario s = testing::rickerScenario(23, 19, 17, 2000.0, 10.0, 0.0, 25.0);
  s.source.delay = 0.04;  // the source still fires after the cut at step 12
  s.boundary = {BoundaryKind::Absorbing, 4, 1e-3};
  s.receivers = {{3, 4, 5}, {11, 9, 8}};
  return s;
}

TEST(Checkpoint, RestoredSolversContinueBitForBit) {
  for (const std::string stage : {"cpu-serial", "cpu-parallel"}) {
    const Scenario s = checkpointScenario();
    auto whole = testing::makeSolver(s, stage);
    whole->advance(30);

    auto first = testing::makeSolver(s, stage);
    first->advance(12);
    const auto path = test::scratchPath("solver-" + stage + ".ckp");
    saveCheckpoint(path.string(), {s, buildVelocityModel(s), first->saveState()});
    const Checkpoint c = loadCheckpoint(path.string());
    EXPECT_EQ(c.state.step, 12);
    // The wave is in the absorbing layer by then, so the restart depends on its memory variables.
    EXPECT_EQ(c.state.boundaryMemory.size(), buildProblem(s).pml.memoryFloats());
    EXPECT_TRUE(std::any_of(c.state.boundaryMemory.begin(), c.state.boundaryMemory.end(), [](float v) { return v != 0.0f; }));
    auto second = createCpuSolver(buildProblem(c.scenario, c.velocity), stage, c.scenario.stageParams);
    second->restoreState(c.state);
    second->advance(18);

    std::vector<float> a, b;
    whole->readField(a);
    second->readField(b);
    EXPECT_EQ(a, b) << stage;
    EXPECT_EQ(whole->traces(), second->traces()) << stage;
    EXPECT_EQ(second->currentStep(), 30);
  }
}

TEST(Checkpoint, RefusesDamagedFiles) {
  const Scenario s = checkpointScenario();
  auto solver = testing::makeSolver(s, "cpu-parallel");
  solver->advance(3);
  const auto path = test::scratchPath("damaged.ckp");
  saveCheckpoint(path.string(), {s, buildVelocityModel(s), solver->saveState()});
  const auto size = std::filesystem::file_size(path);
  const auto expectRefused = [&](const std::string& fragment) {
    try {
      loadCheckpoint(path.string());
      ADD_FAILURE() << "accepted a damaged checkpoint; expected: " << fragment;
    } catch (const CheckpointError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(size - 5));
    f.put('\x11');
  }
  expectRefused("checksum mismatch");
  std::filesystem::resize_file(path, size - 4);
  expectRefused("truncated");
  writeWholeFile(path.string(), std::string("ISO3DCKP\x04\0\0\0\0\0\0\0", 16));
  expectRefused("format version 4");
  writeWholeFile(path.string(), std::string("ISO3DCKP\x01\0\0\0\0\0\0\0", 16));
  expectRefused("written by an older version");
  writeWholeFile(path.string(), "not a checkpoint at all");
  expectRefused("wrong magic");
  writeWholeFile(path.string(), std::string("ISO3DCKP\x02\0\0\0\xff\xff\xff\x7f", 16));
  expectRefused("header length");
  EXPECT_THROW(loadCheckpoint(test::scratchPath("missing.ckp").string()), CheckpointError);
}

TEST(Checkpoint, SizesThatDoNotMatchTheScenarioAreNotWritten) {
  const Scenario s = checkpointScenario();
  SolverState state;
  state.step = 1;
  state.current.assign(10, 0.0f);
  EXPECT_THROW(saveCheckpoint(test::scratchPath("bad.ckp").string(), {s, buildVelocityModel(s), state}), CheckpointError);
  EXPECT_FALSE(std::filesystem::exists(test::scratchPath("bad.ckp")));
  auto solver = testing::makeSolver(s, "cpu-serial");
  EXPECT_THROW(solver->restoreState(state), std::invalid_argument);
}

}  // namespace
}  // namespace iso
