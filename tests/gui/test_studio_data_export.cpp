// File ▸ Export data and Save/Restore state in a running window: the files hold what the run computed,
// and a restored state continues bit for bit.
#include <gtest/gtest.h>

#include <QImage>
#include <QSet>
#include <filesystem>

#include "app/studio/DataExportActions.h"
#include "app/studio/MainWindow.h"
#include "app/studio/SimulationPane.h"
#include "core/CpuSolvers.h"
#include "core/Npy.h"
#include "core/Problem.h"
#include "core/VelocityModel.h"
#include "core/ScenarioResize.h"
#include "render/SliceView.h"
#include "tests/ScratchDir.h"
#include "tests/gui/test_studio_support.h"

namespace iso {
namespace {

struct Outcome {
  bool done = false, ok = false;
  QString text;
};

// Runs one export or restore through the window's actions and waits for its report.
Outcome runAndWait(DataExportActions& actions, const std::function<void()>& start) {
  Outcome outcome;
  const auto connection = QObject::connect(&actions, &DataExportActions::finished, [&](bool ok, const QString& text) {
    outcome = {true, ok, text};
  });
  start();
  EXPECT_TRUE(test::waitUntil([&] { return outcome.done; })) << "no report";
  QObject::disconnect(connection);
  return outcome;
}

TEST(StudioDataExport, WritesTheFieldModelSlicesAndAStateThatContinuesBitForBit) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario scenario = resizedScenario(presetScenario("default"), 29, 23, 19);
  scenario.stage = "cpu-parallel";
  MainWindow window(scenario);
  window.show();
  SimulationPane* pane = window.pane();
  pane->controller().setPauseAtStep(40);
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step == 40 && !pane->lastStatus().playing; }));
  ASSERT_TRUE(test::waitUntil([&] { return pane->view()->slices() && pane->view()->slices()->step == 40; }));
  DataExportActions& actions = *window.dataExport();

  const auto field = test::scratchPath("export-field.npy"), model = test::scratchPath("export-model.npy");
  const auto vti = test::scratchPath("export-field.vti"), slices = test::scratchPath("export-slices.npy");
  const auto state = test::scratchPath("export-state.ckp");
  const auto traces = test::scratchPath("export-traces.npy"), seismogram = test::scratchPath("export-seismogram.png");
  const auto str = [](const std::filesystem::path& p) { return QString::fromStdString(p.string()); };
  for (auto [data, path] : {std::pair{DataExportActions::Data::Wavefield, field}, {DataExportActions::Data::VelocityModel, model},
                            {DataExportActions::Data::Wavefield, vti}, {DataExportActions::Data::Slices, slices},
                            {DataExportActions::Data::Traces, traces}, {DataExportActions::Data::Seismogram, seismogram},
                            {DataExportActions::Data::State, state}}) {
    const Outcome o = runAndWait(actions, [&] { actions.exportTo(data, str(path)); });
    EXPECT_TRUE(o.ok) << o.text.toStdString();
  }

  // The same 40 steps without the studio.
  auto reference = createCpuSolver(buildProblem(window.pane()->controller().activeScenario()), "cpu-parallel");
  reference->advance(40);
  std::vector<float> expected;
  reference->readField(expected);
  const NpyArray u = readNpy(field.string());
  EXPECT_EQ(u.shape, (std::vector<std::size_t>{19, 23, 29}));
  EXPECT_EQ(u.data, expected);
  const NpyArray v = readNpy(model.string());
  EXPECT_EQ(v.data, buildVelocityModel(window.pane()->controller().activeScenario()));
  EXPECT_GT(std::filesystem::file_size(vti), 2 * 29 * 23 * 19 * 4u) << "u and the velocity";
  const std::size_t receivers = window.pane()->controller().activeScenario().receivers.size();
  ASSERT_GT(receivers, 1u);
  const NpyArray t = readNpy(traces.string());
  EXPECT_EQ(t.shape, (std::vector<std::size_t>{40, receivers}));
  EXPECT_EQ(t.data, reference->traces());
  const QImage picture(QString::fromStdString(seismogram.string()));
  ASSERT_FALSE(picture.isNull());
  QSet<QRgb> colours;
  for (int y = picture.height() / 2; y < picture.height() - 20; ++y) colours.insert(picture.pixel(picture.width() / 2, y));
  EXPECT_GT(colours.size(), 10) << "the wave has reached the receivers: the bands are not uniform";
  const auto stem = slices.parent_path() / slices.stem();
  EXPECT_EQ(readNpy(stem.string() + "_xy.npy").shape, (std::vector<std::size_t>{23, 29}));
  EXPECT_EQ(readNpy(stem.string() + "_xz.npy").shape, (std::vector<std::size_t>{19, 29}));
  EXPECT_EQ(readNpy(stem.string() + "_yz.npy").shape, (std::vector<std::size_t>{19, 23}));

  // Run on, then restore: the window goes back to step 40 and continues as the uninterrupted run.
  pane->controller().setPauseAtStep(60);
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step == 60 && !pane->lastStatus().playing; }));
  const Outcome restored = runAndWait(actions, [&] { actions.restoreFrom(str(state)); });
  ASSERT_TRUE(restored.ok) << restored.text.toStdString();
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step == 40; })) << pane->lastStatus().step;
  pane->controller().setPauseAtStep(55);
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step == 55 && !pane->lastStatus().playing; }));
  const auto after = test::scratchPath("export-after.npy");
  ASSERT_TRUE(runAndWait(actions, [&] { actions.exportTo(DataExportActions::Data::Wavefield, str(after)); }).ok);
  reference->advance(15);
  reference->readField(expected);
  EXPECT_EQ(readNpy(after.string()).data, expected) << "the restored run continues bit for bit";
}

TEST(StudioDataExport, AnUnwritableFolderIsReportedAndADamagedStateIsRefused) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario scenario = resizedScenario(presetScenario("default"), 20, 18, 16);
  scenario.stage = "cpu-parallel";
  MainWindow window(scenario);
  window.show();
  SimulationPane* pane = window.pane();
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().hasSolver; }));
  DataExportActions& actions = *window.dataExport();
  Outcome o = runAndWait(actions, [&] { actions.exportTo(DataExportActions::Data::Wavefield, "/nonexistent-folder/u.npy"); });
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.text.indexOf("/nonexistent-folder/u.npy"), -1) << o.text.toStdString();

  const auto junk = test::scratchPath("junk.ckp");
  writeNpy(junk.string(), std::vector<float>(10).data(), {10});
  o = runAndWait(actions, [&] { actions.restoreFrom(QString::fromStdString(junk.string())); });
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.text.indexOf("wrong magic"), -1) << o.text.toStdString();
  EXPECT_EQ(pane->controller().activeScenario().n1, 20) << "the running simulation goes on";
}

}  // namespace
}  // namespace iso
