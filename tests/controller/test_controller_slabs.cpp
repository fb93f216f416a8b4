// A studio run on several devices ("P:D,P:D", what the device box's "N × GPU" selects) cuts the grid
// into slabs and reports each device's share and how busy it was beside the total.
#include <gtest/gtest.h>

#include "app/controller/SimulationController.h"
#include "compute/DeviceRegistry.h"
#include "core/ScenarioResize.h"
#include "tests/controller/WaitFor.h"

namespace iso {
namespace {

using test::waitFor;

TEST(ControllerSlabs, TwoDevicesGiveTwoSlabsWithTheirOwnCounters) {
  if (listDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  Scenario s = resizedScenario(presetScenario("default"), 24, 20, 32);
  s.stage = "gpu-basic";
  const std::string one = selectDevice("").selector();
  s.device = one + "," + one;
  s.steps = 0;  // runs on
  SimulationController controller;
  playWhenBuilt(controller, s, 1);
  ASSERT_TRUE(waitFor([&] { return controller.status().slabs.size() == 2; })) << "two slabs report";
  const ControllerStatus status = controller.status();
  EXPECT_EQ(status.device.rfind("2 × ", 0), 0u) << status.device;
  double shares = 0.0;
  for (int n = 0; n < 2; ++n) {
    const ControllerStatus::SlabRate& slab = status.slabs[std::size_t(n)];
    EXPECT_EQ(slab.firstPlane, 16 * n);
    EXPECT_EQ(slab.planes, 16);
    EXPECT_NE(slab.device.find("[" + one + "]"), std::string::npos) << slab.device;
    EXPECT_GT(slab.mpts, 0.0);
    EXPECT_GT(slab.busy, 0.0);
    EXPECT_LE(slab.busy, 1.0 + 1e-6) << "a device cannot compute longer than the steps take";
    shares += slab.mpts;
  }
  // Both the slabs' rates and the total come from the same steps; the total is smoothed over windows.
  EXPECT_GT(shares, 0.2 * status.throughput.mpts);
  EXPECT_LT(shares, 5.0 * status.throughput.mpts);
}

}  // namespace
}  // namespace iso
