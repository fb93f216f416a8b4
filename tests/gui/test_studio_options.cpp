// The studio's command line against iso3dfd's: the scenario options are one table (app/options), so the
// same words describe the same scenario in both programs, and a bad value is refused by both with the
// same message (and exit status 2) before anything runs.
#include <gtest/gtest.h>

#include <QProcess>
#include <filesystem>
#include <string>
#include <vector>

#include "app/options/ScenarioOptionTable.h"
#include "app/studio/StudioCli.h"
#include "tests/ScratchDir.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

struct CliRun {
  int exitCode = -1;
  QString output;
};

CliRun runCli(const QStringList& arguments) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(ISO3DFD_BINARY, arguments);
  CliRun r;
  if (p.waitForFinished(60000 * test::timeoutScale()) && p.exitStatus() == QProcess::NormalExit) r.exitCode = p.exitCode();
  r.output = QString::fromLocal8Bit(p.readAll());
  return r;
}

// The scenario iso3dfd runs for `arguments` (saved by run --save-scenario), as JSON; "" if it failed.
std::string cliScenario(const QStringList& arguments) {
  const std::filesystem::path file = test::scratchPath("cli-scenario.json");
  std::filesystem::remove(file);
  const CliRun r = runCli(QStringList{"run"} + arguments + QStringList{"--save-scenario", QString::fromStdString(file.string())});
  EXPECT_EQ(r.exitCode, 0) << arguments.join(' ').toStdString() << " gave:\n" << r.output.toStdString();
  return r.exitCode == 0 ? scenarioToJson(loadScenarioFile(file.string())) : "";
}

TEST(StudioOptions, BothProgramsReadTheSameScenarioFromTheSameWords) {
  const std::filesystem::path file = test::scratchPath("start.json");
  Scenario start = presetScenario("oneapi");
  start.name = "from a file";
  start.n1 = 21, start.n2 = 19, start.n3 = 17;
  start.steps = 3;  // the run's length, from the file
  saveScenarioFile(start, file.string());
  // The run's length otherwise: iso3dfd's number after the grid, the studio's --steps.
  const QStringList cliLength{"3"}, studioLength{"--steps", "3"};
  const struct {
    QStringList words;
    bool lengthFromFile;
  } cases[] = {
      {{"--scenario", "oneapi", "--size", "20,18,16", "--stage", "cpu-serial"}, false},
      {{"--preset", "default", "--size", "14", "--model", "constant", "--velocity", "2500", "--source-pos", "3,4,5",
        "--frequency", "20", "--amplitude", "1000", "--boundary", "sponge", "--boundary-width", "3", "--coefficients",
        "oneapi", "--dx", "12.5", "--dt", "0.0005", "--stage", "cpu-parallel", "--param", "threads=2", "--param", "block_y=8",
        "--receiver", "1,2,3", "--receiver", "4,5,6"},
       false},
      {{"--scenario", QString::fromStdString(file.string()), "--threads", "2", "--stage", "cpu-parallel", "--source", "none",
        "--dt", "auto"},
       true},
  };
  for (const auto& [words, lengthFromFile] : cases) {
    const std::string cli = cliScenario(words + (lengthFromFile ? QStringList{} : cliLength));
    QString error;
    const auto studio =
        parseStudioOptions(QStringList{"iso3dfd-studio"} + words + (lengthFromFile ? QStringList{} : studioLength), error);
    ASSERT_TRUE(studio) << words.join(' ').toStdString() << ": " << error.toStdString();
    EXPECT_EQ(scenarioToJson(studio->scenario), cli) << words.join(' ').toStdString();
  }
}

// The message the shared parser gives for `words`, or the one checking the scenario they make gives.
std::string sharedRefusal(const QStringList& words) {
  try {
    ScenarioOverrides overrides;
    for (const ScenarioOption& option : scenarioOptionTable()) {
      std::vector<std::string> values;
      for (int n = 0; n + 1 < words.size(); ++n)
        if (words[n] == QString::fromStdString("--" + option.name) || (!option.alias.empty() && words[n] == QString::fromStdString("--" + option.alias)))
          values.push_back(words[n + 1].toStdString());
      setScenarioOption(overrides, option, values);
    }
    validateScenario(overrides.resolve());
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(StudioOptions, BothProgramsRefuseABadValueWithTheSameMessage) {
  const QStringList cases[] = {
      {"--size", "0,64,64"}, {"--size", "7,7"},      {"--dx", "ten"},       {"--dt", "soon"},
      {"--param", "tile_x"}, {"--receiver", "1,2"},  {"--model", "marble"}, {"--boundary", "open"},
      {"--stage", "gpu-warp"}, {"--preset", "nope"}, {"--dx", "1", "--dx", "2"}, {"--dx", "-5"},
      {"--scenario", "/nonexistent/run.json"}, {"--threads", "0"},
  };
  for (const QStringList& words : cases) {
    const QString message = QString::fromStdString(sharedRefusal(words));
    ASSERT_FALSE(message.isEmpty()) << words.join(' ').toStdString() << " is accepted";
    const CliRun cli = runCli(QStringList{"run"} + words);
    EXPECT_EQ(cli.exitCode, 2) << cli.output.toStdString();
    EXPECT_TRUE(cli.output.contains(message)) << "iso3dfd: " << cli.output.toStdString() << "\nexpected: " << message.toStdString();
    const test::StudioRun studio = test::runStudio(words, {"QT_QPA_PLATFORM=offscreen"}, 60000);
    EXPECT_EQ(studio.exitCode, 2) << studio.output.toStdString();
    EXPECT_TRUE(studio.output.contains(message))
        << "iso3dfd-studio: " << studio.output.toStdString() << "\nexpected: " << message.toStdString();
  }
}

TEST(StudioOptions, TheStudiosOlderSpellingsStillWork) {
  QString error;
  const auto positional = parseStudioOptions({"iso3dfd-studio", "--preset", "oneapi", "--size", "30,20,10"}, error);
  ASSERT_TRUE(positional) << error.toStdString();
  EXPECT_EQ(positional->scenario.n1, 30);
  EXPECT_EQ(positional->scenario.coefficients, presetScenario("oneapi").coefficients);
  const auto file = test::scratchPath("older.json");
  saveScenarioFile(presetScenario("oneapi"), file.string());
  const auto opened = parseStudioOptions({"iso3dfd-studio", QString::fromStdString(file.string()), "--stage", "cpu-serial"}, error);
  ASSERT_TRUE(opened) << error.toStdString();
  EXPECT_EQ(opened->scenarioFile, QString::fromStdString(file.string()));
  EXPECT_TRUE(opened->scenarioEdited) << "--stage changed the file's scenario";
  EXPECT_FALSE(parseStudioOptions({"iso3dfd-studio", QString::fromStdString(file.string()), "--scenario", "oneapi"}, error));
  EXPECT_TRUE(error.contains("give at most one scenario")) << error.toStdString();
  const auto cube = parseStudioOptions({"iso3dfd-studio", "--bench-panel", "--size", "24"}, error);
  ASSERT_TRUE(cube) << error.toStdString();
  EXPECT_EQ(cube->benchSize, 24) << "the panel's cube";
}

TEST(StudioOptions, WhatMakesTheFramesAndThePicturesIsChosenByName) {
  QString error;
  const auto chosen = parseStudioOptions(
      {"iso3dfd-studio", "--view-frames", "OpenGL", "--record", "v.mp4", "--frames", "2", "--record-pictures", "device"}, error);
  ASSERT_TRUE(chosen) << error.toStdString();
  EXPECT_EQ(chosen->viewFrames, PictureMaker::OpenGl);
  EXPECT_EQ(chosen->recordPictures, PictureMaker::Device);
  const auto defaults = parseStudioOptions({"iso3dfd-studio"}, error);
  ASSERT_TRUE(defaults) << error.toStdString();
  EXPECT_EQ(defaults->viewFrames, PictureMaker::Auto);
  EXPECT_FALSE(parseStudioOptions({"iso3dfd-studio", "--view-frames", "vulkan"}, error));
  EXPECT_EQ(error, "--view-frames vulkan: expected auto, opengl or device");
}

TEST(StudioOptions, TheHelpListsEveryOption) {
  const test::StudioRun help = test::runStudio({"--help"}, {"QT_QPA_PLATFORM=offscreen"}, 60000);
  ASSERT_EQ(help.exitCode, 0) << help.output.toStdString();
  for (const ScenarioOption& option : scenarioOptionTable())
    EXPECT_TRUE(help.output.contains(QString::fromStdString("--" + option.name))) << option.name;
  for (const char* name : {"--preset", "--steps", "--screenshot", "--record", "--compare", "--bench-panel", "--stages-window"})
    EXPECT_TRUE(help.output.contains(name)) << name;
}

}  // namespace
}  // namespace iso
