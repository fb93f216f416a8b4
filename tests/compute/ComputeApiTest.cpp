// Device discovery, out-of-bounds safety (guard regions), parameter validation, build errors and the
// tuner's candidates.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <tuple>

#include "compute/ClHost.h"
#include "compute/KernelCache.h"
#include "tests/compute/OpenClTestSupport.h"
#include "tests/ScratchDir.h"
#include "compute/SolverFactory.h"
#include "compute/Stage.h"
#include "compute/Tuner.h"
#include "compute/TuningDatabase.h"
#include "compute/stages/OpenClStage.h"

namespace iso::test {
namespace {

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Devices, ListAndSelect) {
  ISO_REQUIRE_DEVICE();
  const auto all = listDevices();
  ASSERT_FALSE(all.empty());
  for (const auto& d : all) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.globalMemBytes, 0u);
    EXPECT_GT(d.maxWorkGroupSize, 0u);
    EXPECT_GE(d.maxWorkItemSizes.size(), 3u);
    EXPECT_NE(d.summary().find(d.selector()), std::string::npos);
  }
  EXPECT_EQ(selectDevice("0").selector(), all[0].selector());
  EXPECT_EQ(selectDevice(all[0].selector()).name, all[0].name);
  EXPECT_EQ(selectDevice(all[0].name.substr(0, 4)).selector(), all[0].selector());
  const std::string msg = errorOf([] { selectDevice("no-such-device-xyz"); });
  EXPECT_NE(msg.find("no OpenCL device matches 'no-such-device-xyz'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(all[0].name), std::string::npos) << "the message lists the devices: " << msg;
}

// A platform of several GPUs is offered whole too ("2 × NVIDIA H100 80GB HBM3"), as one slab per GPU.
TEST(Devices, EveryGpuOfAPlatformIsOfferedTogether) {
  DeviceInfo cpu, gpu0, gpu1;
  cpu.type = "CPU", cpu.name = "host";
  gpu0.platformIndex = gpu1.platformIndex = 1;
  gpu0.type = gpu1.type = "GPU";
  gpu0.name = gpu1.name = "NVIDIA H100 80GB HBM3";
  gpu1.deviceIndex = 1;
  const std::vector<DeviceChoice> alone = deviceChoices({cpu, gpu0});
  ASSERT_EQ(alone.size(), 2u) << "one GPU: no entry for the platform's GPUs together";
  const std::vector<DeviceChoice> choices = deviceChoices({cpu, gpu0, gpu1});
  ASSERT_EQ(choices.size(), 4u);
  EXPECT_EQ(choices[3].selector, "1:0,1:1");
  EXPECT_EQ(choices[3].label.rfind("2 × NVIDIA H100 80GB HBM3", 0), 0u) << choices[3].label;
  EXPECT_TRUE(namesSeveralDevices(choices[3].selector)) << "the grid is cut over them";
}

// Kernels run on sub-buffers inside larger allocations. With NaN guards, any read outside the grid
// would poison the field; with sentinel guards, any write outside it would change them.
TEST(OutOfBounds, NoStageReadsOrWritesOutsideItsBuffers) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Absorbing);
  const SolverOutput ref = runReference(s);
  std::vector<std::pair<std::string, StageParamMap>> runs;
  for (const auto& stage : openClStageIds()) runs.push_back({stage, {}});
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"tile_x", 16}, {"tile_y", 4}, {"y_per_item", 3}}});
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"tile_x", 4}, {"tile_y", 4}, {"x_per_item", 4}, {"y_per_item", 2}}});
  runs.push_back({"gpu-temporal", {{"tile_x", 12}, {"tile_y", 10}, {"x_per_item", 4}, {"y_per_item", 2}, {"z_chunk", 5}}});
  for (const auto& [stage, params] : runs) {
    for (const float guard : {std::nanf(""), 12288.0f}) {  // exact in half too (gpu-half's arrays)
      OpenClSolverOptions o;
      o.guardElements = 4096;
      o.guardValue = guard;
      OpenClSolver solver(buildProblem(s), openClStage(stage), params, *device, o);
      const SolverOutput got = runSolver(solver, s.steps);
      expectStageAgrees(got, ref, stage, stage + " with guards " + std::to_string(guard));
      const std::size_t g = solver.guardElements(), n = solver.grid().paddedSize();
      ASSERT_GE(g, 4096u);
      ASSERT_EQ(solver.rawBuffers(), openClStage(stage).fieldBuffers(solver.parameters()) + 1);
      for (int b = 0; b < solver.rawBuffers(); ++b) {
        const std::vector<float> raw = solver.readRawBuffer(b);
        ASSERT_EQ(raw.size(), n + 2 * g);
        std::size_t changed = 0;
        for (std::size_t i = 0; i < g; ++i) {
          for (float v : {raw[i], raw[g + n + i]})
            if (std::isnan(guard) ? !std::isnan(v) : v != guard) ++changed;
        }
        EXPECT_EQ(changed, 0u) << stage << " wrote outside buffer " << b;
      }
    }
  }
}

TEST(Parameters, BadParametersGiveClearErrors) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Reflecting);
  auto make = [&](const std::string& stage, const StageParamMap& p) {
    return errorOf([&] { OpenClSolver(buildProblem(s), openClStage(stage), p, *device); });
  };
  const int huge = int(device->maxWorkGroupSize);  // huge x 2 work-items cannot fit
  std::string m = make("gpu-slm", {{"tile_x", std::min(huge, 1024)}, {"tile_y", 1024}});
  EXPECT_NE(m.find("exceeds the device's maximum work-group size"), std::string::npos) << m;
  m = make("gpu-basic", {{"wg_x", 0}});
  EXPECT_NE(m.find("wg_x = 0 must be >= 1"), std::string::npos) << m;
  m = make("gpu-slm", {{"tile_z", 4}});
  EXPECT_NE(m.find("unknown parameter 'tile_z'"), std::string::npos) << m;
  EXPECT_NE(m.find("tile_x"), std::string::npos) << "lists the accepted keys: " << m;
  m = make("gpu-optimized", {{"cpu_form", 1}, {"vec", 3}});
  EXPECT_NE(m.find("must be 2, 4, 8 or 16"), std::string::npos) << m;
  if (device->vendor.find("NVIDIA") == std::string::npos) {
    m = make("gpu-optimized", {{"max_registers", 64}});
    EXPECT_NE(m.find("is not an NVIDIA device"), std::string::npos) << m;
    m = make("gpu-optimized", {{"cpu_form", 0}, {"async_copy", 1}});
    EXPECT_NE(m.find("compute capability 8.0"), std::string::npos) << m;
    m = make("gpu-temporal", {{"async_copy", 1}});
    EXPECT_NE(m.find("compute capability 8.0"), std::string::npos) << m;
  }
  m = make("gpu-optimized", {{"cpu_form", 0}, {"x_per_item", 3}});
  EXPECT_NE(m.find("must be 1, 2 or 4"), std::string::npos) << m;
  m = make("gpu-temporal", {{"tile_x", 10}, {"x_per_item", 4}});
  EXPECT_NE(m.find("does not divide the 10 x"), std::string::npos) << m;
  m = make("gpu-temporal", {{"tile_x", 16}, {"tile_y", 16}, {"x_per_item", 4}, {"y_per_item", 4}});
  EXPECT_NE(m.find("at most 8 points per work-item"), std::string::npos) << m;
  m = make("gpu-temporal", {{"y_per_item", 3}});
  EXPECT_NE(m.find("must be 1, 2 or 4"), std::string::npos) << m;

  // Too much local memory: the same device described with 4 KiB of local memory (real devices here
  // have so much that no legal work-group exceeds it).
  DeviceInfo littleLocal = *device;
  littleLocal.localMemBytes = 4096;
  m = errorOf([&] { resolveStageParams(openClStage("gpu-slm"), littleLocal, Grid(37, 29, 23), {{"tile_x", 32}, {"tile_y", 8}}); });
  EXPECT_NE(m.find("tile needs 4608 bytes of local memory"), std::string::npos) << m;
  EXPECT_NE(m.find("has 4096 bytes"), std::string::npos) << m;

  // gpu-half's vel and D by cp.async (async_copy 2) copy vel as halves, and their ring counts in the local
  // memory: the same device described as an NVIDIA 9.0 with 48 KiB.
  DeviceInfo hopper = *device;
  hopper.vendor = "NVIDIA Corporation";
  hopper.nvComputeMajor = 9;
  hopper.localMemBytes = 48 * 1024;
  const StageParamMap copiesVel{{"async_copy", 2}, {"tile_x", 32}, {"tile_y", 8}, {"x_per_item", 2}, {"y_per_item", 2},
                                {"prefetch", 3}};
  StageParamMap floatVel = copiesVel;
  floatVel["storage"] = 1;
  m = errorOf([&] { resolveStageParams(openClStage("gpu-half"), hopper, Grid(64, 45, 29), floatVel); });
  EXPECT_NE(m.find("async_copy=2 copies vel as the fields are stored"), std::string::npos) << m;
  EXPECT_EQ(resolveStageParams(openClStage("gpu-half"), hopper, Grid(64, 45, 29), copiesVel).at("async_copy"), 2);
  StageParamMap deepRing = copiesVel;
  deepRing["prefetch"] = 5;  // 6 planes of 9.2 KiB of halves: 55 KiB
  m = errorOf([&] { resolveStageParams(openClStage("gpu-half"), hopper, Grid(64, 45, 29), deepRing); });
  EXPECT_NE(m.find("bytes of local memory"), std::string::npos) << m;

  // The x and y sums on the tensor cores read that tile of halves in patches of 8 x 16 points: mma=1 is built
  // where the rows allow cp.async (64 wide), not where the tile goes through registers (65 wide), and is
  // refused with another copy form or another shape of work-item. Its rows are one 16-byte chunk longer.
  StageParamMap tensorCores = copiesVel;
  tensorCores["mma"] = 1;
  const OpenClStage& halfStage = openClStage("gpu-half");
  EXPECT_NE(stageBuildOptions(halfStage, resolveStageParams(halfStage, hopper, Grid(64, 45, 29), tensorCores), false,
                              Grid(64, 45, 29), false).find("-DMMA=1"), std::string::npos);
  EXPECT_EQ(stageBuildOptions(halfStage, resolveStageParams(halfStage, hopper, Grid(65, 45, 29), tensorCores), false,
                              Grid(65, 45, 29), false).find("-DMMA"), std::string::npos);
  const StageParamMap resolved = resolveStageParams(halfStage, hopper, Grid(64, 45, 29), tensorCores);
  // 4 planes of (64 + 16 + 8) x (16 + 16) halves, and vel and D of (64 + 8) x 16 points for each; the weights.
  EXPECT_EQ(halfStage.localMemoryBytes(resolved), 4u * ((64 + 16 + 8) * (16 + 16) + 2 * (64 + 8) * 16) * 2 + 9 * 32 * 8);
  for (const auto& [key, value, expected] :
       {std::tuple{"async_copy", 1, "reads the tile of halves that async_copy=2 copies"},
        std::tuple{"fold_layer", 1, "reads the tile of halves that async_copy=2 copies"},
        std::tuple{"y_per_item", 1, "patches of 8 x 16 points"}, std::tuple{"tile_y", 4, "patches of 8 x 16 points"}}) {
    StageParamMap wrong = tensorCores;
    wrong[key] = value;
    m = errorOf([&] { resolveStageParams(halfStage, hopper, Grid(64, 45, 29), wrong); });
    EXPECT_NE(m.find(expected), std::string::npos) << key << ": " << m;
  }
  m = errorOf([&] { resolveStageParams(halfStage, *device, Grid(64, 45, 29), tensorCores); });
  EXPECT_NE(m.find("NVIDIA"), std::string::npos) << m;

  for (const int cells : {-1, kMaxLayerCells + 1}) {
    OpenClSolverOptions o;
    o.layerCells = cells;
    m = errorOf([&] { OpenClSolver(buildProblem(s), openClStage("gpu-basic"), {}, *device, o); });
    EXPECT_NE(m.find("cells per work-item must be 1 to 8"), std::string::npos) << m;
  }

  // Grids that do not fit: 32-bit indexing, max allocation, global memory.
  m = errorOf([&] { checkGridFitsDevice(Grid(1300, 1300, 1300), *device); });
  EXPECT_NE(m.find("32-bit"), std::string::npos) << m;
  DeviceInfo small = *device;
  small.maxAllocBytes = 1 << 20;
  m = errorOf([&] { checkGridFitsDevice(Grid(100, 100, 100), small); });
  EXPECT_NE(m.find("per allocation"), std::string::npos) << m;
  small.maxAllocBytes = 1ull << 40;
  small.globalMemBytes = 8 << 20;
  m = errorOf([&] { checkGridFitsDevice(Grid(100, 100, 100), small); });
  EXPECT_NE(m.find("of device memory"), std::string::npos) << m;
  EXPECT_NE(m.find("choose a smaller grid"), std::string::npos) << m;
  // Four field buffers and vel for two steps per pass: a grid that fits three buffers may not fit five.
  small.globalMemBytes = 4 * Grid(100, 100, 100).paddedSize() * sizeof(float);
  EXPECT_NO_THROW(checkGridFitsDevice(Grid(100, 100, 100), small));
  m = errorOf([&] { checkGridFitsDevice(Grid(100, 100, 100), small, 4); });
  EXPECT_NE(m.find("(5 buffers of"), std::string::npos) << m;
  EXPECT_NO_THROW(checkGridFitsDevice(Grid(100, 100, 100), *device));
  // Half storage counts two bytes a value: three half fields and a half vel where float arrays would not fit.
  DeviceInfo large = *device;
  large.maxAllocBytes = 1ull << 40;
  large.globalMemBytes = 4 * 2 * Grid(1024, 1024, 1000).paddedSize() + (1 << 20);
  const FieldStorage half{true, true, true};
  EXPECT_NO_THROW(checkGridFitsDevice(Grid(1024, 1024, 1000), large, 3, half));
  m = errorOf([&] { checkGridFitsDevice(Grid(1024, 1024, 1000), large, 3); });
  EXPECT_NE(m.find("of device memory"), std::string::npos) << m;

  // Slabs on one device share its memory: two that fit alone do not fit together; on two devices they do.
  DeviceInfo card = *device, other = *device;
  other.deviceIndex = card.deviceIndex + 1;
  const std::vector<Slab> halves{{0, 50}, {50, 50}};
  card.globalMemBytes = other.globalMemBytes = openClSolverBytes(Grid(100, 100, 50)) * 3 / 2;
  m = errorOf([&] { checkSlabsFitDevices(Grid(100, 100, 100), halves, {&card, &card}); });
  EXPECT_NE(m.find("for its slabs there"), std::string::npos) << m;
  EXPECT_NO_THROW(checkSlabsFitDevices(Grid(100, 100, 100), halves, {&card, &other}));
  EXPECT_NO_THROW(checkSlabsFitDevices(Grid(100, 100, 100), halves, {&card, nullptr}));  // another rank's
  // Counted as their stage stores them: half storage's three 2-byte buffers and vel fit where floats do not.
  EXPECT_NO_THROW(checkSlabsFitDevices(Grid(100, 100, 100), halves, {&card, &card}, 3, half));
  m = errorOf([&] { checkSlabsFitDevices(Grid(100, 100, 100), halves, {&card, &card}, 4); });
  EXPECT_NE(m.find("for its slabs there"), std::string::npos) << m;

  // Unknown stage through the factory.
  m = errorOf([&] { createSolver(buildProblem(s), ExecutionConfig{"gpu-fastest", "", {}}); });
  EXPECT_NE(m.find("unknown stage 'gpu-fastest'"), std::string::npos) << m;
}

TEST(Build, AFailedBuildReportsTheBuildLog) {
  ISO_REQUIRE_DEVICE();
  try {
    OpenClSolver::buildForTest(*device, "__kernel void broken(__global float* a) { a[0] = undeclared_name; }", "");
    FAIL() << "a broken kernel built";
  } catch (const ComputeError& e) {
    EXPECT_EQ(e.status(), ComputeStatus::BuildFailure);
    const std::string m = e.what();
    EXPECT_NE(m.find("build log"), std::string::npos) << m;
    EXPECT_NE(m.find("undeclared_name"), std::string::npos) << "the compiler's own words are in it: " << m;
  }
}

// max_registers on NVIDIA: the directive lands in every kernel entry, before its body; text without an
// entry (not PTX) is refused.
TEST(Build, PtxRegisterCapGoesIntoEveryEntry) {
  const std::string ptx =
      ".version 9.0\n.target sm_90\n.entry a(\n .param .u64 a_param_0\n)\n.reqntid 32, 8, 1\n{\n ret;\n}\n"
      ".entry b(\n .param .u32 b_param_0\n)\n{\n ret;\n}\n";
  const std::string patched = ptxWithMaxRegisters(ptx, 128);
  EXPECT_EQ(patched, ".version 9.0\n.target sm_90\n.entry a(\n .param .u64 a_param_0\n)\n.reqntid 32, 8, 1\n"
                     ".maxnreg 128\n{\n ret;\n}\n.entry b(\n .param .u32 b_param_0\n)\n.maxnreg 128\n{\n ret;\n}\n");
  EXPECT_THROW(ptxWithMaxRegisters("\x7f" "ELF binary", 64), ComputeError);
}

// Every parameter set the tuner can choose on this device computes the same field.
TEST(Tuner, EveryCandidateGivesTheSameField) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Absorbing);
  const SolverOutput ref = runReference(s);
  const Grid grid(s.n1, s.n2, s.n3);
  for (const Stage* stage : tunableStages()) {
    const auto candidates = stage->tuningCandidates(*device, grid);
    ASSERT_FALSE(candidates.empty()) << stage->id();
    for (const auto& c : candidates) {
      OpenClSolverOptions o;
      o.useTuningDatabase = false;
      OpenClSolver solver(buildProblem(s), *stage->openCl(), c, *device, o);
      expectStageAgrees(runSolver(solver, s.steps), ref, stage->id(), stage->id() + " " + formatStageParams(c));
    }
  }
}

TEST(Tuner, TuneStoresTheBestAndDefaultsFollowIt) {
  ISO_REQUIRE_DEVICE();
  // A private cache dir, so the test does not change the user's tuning database.
  const std::string dir = test::scratchPath("tuner-cache").string();
  const char* old = std::getenv("ISO3DFD_CACHE_DIR");
  const std::string saved = old ? old : "";
  setenv("ISO3DFD_CACHE_DIR", dir.c_str(), 1);
  std::filesystem::remove_all(dir);
  const Scenario s = smallScenario(24, 20, 18, BoundaryKind::Reflecting);
  const Problem p = buildProblem(s);
  TuneOptions o;
  o.warmupSteps = 1;
  o.timedSteps = 2;
  o.repeats = 1;
  const TuneResult r = tuneStage(p, *device, openClStage("gpu-optimized"), o);
  EXPECT_EQ(r.candidates.size(), tuningCandidates(openClStage("gpu-optimized"), *device, p.grid).size());
  EXPECT_GT(r.bestMpts, 0.0);
  const std::optional<TunedParams> stored = lookupTuning("gpu-optimized", *device, p.grid);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->params, r.best);
  EXPECT_FALSE(stored->shipped);
  EXPECT_EQ(defaultStageParams(openClStage("gpu-optimized"), *device, p.grid), r.best);
  // A manual override wins over the database.
  EXPECT_EQ(resolveStageParams(openClStage("gpu-optimized"), *device, p.grid, {{"z_chunk", 3}}).at("z_chunk"), 3);
  if (old) setenv("ISO3DFD_CACHE_DIR", saved.c_str(), 1); else unsetenv("ISO3DFD_CACHE_DIR");
}

}  // namespace
}  // namespace iso::test
