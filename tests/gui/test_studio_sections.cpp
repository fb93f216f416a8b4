// The parts of the scenario form, each on its own: every part shows a non-default scenario and writes
// back exactly its fields; an edit is reported by the part's own signal; the wheel leaves an unfocused
// box alone. Widgets only: runs on any Qt platform.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSpinBox>
#include <QWheelEvent>

#include "app/studio/BoundaryEditor.h"
#include "app/studio/FormControls.h"
#include "app/studio/ModelEditor.h"
#include "app/studio/PhysicsEditor.h"
#include "app/studio/ScenarioForm.h"
#include "core/ScenarioResize.h"
#include "app/studio/SourceEditor.h"
#include "app/studio/StageEditor.h"

namespace iso {
namespace {

// Every field with a control set away from its default (and from the default preset).
Scenario unusualScenario() {
  Scenario s;
  s.name = "unusual";
  s.n1 = 40, s.n2 = 50, s.n3 = 60;
  s.dx = 12.5;
  s.dt = 0.0004;
  s.dtAutoFraction = 0.3;
  s.coefficients = "oneapi";
  VelocityModelSpec& m = s.model;
  m.kind = ModelKind::Random;
  m.velocity = 2222.0;
  m.layers = {{0.0, 1800.0}, {400.0, 2600.0}};
  m.topVelocity = 1600.0;
  m.bottomVelocity = 3500.0;
  m.randomStdDev = 150.0;
  m.randomCorrelationLength = 80.0;
  m.randomSeed = 7;
  m.path = "velocity.bin";
  m.fileN1 = 10, m.fileN2 = 11, m.fileN3 = 12;
  m.fileUnit = VelocityUnit::FeetPerSecond;
  m.salt = {true, 100.0, 200.0, 300.0, 50.0, 4000.0};
  s.source = {SourceKind::Ricker, 3, 4, 5, 22.5, 2.0e5, 0.125};
  s.boundary = {BoundaryKind::Reflecting, 12, 0.002};
  s.stage = "gpu-slm";
  s.device = "cpu";
  s.stageParams = {{"tile_x", 32}, {"tile_y", 8}, {"z_chunk", 64}};
  return s;
}

void expectPhysics(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.n1, b.n1);
  EXPECT_EQ(a.n2, b.n2);
  EXPECT_EQ(a.n3, b.n3);
  EXPECT_DOUBLE_EQ(a.dx, b.dx);
  EXPECT_DOUBLE_EQ(a.dt, b.dt);
  EXPECT_DOUBLE_EQ(a.dtAutoFraction, b.dtAutoFraction);
  EXPECT_EQ(a.coefficients, b.coefficients);
}

void expectModel(const Scenario& a, const Scenario& b) {
  const VelocityModelSpec &x = a.model, &y = b.model;
  EXPECT_EQ(x.kind, y.kind);
  EXPECT_DOUBLE_EQ(x.velocity, y.velocity);
  ASSERT_EQ(x.layers.size(), y.layers.size());
  for (std::size_t n = 0; n < x.layers.size(); ++n) {
    EXPECT_DOUBLE_EQ(x.layers[n].top, y.layers[n].top);
    EXPECT_DOUBLE_EQ(x.layers[n].velocity, y.layers[n].velocity);
  }
  EXPECT_DOUBLE_EQ(x.topVelocity, y.topVelocity);
  EXPECT_DOUBLE_EQ(x.bottomVelocity, y.bottomVelocity);
  EXPECT_DOUBLE_EQ(x.randomStdDev, y.randomStdDev);
  EXPECT_DOUBLE_EQ(x.randomCorrelationLength, y.randomCorrelationLength);
  EXPECT_EQ(x.randomSeed, y.randomSeed);
  EXPECT_EQ(x.path, y.path);
  EXPECT_EQ(x.fileN1, y.fileN1);
  EXPECT_EQ(x.fileN2, y.fileN2);
  EXPECT_EQ(x.fileN3, y.fileN3);
  EXPECT_EQ(x.fileUnit, y.fileUnit);
  EXPECT_EQ(x.salt.enabled, y.salt.enabled);
  EXPECT_DOUBLE_EQ(x.salt.centerX, y.salt.centerX);
  EXPECT_DOUBLE_EQ(x.salt.centerY, y.salt.centerY);
  EXPECT_DOUBLE_EQ(x.salt.centerZ, y.salt.centerZ);
  EXPECT_DOUBLE_EQ(x.salt.radius, y.salt.radius);
  EXPECT_DOUBLE_EQ(x.salt.velocity, y.salt.velocity);
}

void expectSource(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.source.kind, b.source.kind);
  EXPECT_EQ(a.source.i, b.source.i);
  EXPECT_EQ(a.source.j, b.source.j);
  EXPECT_EQ(a.source.k, b.source.k);
  EXPECT_DOUBLE_EQ(a.source.frequency, b.source.frequency);
  EXPECT_DOUBLE_EQ(a.source.amplitude, b.source.amplitude);
  EXPECT_DOUBLE_EQ(a.source.delay, b.source.delay);
}

void expectBoundary(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.boundary.kind, b.boundary.kind);
  EXPECT_EQ(a.boundary.width, b.boundary.width);
  EXPECT_DOUBLE_EQ(a.boundary.reflection, b.boundary.reflection);
}

void expectStage(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.stage, b.stage);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.stageParams, b.stageParams);
}

// Shows `wanted` in a fresh part, writes it over a default scenario, and checks the part's fields
// arrived and nothing else changed.
template <class Section>
void expectRoundTrip(void (*expectFields)(const Scenario&, const Scenario&)) {
  const Scenario wanted = unusualScenario(), untouched;
  Section section;
  section.setFromScenario(wanted);
  Scenario out;
  section.applyTo(out);
  EXPECT_NE(scenarioToJson(out), scenarioToJson(untouched)) << "the part wrote nothing";
  expectFields(out, wanted);
  for (auto other : {expectPhysics, expectModel, expectSource, expectBoundary, expectStage})
    if (other != expectFields) other(out, untouched);
}

TEST(StudioSections, PhysicsRoundTrips) { expectRoundTrip<PhysicsEditor>(expectPhysics); }
TEST(StudioSections, ModelRoundTrips) { expectRoundTrip<ModelEditor>(expectModel); }
TEST(StudioSections, SourceRoundTrips) { expectRoundTrip<SourceEditor>(expectSource); }
TEST(StudioSections, BoundaryRoundTrips) { expectRoundTrip<BoundaryEditor>(expectBoundary); }
TEST(StudioSections, StageRoundTrips) { expectRoundTrip<StageEditor>(expectStage); }

TEST(StudioSections, ParameterTooltipsFollowTheStageDescriptors) {
  StageEditor editor;
  Scenario s;
  s.stage = "gpu-slm";
  editor.setFromScenario(s);
  const auto* tileX = editor.findChild<QSpinBox*>("tile_x");
  ASSERT_NE(tileX, nullptr);
  const QString slm = tileX->toolTip();
  EXPECT_TRUE(slm.contains("gpu-slm · tile_x: ")) << slm.toStdString();
  EXPECT_TRUE(slm.contains("default")) << slm.toStdString();
  s.stage = "cpu-parallel";
  editor.setFromScenario(s);
  EXPECT_TRUE(tileX->toolTip().contains("cpu-parallel · block_x: ")) << tileX->toolTip().toStdString();
  s.stage = "cpu-serial";
  editor.setFromScenario(s);
  EXPECT_TRUE(tileX->toolTip().contains("cpu-serial takes no such parameter")) << tileX->toolTip().toStdString();
  EXPECT_FALSE(tileX->isEnabled());
}

TEST(StudioSections, TheWholeFormRoundTrips) {
  const Scenario wanted = unusualScenario();
  ScenarioForm form;
  form.setScenario(wanted);
  EXPECT_EQ(scenarioToJson(form.scenario()), scenarioToJson(wanted));
}

TEST(StudioSections, SettingEmitsNothingAndAnEditEmitsThePartsSignal) {
  SourceEditor source;
  int changed = 0;
  QObject::connect(&source, &SourceEditor::sourceChanged, [&] { ++changed; });
  source.setFromScenario(unusualScenario());
  EXPECT_EQ(changed, 0);
  auto* frequency = source.findChild<QDoubleSpinBox*>("frequency");
  ASSERT_NE(frequency, nullptr);
  frequency->setValue(30.0);
  EXPECT_EQ(changed, 1);

  PhysicsEditor physics;
  int resized = 0, physicsChanged = 0, resizedN2 = 0;
  QObject::connect(&physics, &PhysicsEditor::gridResized, [&](int, int n2, int) {
    ++resized;
    resizedN2 = n2;
  });
  QObject::connect(&physics, &PhysicsEditor::physicsChanged, [&] { ++physicsChanged; });
  physics.setFromScenario(unusualScenario());
  EXPECT_EQ(resized + physicsChanged, 0);
  physics.findChild<QSpinBox*>("n2")->setValue(70);
  EXPECT_EQ(resized, 1);
  EXPECT_EQ(resizedN2, 70);
  EXPECT_EQ(physicsChanged, 0) << "a new size is a resize, not a plain change";
}

TEST(StudioSections, AResizeInTheFormMovesTheSourceWithTheGrid) {
  ScenarioForm form;
  Scenario s = unusualScenario();
  form.setScenario(s);
  int changed = 0;
  QObject::connect(&form, &ScenarioForm::changed, [&] { ++changed; });
  form.physics()->findChild<QSpinBox*>("n1")->setValue(80);  // twice the cells along x
  EXPECT_EQ(changed, 1);
  EXPECT_EQ(form.scenario().n1, 80);
  const int resizedI = resizedScenario(s, 80, s.n2, s.n3).source.i;
  EXPECT_NE(resizedI, s.source.i);
  EXPECT_EQ(form.scenario().source.i, resizedI) << "the source keeps its place in the picture";
  EXPECT_EQ(form.presets()->shownText(), "unusual (edited)");
}

QWheelEvent wheelUp(QWidget* w) {
  const QPointF centre(w->width() / 2.0, w->height() / 2.0);
  return QWheelEvent(centre, w->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                     Qt::NoScrollPhase, false);
}

TEST(StudioSections, TheWheelChangesABoxOnlyWithFocus) {
  QWidget window;
  auto* guarded = intSpin(0, 100, 50, "", "guarded");
  auto* guardedCombo = combo({{"a", ""}, {"b", ""}, {"c", ""}}, "guarded");
  guardedCombo->setCurrentIndex(1);
  auto* plain = new QSpinBox;
  plain->setRange(0, 100);
  plain->setValue(50);
  auto* other = new QSpinBox;  // holds the focus
  auto* layout = row({guarded, guardedCombo, plain, other});
  window.setLayout(layout);
  window.show();
  window.activateWindow();
  other->setFocus();
  QApplication::processEvents();

  for (QWidget* w : std::initializer_list<QWidget*>{guarded, guardedCombo}) {
    QWheelEvent event = wheelUp(w);
    QApplication::sendEvent(w, &event);
    EXPECT_FALSE(event.isAccepted()) << "the wheel goes on to the scroll area";
  }
  EXPECT_EQ(guarded->value(), 50);
  EXPECT_EQ(guardedCombo->currentIndex(), 1);
  EXPECT_FALSE(guarded->hasFocus()) << "the wheel alone gives no focus";
  // The same event does reach a box: a plain one takes it.
  QWheelEvent event = wheelUp(plain);
  QApplication::sendEvent(plain, &event);
  EXPECT_EQ(plain->value(), 51);

  guarded->setFocus();
  QApplication::processEvents();
  if (!guarded->hasFocus()) GTEST_SKIP() << "this platform gives no keyboard focus to the test window";
  QWheelEvent focused = wheelUp(guarded);
  QApplication::sendEvent(guarded, &focused);
  EXPECT_EQ(guarded->value(), 51) << "with focus the wheel steps the box";
}

}  // namespace
}  // namespace iso
