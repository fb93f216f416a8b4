// The counters in the studio's status bar and over its view come from the one formatter the command
// line prints with (core/Metrics): the same figures, and "–" for every rate until a step is timed.
#include <gtest/gtest.h>

#include <QStringList>

#include "app/studio/SimulationPane.h"

namespace iso {
namespace {

ControllerStatus timedStatus() {
  ControllerStatus s;
  s.hasSolver = true;
  s.step = 120;
  s.time = 0.06;
  s.dt = 0.0005;
  s.grid = Grid(64, 64, 64);
  s.stage = "cpu-parallel";
  s.device = "host CPU";
  s.transferPath = "host copy";
  s.ceilingName = "host memcpy bandwidth";
  s.throughput = computeThroughput(64.0 * 64 * 64, 100.0, 0.5, 20.0);  // 52.4288 Mpts/s
  return s;
}

TEST(StudioCounters, StatusBarHudAndReportShowTheSameRate) {
  const ControllerStatus s = timedStatus();
  const QString status = counterLines(s, 30.0, CounterLayout::StatusLine).join("\n");
  const QString hud = counterLines(s, 30.0, CounterLayout::Overlay).join("\n");
  const QString report = QString::fromStdString(formatThroughput(s.throughput));
  EXPECT_TRUE(status.contains("step 120")) << status.toStdString();
  EXPECT_TRUE(status.contains("52.4 Mpts/s")) << status.toStdString();
  EXPECT_TRUE(hud.contains("52.4 Mpts/s")) << hud.toStdString();
  EXPECT_TRUE(report.contains("52.43 Mpts/s")) << report.toStdString();
  EXPECT_TRUE(hud.contains("cpu-parallel · 64×64×64")) << hud.toStdString();
  EXPECT_TRUE(status.contains("% roofline")) << "the ceiling is known";
  EXPECT_EQ(counterLines(s, 30.0, CounterLayout::StatusLine).size(), 1);
}

TEST(StudioCounters, RatesReadADashUntilAStepIsTimed) {
  ControllerStatus s = timedStatus();
  s.throughput = Throughput{};
  s.throughput.ceilingGBs = 20.0;
  const QString status = counterLines(s, 0.0, CounterLayout::StatusLine).join("\n");
  EXPECT_TRUE(status.contains("– Mpts/s")) << status.toStdString();
  EXPECT_FALSE(status.contains("0.0 Mpts/s")) << status.toStdString();
  const QString hud = counterLines(s, 0.0, CounterLayout::Overlay).join("\n");
  EXPECT_TRUE(hud.contains("– Mpts/s")) << hud.toStdString();
  EXPECT_TRUE(hud.contains("roofline: host memcpy bandwidth 20.0 GB/s")) << hud.toStdString();
  s.hasSolver = false;
  EXPECT_EQ(counterLines(s, 0.0, CounterLayout::Overlay), QStringList{"no simulation"});
}

// A stage that moves fewer bytes than the 16 B/pt convention (half storage: 10) also shows what it draws
// itself, so that its roofline share is not read from the 16 B figure alone.
TEST(StudioCounters, AStageWithItsOwnByteCountShowsItsOwnTraffic) {
  ControllerStatus s = timedStatus();
  const QString plain = counterLines(s, 30.0, CounterLayout::Overlay).join("\n");
  EXPECT_FALSE(plain.contains("own")) << plain.toStdString();
  s.stage = "gpu-half";
  s.throughput = computeThroughput(64.0 * 64 * 64, 100.0, 0.5, 20.0, 10.0);  // 52.4288 Mpts/s at 10 B/pt
  const QString hud = counterLines(s, 30.0, CounterLayout::Overlay).join("\n");
  const QString status = counterLines(s, 30.0, CounterLayout::StatusLine).join("\n");
  const QString report = QString::fromStdString(formatThroughput(s.throughput));
  EXPECT_TRUE(hud.contains("own 10 B/pt: 0.52 GB/s, 2.6 % of copy")) << hud.toStdString();
  EXPECT_TRUE(status.contains("own 10 B/pt: 0.5 GB/s, 3 % of copy")) << status.toStdString();
  EXPECT_TRUE(hud.contains("0.84 GB/s (16 B/pt)")) << "the convention's figure stays: " << hud.toStdString();
  EXPECT_TRUE(report.contains("own traffic  : 0.524 GBytes/s (10 B/pt")) << report.toStdString();
}

TEST(StudioCounters, EachDeviceOfACutGridHasALineUnderTheTotal) {
  ControllerStatus s = timedStatus();
  s.device = "2 × NVIDIA H100 80GB HBM3";
  s.slabs = {{"NVIDIA H100 80GB HBM3 [1:0]", 0, 32, 30.1, 0.97}, {"NVIDIA H100 80GB HBM3 [1:1]", 32, 32, 30.1, 0.962}};
  const QStringList hud = counterLines(s, 30.0, CounterLayout::Overlay);
  EXPECT_TRUE(hud.join("\n").contains("52.4 Mpts/s")) << "the total stays";
  ASSERT_GE(hud.size(), 2);
  EXPECT_EQ(hud[hud.size() - 2], "NVIDIA H100 80GB HBM3 [1:0] · z 0–31: 30.1 Mpts/s, busy 97 %");
  EXPECT_EQ(hud.back(), "NVIDIA H100 80GB HBM3 [1:1] · z 32–63: 30.1 Mpts/s, busy 96 %");
  EXPECT_EQ(counterLines(s, 30.0, CounterLayout::StatusLine).size(), 1) << "the status bar keeps one line";
}

}  // namespace
}  // namespace iso
