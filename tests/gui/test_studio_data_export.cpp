// File ▸ Export data and Save/Restore state in a running window: the files hold what the run computed,
// and a restored state continues bit for bit. For the tools outside: the traces as a SEG-Y shot gather,
// and the wavefield series for ParaView, whose frames are the run's fields at the steps its collection
// names, written while the run goes on, until the user stops it or the run is reset.
#include <gtest/gtest.h>

#include <QImage>
#include <QSet>
#include <filesystem>
#include <fstream>
#include <regex>

#include "app/studio/DataExportActions.h"
#include "app/studio/MainWindow.h"
#include "app/studio/SimulationPane.h"
#include "core/CpuSolvers.h"
#include "core/Npy.h"
#include "core/Problem.h"
#include "core/VelocityModel.h"
#include "core/ScenarioResize.h"
#include "core/VtiSeriesWriter.h"
#include "core/VtiWriter.h"
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

// (step, time) of every frame a series' collection lists.
std::vector<std::pair<long, double>> collection(const std::filesystem::path& folder) {
  std::ifstream in(folder / VtiSeriesWriter::kCollectionName);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::pair<long, double>> frames;
  static const std::regex entry(R"re(timestep="([^"]+)" group="" part="0" file="wavefield_(\d+)\.vti")re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry); it != std::sregex_iterator(); ++it)
    frames.emplace_back(std::stol((*it)[2]), std::stod((*it)[1]));
  return frames;
}

// A window whose run is on its way to a pause step.
struct PausedWindow {
  explicit PausedWindow(long step) : window(scenario()) {
    window.show();
    runTo(step);
  }
  static Scenario scenario() {
    Scenario s = resizedScenario(presetScenario("default"), 27, 21, 17);
    s.stage = "cpu-serial";
    return s;
  }
  bool pausedAt(long step) {
    return test::waitUntil([&] {
      const ControllerStatus s = window.pane()->lastStatus();
      return s.step == step && !s.playing;
    });
  }
  void runTo(long step) {
    window.pane()->controller().setPauseAtStep(step);
    window.setPlaying(true);
  }
  MainWindow window;
};

TEST(StudioDataExport, ASeriesHoldsTheRunsFieldsEveryKStepsUntilStopped) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  PausedWindow w(10);
  ASSERT_TRUE(w.pausedAt(10));
  DataExportActions& actions = *w.window.dataExport();
  const auto folder = test::scratchPath("studio-series");
  actions.startSeries(QString::fromStdString(folder.string()), 5, 1);
  EXPECT_TRUE(actions.seriesRunning());
  EXPECT_EQ(actions.seriesAction()->text().remove('&'), "Stop the wavefield series");
  w.runTo(32);
  ASSERT_TRUE(w.pausedAt(32));
  const Outcome report = runAndWait(actions, [&] { actions.stopSeries(); });
  EXPECT_TRUE(report.ok) << report.text.toStdString();
  EXPECT_TRUE(report.text.contains("5 frames")) << report.text.toStdString();
  EXPECT_FALSE(actions.seriesRunning());
  EXPECT_EQ(actions.seriesAction()->text().remove('&'), "Wavefield series…");

  const auto frames = collection(folder);
  ASSERT_EQ(frames.size(), 5u);
  auto reference = createCpuSolver(buildProblem(w.window.pane()->controller().activeScenario()), "cpu-serial");
  const double dt = w.window.pane()->lastStatus().dt;
  long at = 0;
  std::vector<float> expected;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const long step = 10 + 5 * long(f);
    EXPECT_EQ(frames[f].first, step);
    EXPECT_DOUBLE_EQ(frames[f].second, double(step) * dt);
    reference->advance(int(step - at));
    at = step;
    reference->readField(expected);
    const VtiImage image = readVti((folder / VtiSeriesWriter::frameName(step)).string());
    EXPECT_EQ(image.size, (std::array<int, 3>{27, 21, 17}));
    EXPECT_EQ(image.arrays.at(0).values, expected) << "step " << step;
  }
}

TEST(StudioDataExport, AResetEndsTheSeriesAndAFileInTheWayIsReported) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  PausedWindow w(6);
  ASSERT_TRUE(w.pausedAt(6));
  DataExportActions& actions = *w.window.dataExport();
  const auto folder = test::scratchPath("studio-series-reset");
  actions.startSeries(QString::fromStdString(folder.string()), 2, 2);
  w.runTo(10);
  ASSERT_TRUE(w.pausedAt(10));
  const Outcome report = runAndWait(actions, [&] { w.window.pane()->controller().reset(); });
  EXPECT_TRUE(report.ok) << report.text.toStdString();
  EXPECT_EQ(collection(folder).size(), 3u);  // steps 6, 8 and 10
  EXPECT_EQ(readVti((folder / VtiSeriesWriter::frameName(8)).string()).size, (std::array<int, 3>{14, 11, 9}));

  const auto file = test::scratchPath("a-file-not-a-folder");
  std::ofstream(file.string()) << "x";
  const Outcome refused = runAndWait(actions, [&] { actions.startSeries(QString::fromStdString(file.string()), 2, 1); });
  EXPECT_FALSE(refused.ok);
  EXPECT_TRUE(refused.text.contains("not a folder")) << refused.text.toStdString();
  EXPECT_FALSE(actions.seriesRunning());
}

TEST(StudioDataExport, TracesGoOutAsASegyShotGather) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  PausedWindow w(30);
  ASSERT_TRUE(w.pausedAt(30));
  DataExportActions& actions = *w.window.dataExport();
  const auto path = test::scratchPath("studio-shot.sgy");
  const Outcome report = runAndWait(actions, [&] {
    actions.exportTo(DataExportActions::Data::Traces, QString::fromStdString(path.string()));
  });
  ASSERT_TRUE(report.ok) << report.text.toStdString();
  const std::size_t receivers = w.window.pane()->controller().activeScenario().receivers.size();
  ASSERT_GT(receivers, 0u);
  // The textual and binary headers, then per receiver a trace header, u^0 and the 30 samples.
  EXPECT_EQ(std::filesystem::file_size(path), 3600 + receivers * (240 + 31 * 4));
  EXPECT_TRUE(report.text.contains("31 samples")) << report.text.toStdString();
}

}  // namespace
}  // namespace iso
