// The velocity overlay as the main window shows it at first: the layers of the default model must read
// apart where the field is at rest. The test measures the colour distance between neighbouring layers
// in the rendered image.
#include <gtest/gtest.h>

#include <QImage>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "app/studio/MainWindow.h"
#include "app/studio/SimulationPane.h"
#include "core/ScenarioResize.h"
#include "render/SliceView.h"
#include "tests/gui/test_studio_support.h"

namespace iso {
namespace {

double distance(const QColor& a, const QColor& b) {
  return std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
}

// The main window on a cpu-serial run of the preset at N³, showing the XZ section (every layer and the
// salt), once the view has drawn the wavefield and the velocity planes; nullptr if it never does.
std::unique_ptr<MainWindow> xzSection(const std::string& preset, int n) {
  Scenario s = resizedScenario(presetScenario(preset), n, n, n);
  s.stage = "cpu-serial";
  auto window = std::make_unique<MainWindow>(s);
  window->resize(1280, 720);
  window->show();
  window->setViewMode(2);
  const bool drawn = test::waitUntil([&] {
    return window->pane()->lastStatus().hasSolver && window->pane()->view()->slices() && window->pane()->controller().velocitySlices() &&
           window->pane()->view()->planeRect().isValid();
  });
  if (!drawn) return nullptr;
  test::runEventsFor(500);  // the pane hands the view the velocity planes with the next frame
  return window;
}

TEST(VelocityOverlay, NeighbouringLayersOfTheDefaultModelStandApart) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const std::unique_ptr<MainWindow> shown = xzSection("default", 64);
  ASSERT_TRUE(shown);
  MainWindow& window = *shown;
  SliceView* view = window.pane()->view();
  const auto velocity = window.pane()->controller().velocitySlices();
  const QImage image = view->grabFramebuffer();  // step 0: the field is at rest everywhere
  if (qEnvironmentVariableIsSet("ISO_TEST_SAVE_IMAGES")) image.save("velocity_overlay.png");
  // The colour of each layer mid-layer, clear of the absorbing layer's shading and of the salt.
  const std::array<int, 3> layer = window.pane()->lastStatus().absorbingCells;
  const int column = layer[0] + 4;  // between the first two receivers' marks
  const QRectF plane = view->planeRect();
  const double cell = plane.width() / velocity->n1;
  const double scale = image.width() / double(view->width());
  std::map<float, std::vector<int>> rowsOf;
  for (int row = layer[2]; row < velocity->n3 - layer[2]; ++row) rowsOf[velocity->xz[std::size_t(row) * velocity->n1 + std::size_t(column)]].push_back(row);
  std::vector<std::pair<float, QColor>> layers;
  for (const auto& [v, rows] : rowsOf) {
    if (rows.size() < 3) continue;
    const int row = rows[rows.size() / 2];
    const QPointF at = (plane.topLeft() + QPointF((column + 0.5) * cell, (row + 0.5) * cell)) * scale;
    layers.emplace_back(v, image.pixelColor(int(at.x()), int(at.y())));
  }
  ASSERT_GE(layers.size(), 4u) << "the default model's layers";
  double closest = 1e9;
  for (std::size_t n = 1; n < layers.size(); ++n) {
    const double d = distance(layers[n - 1].second, layers[n].second);
    closest = std::min(closest, d);
    std::printf("%.0f m/s %s -> %.0f m/s %s: %.1f\n", layers[n - 1].first, qPrintable(layers[n - 1].second.name()), layers[n].first,
                qPrintable(layers[n].second.name()), d);
  }
  EXPECT_GT(closest, 25.0) << "neighbouring layers are hard to tell apart";
  window.close();
}

// A constant model would tint every plane one colour and veil the faint waves: the planes keep the
// wavefield's own colours (the oneAPI sample's preset is such a model).
TEST(VelocityOverlay, AConstantModelLeavesThePlanesUntinted) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const std::unique_ptr<MainWindow> window = xzSection("oneapi", 32);
  ASSERT_TRUE(window);
  SliceView* view = window->pane()->view();
  const double scale = view->grabFramebuffer().width() / double(view->width());
  const QPointF corner = (view->planeRect().topLeft() + QPointF(3.0, 3.0)) * scale;  // at rest: far from the cubes
  const QColor shown = view->grabFramebuffer().pixelColor(corner.toPoint());
  view->setVelocityOverlay(false, 0.5f);
  test::runEventsFor(200);
  const QColor untinted = view->grabFramebuffer().pixelColor(corner.toPoint());
  EXPECT_LT(distance(shown, untinted), 3.0) << qPrintable(shown.name()) << " against " << qPrintable(untinted.name());
}

}  // namespace
}  // namespace iso
