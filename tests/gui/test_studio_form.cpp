// The scenario form's stage parameters: each box stands for the key the chosen stage takes, and a
// change of stage never carries another stage's keys into the scenario (the solver would refuse them).
// Also the model file's unit box.
// Widgets only: runs on any Qt platform.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QSpinBox>
#include <QWidget>
#include <algorithm>
#include <map>
#include <string>

#include "app/studio/ScenarioForm.h"
#include "compute/SolverFactory.h"

namespace iso {
namespace {

class StudioForm : public ::testing::Test {
 protected:
  QSpinBox* box(const char* name) const {
    auto* b = form_.stagePage()->findChild<QSpinBox*>(name);
    EXPECT_NE(b, nullptr) << name;
    return b;
  }
  void chooseStage(const std::string& stage) {
    auto* combo = form_.stagePage()->findChild<QComboBox*>("stage");
    ASSERT_NE(combo, nullptr);
    const int index = combo->findData(QString::fromStdString(stage));
    ASSERT_GE(index, 0) << stage;
    combo->setCurrentIndex(index);
  }
  static Scenario withParams(const std::string& stage, std::map<std::string, int> params) {
    Scenario s = presetScenario("default");
    s.stage = stage;
    s.stageParams = std::move(params);
    return s;
  }
  // Every key of the form's scenario is one its stage takes.
  void expectAccepted() const {
    const Scenario s = form_.scenario();
    const auto accepted = resolveStage(s.stage).parameterNames();
    for (const auto& [key, value] : s.stageParams)
      EXPECT_NE(std::find(accepted.begin(), accepted.end(), key), accepted.end()) << s.stage << " got " << key;
  }
  ScenarioForm form_;
};

TEST_F(StudioForm, BoxesStandForTheKeysOfEachStage) {
  const std::map<std::string, std::map<std::string, int>> cases = {
      {"cpu-parallel", {{"threads", 1}, {"block_x", 128}, {"block_y", 8}, {"block_z", 32}}},
      {"gpu-basic", {{"wg_x", 64}, {"wg_y", 2}}},
      {"gpu-private-z", {{"wg_x", 32}, {"wg_y", 4}, {"z_chunk", 16}}},
      {"gpu-slm", {{"tile_x", 32}, {"tile_y", 8}, {"z_chunk", 64}}},
  };
  for (const auto& [stage, params] : cases) {
    form_.setScenario(withParams(stage, params));
    EXPECT_EQ(form_.scenario().stageParams, params) << stage;
  }
  form_.setScenario(withParams("cpu-parallel", {{"block_y", 8}}));
  EXPECT_EQ(box("tile_y")->value(), 8);
  EXPECT_TRUE(box("threads")->isEnabled());
  form_.setScenario(withParams("gpu-basic", {{"wg_x", 64}}));
  EXPECT_EQ(box("tile_x")->value(), 64);
  EXPECT_FALSE(box("threads")->isEnabled());
  EXPECT_FALSE(box("z_chunk")->isEnabled()) << "gpu-basic takes no z chunk";
  form_.setScenario(withParams("cpu-serial", {}));
  for (const char* name : {"threads", "tile_x", "tile_y", "z_chunk"}) EXPECT_FALSE(box(name)->isEnabled()) << name;
}

TEST_F(StudioForm, ChangingTheStageDropsTheOldStagesParameters) {
  // gpu-optimized's own keys, with and without a box: none of them may reach cpu-parallel.
  form_.setScenario(withParams("gpu-optimized", {{"tile_x", 32}, {"tile_y", 16}, {"x_per_item", 2}}));
  int changes = 0;
  QObject::connect(&form_, &ScenarioForm::changed, [&] { ++changes; });
  chooseStage("cpu-parallel");
  EXPECT_EQ(changes, 1) << "one stage change, one rebuild";
  EXPECT_TRUE(form_.scenario().stageParams.empty());
  EXPECT_EQ(box("tile_x")->value(), 0) << "the new stage starts from its tuned defaults";
  expectAccepted();

  box("tile_x")->setValue(64);
  EXPECT_EQ(form_.scenario().stageParams, (std::map<std::string, int>{{"block_x", 64}}));
  chooseStage("gpu-basic");
  expectAccepted();
  box("tile_y")->setValue(4);
  EXPECT_EQ(form_.scenario().stageParams, (std::map<std::string, int>{{"wg_y", 4}}));
}

TEST_F(StudioForm, ModelFileUnitIsKeptAndChosen) {
  Scenario s = presetScenario("default");
  s.model.kind = ModelKind::File;
  s.model.path = "model.npy";
  s.model.fileUnit = VelocityUnit::KilometresPerSecond;
  form_.setScenario(s);
  EXPECT_EQ(form_.scenario().model.fileUnit, VelocityUnit::KilometresPerSecond);
  auto* unit = form_.physicsPage()->findChild<QComboBox*>("file_unit");
  ASSERT_NE(unit, nullptr);
  EXPECT_EQ(unit->currentText(), "km/s");
  int changes = 0;
  QObject::connect(&form_, &ScenarioForm::changed, [&] { ++changes; });
  unit->setCurrentText("ft/s");
  EXPECT_EQ(changes, 1);
  EXPECT_EQ(form_.scenario().model.fileUnit, VelocityUnit::FeetPerSecond);
}

}  // namespace
}  // namespace iso
