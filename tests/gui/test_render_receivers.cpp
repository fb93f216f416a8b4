// Receivers in the view: numbered markers in their colours on the slices they lie on (2D and 3D),
// none for a receiver off every slice, and Shift+click reported apart from a plain click.
// Needs a display with OpenGL (xvfb-run, see test_render_view.cpp).
#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QWindow>
#include <gtest/gtest.h>

#include "render/SliceView.h"
#include "tests/gui/test_render_support.h"

namespace iso {
namespace {

// Pixels within `tolerance` (RGB distance) of `colour`, in `area`.
int countNear(const QImage& image, const QColor& colour, const QRect& area, int tolerance = 40) {
  int count = 0;
  const QRect inside = area.intersected(image.rect());
  for (int y = inside.top(); y <= inside.bottom(); ++y)
    for (int x = inside.left(); x <= inside.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      const int dr = c.red() - colour.red(), dg = c.green() - colour.green(), db = c.blue() - colour.blue();
      count += dr * dr + dg * dg + db * db < tolerance * tolerance;
    }
  return count;
}

class RenderReceivers : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::displayAvailable()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
    view_ = std::make_unique<SliceView>();
    view_->resize(640, 400);
    view_->show();
    QElapsedTimer timer;
    timer.start();
    while (!(view_->windowHandle() && view_->windowHandle()->isExposed()) && timer.elapsed() < 5000)
      QApplication::processEvents(QEventLoop::AllEvents, 50);
    view_->grabFramebuffer();  // initialises GL
    ASSERT_TRUE(view_->glReady()) << view_->glInfo().toStdString();
    view_->setGridSpacing(10.0);
    // A quiet field (white in the seismic colormap) through (24, 24, 16).
    view_->setSlices(test::makeSlices(48, 48, 32, 24, 24, 16, [](int, int, int) { return 0.0f; }));
    // 0 and 1 lie on the XY slice (k = 16), 1 also on the XZ one; 2 lies on no slice.
    view_->setReceivers({{10, 12, 16}, {36, 24, 16}, {5, 6, 7}});
  }

  QImage render() {
    QString error;
    const QImage image = view_->renderImage({view_->size(), 1.0}, error);
    EXPECT_FALSE(image.isNull()) << error.toStdString();
    return image;
  }

  std::unique_ptr<SliceView> view_;
};

TEST_F(RenderReceivers, MarkersOnThePlaneInTheirColoursAndNoneOffIt) {
  view_->setMode(SliceView::Mode::PlaneXY);
  const QImage image = render();
  test::saveScreenshot(image, "receivers_xy");
  const QRectF plane = view_->planeRect();
  ASSERT_FALSE(plane.isEmpty());
  const double cell = plane.width() / 48.0;
  const auto around = [&](int col, int row) {
    const QPointF c = plane.topLeft() + QPointF(col + 0.5, row + 0.5) * cell;
    return QRect(int(c.x()) - 12, int(c.y()) - 12, 25, 25);
  };
  // A marker is a few pixels across here, and its anti-aliased outline leaves some 8 of its own colour.
  EXPECT_GT(countNear(image, receiverColour(0), around(10, 12)), 4) << "receiver 0's marker";
  EXPECT_GT(countNear(image, receiverColour(1), around(36, 24)), 4) << "receiver 1's marker";
  EXPECT_EQ(countNear(image, receiverColour(0), around(36, 24)), 0) << "each in its own colour";
  EXPECT_EQ(countNear(image, receiverColour(2), image.rect()), 0) << "receiver 2 is off the plane";

  view_->setMode(SliceView::Mode::PlaneXZ);  // j = 24: only receiver 1
  const QImage side = render();
  EXPECT_GT(countNear(side, receiverColour(1), side.rect()), 10);
  EXPECT_EQ(countNear(side, receiverColour(0), side.rect()), 0);
}

TEST_F(RenderReceivers, MarkersIn3DOnlyForReceiversOnASlice) {
  const QImage image = render();  // 3D by default
  test::saveScreenshot(image, "receivers_3d");
  view_->setReceivers({});
  const QImage none = render();  // the same picture without markers (anti-aliased axes come near some colours)
  const auto added = [&](int r) {
    return countNear(image, receiverColour(r), image.rect()) - countNear(none, receiverColour(r), none.rect());
  };
  EXPECT_GT(added(0), 10);
  EXPECT_GT(added(1), 10);
  EXPECT_EQ(added(2), 0) << "receiver 2 lies on no slice";
}

TEST_F(RenderReceivers, ShiftClickIsReportedApartFromAClick) {
  view_->setMode(SliceView::Mode::PlaneXY);
  view_->grabFramebuffer();
  std::vector<std::array<int, 3>> plain, shifted;
  QObject::connect(view_.get(), &SliceView::cellPicked, [&](int i, int j, int k) { plain.push_back({i, j, k}); });
  QObject::connect(view_.get(), &SliceView::cellShiftPicked, [&](int i, int j, int k) { shifted.push_back({i, j, k}); });
  const QRectF plane = view_->planeRect();
  const QPointF at = plane.topLeft() + QPointF(7.5, 30.5) * (plane.width() / 48.0);
  for (Qt::KeyboardModifiers modifiers : {Qt::KeyboardModifiers(Qt::ShiftModifier), Qt::KeyboardModifiers(Qt::NoModifier)}) {
    QMouseEvent press(QEvent::MouseButtonPress, at, view_->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton, modifiers);
    QApplication::sendEvent(view_.get(), &press);
    QMouseEvent release(QEvent::MouseButtonRelease, at, view_->mapToGlobal(at), Qt::LeftButton, Qt::NoButton, modifiers);
    QApplication::sendEvent(view_.get(), &release);
  }
  ASSERT_EQ(shifted.size(), 1u);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(shifted[0], (std::array<int, 3>{7, 30, 16}));
  EXPECT_EQ(plain[0], shifted[0]);
}

}  // namespace
}  // namespace iso
