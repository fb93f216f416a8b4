// Geometry, camera, layout, ticks and colour tables (no GL needed).
#include <gtest/gtest.h>

#include "render/Colormap.h"
#include "render/GridCamera.h"
#include "render/Hud.h"
#include "core/OrbitCamera.h"
#include "render/Overlays.h"
#include "render/SliceGeometry.h"
#include "tests/gui/test_render_support.h"

namespace iso {
namespace {

TEST(RenderGeometry, WorldMappingPutsDepthDownAndRoundTrips) {
  const SliceGeometry g{{40, 30, 20}, {5, 6, 7}};
  const glm::vec3 top = g.toWorld({0, 0, 0}), deep = g.toWorld({0, 0, 20});
  EXPECT_GT(top.y, deep.y);  // larger z (depth) is lower on screen
  const glm::vec3 p(3.5f, 7.25f, 11.0f);
  const glm::vec3 back = g.toGrid(g.toWorld(p));
  EXPECT_NEAR(back.x, p.x, 1e-5);
  EXPECT_NEAR(back.y, p.y, 1e-5);
  EXPECT_NEAR(back.z, p.z, 1e-5);
  // (x, y, z-down) is right-handed: x × y = z, mapped to world.
  const glm::vec3 wx = g.toWorld({1, 0, 0}) - g.toWorld({0, 0, 0});
  const glm::vec3 wy = g.toWorld({0, 1, 0}) - g.toWorld({0, 0, 0});
  const glm::vec3 wz = g.toWorld({0, 0, 1}) - g.toWorld({0, 0, 0});
  EXPECT_NEAR(glm::dot(glm::cross(wx, wy), wz), 1.0f, 1e-6);
}

TEST(RenderGeometry, RefusesInconsistentSliceSets) {
  auto s = test::makeSlices(8, 6, 4, 1, 2, 3, [](int, int, int) { return 0.0f; });
  EXPECT_EQ(sliceSetProblem(*s), "");
  s->k = 4;
  EXPECT_NE(sliceSetProblem(*s).find("outside"), std::string::npos);
  s->k = 3;
  s->xz = s->xz.first(s->xz.size() - 1);
  EXPECT_NE(sliceSetProblem(*s).find("xz holds 31 values, expected 8 x 4"), std::string::npos);
}

TEST(RenderGeometry, CameraRayThroughAProjectedCellPicksThatCell) {
  const SliceGeometry g{{40, 30, 20}, {10, 12, 5}};
  OrbitCamera camera;
  camera.frame(glm::vec3(0.0f), g.boundingRadius());
  const int w = 800, h = 600;
  // Cells on each of the three slices, near their visible parts.
  for (const Cell& cell : {Cell{30, 25, 5}, Cell{35, 12, 15}, Cell{10, 28, 12}}) {
    const glm::vec3 centre = g.toWorld({cell.i + 0.5f, cell.j + 0.5f, cell.k + 0.5f});
    const auto at = camera.project(centre, w, h);
    ASSERT_TRUE(at.has_value());
    const OrbitCamera::Ray ray = camera.ray(at->x, at->y, w, h);
    const auto hit = g.pick(ray.origin, ray.direction);
    ASSERT_TRUE(hit.has_value()) << cell.i << "," << cell.j << "," << cell.k;
    EXPECT_EQ(*hit, cell);
  }
  // A portrait viewport still shows the whole volume: every corner projects inside it.
  for (int c = 0; c < 8; ++c) {
    const glm::vec3 corner = g.toWorld({c & 1 ? 40.0f : 0.0f, c & 2 ? 30.0f : 0.0f, c & 4 ? 20.0f : 0.0f});
    const auto at = camera.project(corner, 300, 700);
    ASSERT_TRUE(at.has_value());
    EXPECT_GT(at->x, 0.0f);
    EXPECT_LT(at->x, 300.0f);
  }
  // A ray into the sky misses.
  const OrbitCamera::Ray sky = camera.ray(2, 2, w, h);
  EXPECT_FALSE(g.pick(sky.origin, sky.direction).has_value());
}

TEST(RenderGeometry, ACoveredTopBandKeepsTheVolumeBelowItAndPicksWhereItIsDrawn) {
  const SliceGeometry g{{40, 30, 20}, {10, 12, 5}};
  OrbitCamera camera;
  camera.frame(glm::vec3(0.0f), g.boundingRadius());
  camera.setCoveredTop(0.25f);  // a HUD over the top 150 px of a 1000 × 600 view, wide enough that height limits
  const int w = 1000, h = 600;
  for (int c = 0; c < 8; ++c) {
    const glm::vec3 corner = g.toWorld({c & 1 ? 40.0f : 0.0f, c & 2 ? 30.0f : 0.0f, c & 4 ? 20.0f : 0.0f});
    const auto at = camera.project(corner, w, h);
    ASSERT_TRUE(at.has_value());
    EXPECT_GT(at->y, 150.0f) << "corner " << c << " under the HUD";
    EXPECT_LT(at->y, float(h));
  }
  // The picture is squeezed in y only by the band's height: a cell still picks itself.
  const glm::vec3 centre = g.toWorld({30.5f, 25.5f, 5.5f});
  const auto at = camera.project(centre, w, h);
  ASSERT_TRUE(at.has_value());
  const OrbitCamera::Ray ray = camera.ray(at->x, at->y, w, h);
  EXPECT_EQ(g.pick(ray.origin, ray.direction), std::optional<Cell>(Cell{30, 25, 5}));
  // The volume's shape on screen is the same as in a viewport of the uncovered part alone.
  OrbitCamera plain;
  plain.frame(glm::vec3(0.0f), g.boundingRadius());
  const auto a = camera.project(g.toWorld({0, 0, 0}), w, h), b = camera.project(g.toWorld({40, 30, 20}), w, h);
  const auto pa = plain.project(g.toWorld({0, 0, 0}), w, h - 150), pb = plain.project(g.toWorld({40, 30, 20}), w, h - 150);
  ASSERT_TRUE(a && b && pa && pb);
  EXPECT_NEAR(b->x - a->x, pb->x - pa->x, 0.5f);
  EXPECT_NEAR(b->y - a->y, pb->y - pa->y, 0.5f);
  EXPECT_NEAR(a->y, pa->y + 150.0f, 0.5f);
}

TEST(RenderGeometry, CameraOrbitPanZoomMoveTheEye) {
  OrbitCamera camera;
  camera.frame(glm::vec3(0.0f), 10.0f);
  const glm::vec3 eye = camera.eye();
  const float distance = camera.distance();
  camera.zoom(2.0f);
  EXPECT_LT(camera.distance(), distance);
  camera.orbit(100.0f, 0.0f);
  EXPECT_GT(glm::length(camera.eye() - eye), 1.0f);
  camera.orbit(0.0f, 1e5f);  // pitch is clamped short of the pole
  EXPECT_LT(camera.pitch(), 1.571f);
  const glm::vec3 before = camera.eye();
  camera.pan(50.0f, 0.0f, 800, 600);
  EXPECT_GT(glm::length(camera.eye() - before), 0.1f);
}

TEST(RenderGeometry, PlaneLayoutIsPixelExactAndMapsClicksToCells) {
  const SliceGeometry g{{64, 48, 40}, {0, 0, 0}};
  const PlaneLayout layout = PlaneLayout::fit(SlicePlane::XZ, g, QRectF(10, 20, 500, 300));
  EXPECT_EQ(layout.columns, 64);
  EXPECT_EQ(layout.rows, 40);
  EXPECT_EQ(layout.pixelsPerCell, 7.0);  // min(500/64, 300/40) = 7.5, floored to whole pixels
  EXPECT_EQ(layout.rect.width(), 448.0);
  EXPECT_EQ(layout.rect.left(), std::floor(layout.rect.left()));
  const auto cell = layout.cellAt(layout.centreOf(17, 33));
  ASSERT_TRUE(cell.has_value());
  EXPECT_EQ((*cell)[0], 17);
  EXPECT_EQ((*cell)[1], 33);
  EXPECT_FALSE(layout.cellAt(layout.rect.topLeft() - QPointF(1, 1)).has_value());
  // Minified planes keep their aspect.
  const PlaneLayout small = PlaneLayout::fit(SlicePlane::XY, SliceGeometry{{1000, 500, 10}, {}}, QRectF(0, 0, 400, 400));
  EXPECT_DOUBLE_EQ(small.rect.width(), 400.0);
  EXPECT_DOUBLE_EQ(small.rect.height(), 200.0);
}

TEST(RenderGeometry, NiceTicksAndLabels) {
  const std::vector<double> t = niceTicks(0.0, 1270.0, 6);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_DOUBLE_EQ(t[1], 250.0);
  EXPECT_DOUBLE_EQ(t.back(), 1250.0);
  const std::vector<double> s = niceTicks(-3e-4, 3e-4, 4);
  EXPECT_EQ(std::count(s.begin(), s.end(), 0.0), 1);
  // A short bar over a symmetric range still labels both signs, not 0 alone.
  EXPECT_EQ(niceTicks(-900.0, 900.0, 2), std::vector<double>{0.0});
  EXPECT_EQ(colourBarTicks(-900.0, 900.0, 95.0, 15.0), (std::vector<double>{-500.0, 0.0, 500.0}));
  EXPECT_EQ(colourBarTicks(-900.0, 900.0, 30.0, 15.0), std::vector<double>{0.0}) << "no room for three";
  EXPECT_EQ(colourBarTicks(0.0, 1270.0, 400.0, 15.0).size(), niceTicks(0.0, 1270.0, 10).size());
  EXPECT_EQ(formatTick(0.0, 1e-4), "0");
  EXPECT_EQ(formatTick(250.0, 250.0), "250");
  EXPECT_EQ(formatTick(0.25, 0.05), "0.25");
  EXPECT_EQ(formatTick(-0.75, 0.25), "-0.75");  // never rounded to "-0.8"
  EXPECT_EQ(formatTick(2e-5, 1e-5), "2e-05");
  EXPECT_TRUE(niceTicks(1.0, 1.0, 5).empty());
}

// Colours agree within `tolerance` per channel (tables are 8-bit, interpolated).
::testing::AssertionResult near(const QColor& got, const QColor& want, int tolerance = 3) {
  if (std::abs(got.red() - want.red()) <= tolerance && std::abs(got.green() - want.green()) <= tolerance &&
      std::abs(got.blue() - want.blue()) <= tolerance)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got.name().toStdString() << ", want " << want.name().toStdString();
}

// Tick labels that would touch a title or an earlier tick label are left out; the rest are kept in order.
TEST(RenderGeometry, LabelsThatWouldOverlapAreLeftOut) {
  const std::vector<QRectF> titles{QRectF(100, 100, 80, 16)};
  const std::vector<QRectF> ticks{
      QRectF(0, 0, 30, 12),     // clear: kept
      QRectF(20, 4, 30, 12),    // overlaps the first tick
      QRectF(34, 0, 30, 12),    // 4 px from the first: clear of a 3 px gap
      QRectF(150, 110, 30, 12), // on the title
      QRectF(100, 118, 30, 12), // 2 px below the title: within the gap
      QRectF(300, 300, 30, 12), // far from everything
  };
  EXPECT_EQ(keepApart(titles, ticks, 3.0), (std::vector<bool>{true, false, true, false, false, true}));
  EXPECT_EQ(keepApart({}, ticks, 0.0), (std::vector<bool>{true, false, true, true, true, true}));
}

TEST(RenderGeometry, ColourTables) {
  for (const QString& name : Colormap::names()) {
    const ColourTable* table = Colormap::table(name);
    ASSERT_NE(table, nullptr) << name.toStdString();
    EXPECT_EQ(table->size(), 256u);
  }
  EXPECT_EQ(Colormap::table("jet"), nullptr);
  const ColourTable& seismic = *Colormap::table("seismic");
  EXPECT_TRUE(near(Colormap::colourAt(seismic, 0.5), QColor(255, 255, 255)));  // white at u = 0
  EXPECT_TRUE(near(Colormap::colourAt(seismic, 0.75), QColor(255, 0, 0)));
  EXPECT_TRUE(near(Colormap::colourAt(seismic, 0.25), QColor(0, 0, 255)));
  // viridis: matplotlib's end points, dark purple to yellow.
  const ColourTable& viridis = *Colormap::table("viridis");
  EXPECT_EQ(Colormap::colourAt(viridis, 0.0), QColor(68, 1, 84));
  EXPECT_EQ(Colormap::colourAt(viridis, 1.0), QColor(253, 231, 37));
  const ColourTable& grey = *Colormap::table("grey");
  for (std::size_t n = 1; n < grey.size(); ++n) EXPECT_GE(grey[n][0], grey[n - 1][0]);
}

TEST(RenderGeometry, TheGridCameraIsFramedForEachNewGridSizeAndKeepsTheUsersMovesOtherwise) {
  const SliceGeometry small{{40, 30, 20}, {10, 12, 5}}, moved{{40, 30, 20}, {3, 4, 5}}, large{{80, 60, 40}, {1, 2, 3}};
  GridCamera grid;
  grid.frame(small);
  const float framedDistance = grid.camera().distance();
  grid.camera().orbit(50.0f, 10.0f);
  const float yaw = grid.camera().yaw();
  grid.frame(moved);  // the same size, another slice point: the user's view stays
  EXPECT_FLOAT_EQ(grid.camera().yaw(), yaw);
  grid.frame(large);  // another size: framed afresh, from further away
  EXPECT_NE(grid.camera().yaw(), yaw);
  EXPECT_GT(grid.camera().distance(), framedDistance);
  // Another view's camera is taken as framed for the grid: the next frame keeps it.
  GridCamera other;
  other.adopt(grid.camera(), large);
  other.frame(large);
  EXPECT_FLOAT_EQ(other.camera().distance(), grid.camera().distance());
  EXPECT_FLOAT_EQ(other.camera().yaw(), grid.camera().yaw());
  // A reset without a grid frames at the next grid, even of the size framed before.
  grid.camera().orbit(50.0f, 0.0f);
  grid.reset(SliceGeometry{});
  grid.frame(large);
  EXPECT_FLOAT_EQ(grid.camera().yaw(), other.camera().yaw());
}

}  // namespace
}  // namespace iso
