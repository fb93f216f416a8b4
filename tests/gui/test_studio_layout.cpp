// The window a new user opens, at 1280x720: the view takes most of the width; no label, button or group
// title is drawn narrower or shorter than its text needs (clipped or cut off), and no text the view
// paints leaves it, is cut short or lies on other text, in any view mode. Needs an X display with
// OpenGL: run under xvfb-run.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QCheckBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QTabBar>

#include "app/studio/ElidedLabel.h"
#include "app/studio/ExportDialog.h"
#include "app/studio/MainWindow.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/ViewControls.h"
#include "core/Scenario.h"
#include "render/SliceView.h"
#include "tests/gui/test_painted_text.h"
#include "tests/gui/test_render_support.h"
#include "tests/gui/test_studio_support.h"

namespace iso {
namespace {

// Widgets on screen whose text does not fit the room they were given, as "what: text (w x h < needed)".
QStringList clippedTexts(QWidget* window) {
  QStringList clipped;
  const auto check = [&](QWidget* w, const QString& text, QSize needed) {
    if (!w->isVisible() || text.isEmpty() || w->visibleRegion().isEmpty()) return;
    if (w->width() + 1 < needed.width() || w->height() + 1 < needed.height())
      clipped << QStringLiteral("%1 '%2': %3x%4 < %5x%6")
                     .arg(w->metaObject()->className(), text.left(40))
                     .arg(w->width()).arg(w->height()).arg(needed.width()).arg(needed.height());
  };
  for (QLabel* l : window->findChildren<QLabel*>()) {
    if (l->text().isEmpty() || !l->pixmap().isNull()) continue;
    // A wrapping label needs its height for its width; a plain one its whole text on one line.
    const QSize needed = l->wordWrap() ? QSize(0, l->heightForWidth(l->width())) : l->minimumSizeHint();
    check(l, l->text(), needed);
  }
  // The status bar's counters end in "…" where room is short (while recording); at the default size they
  // must fit whole.
  for (ElidedLabel* e : window->findChildren<ElidedLabel*>()) check(e, e->text(), QSize(e->sizeHint().width(), 0));
  for (QAbstractButton* b : window->findChildren<QAbstractButton*>())
    if (!qobject_cast<QTabBar*>(b->parentWidget())) check(b, b->text(), b->minimumSizeHint());
  for (QGroupBox* g : window->findChildren<QGroupBox*>()) {
    const QSize title = g->fontMetrics().size(Qt::TextShowMnemonic, g->title());
    check(g, g->title(), QSize(title.width(), 0));
  }
  return clipped;
}

// The view's painted text (axes, ticks, titles, marks, colour bars, HUD, hints) that leaves the view, is
// cut short with an ellipsis, or lies on other text (receivers' numbers may crowd each other in 3D).
QStringList misplacedPaintedTexts(SliceView& view) {
  const std::vector<test::PaintedText> texts = test::paintedTexts(view);
  QStringList found;
  if (texts.size() < 10) found << QStringLiteral("only %1 texts painted").arg(texts.size());
  const QRectF area = QRectF(QPointF(0, 0), QSizeF(view.size())).adjusted(-0.5, -0.5, 0.5, 0.5);
  const auto describe = [](const test::PaintedText& t) {
    return QStringLiteral("'%1' at (%2, %3, %4 x %5)").arg(t.text).arg(t.box.x(), 0, 'f', 0).arg(t.box.y(), 0, 'f', 0)
        .arg(t.box.width(), 0, 'f', 0).arg(t.box.height(), 0, 'f', 0);
  };
  const QRegularExpression receiverNumber("^\\d{1,2}$");
  for (std::size_t a = 0; a < texts.size(); ++a) {
    if (!area.contains(texts[a].box)) found << "outside the view: " + describe(texts[a]);
    if (texts[a].text.contains(QChar(0x2026))) found << "cut short: " + describe(texts[a]);
    for (std::size_t b = a + 1; b < texts.size(); ++b) {
      const bool receivers = receiverNumber.match(texts[a].text).hasMatch() && receiverNumber.match(texts[b].text).hasMatch();
      // A heading's dark halo is its own text drawn a pixel or two around it.
      const QPointF offset = texts[a].box.topLeft() - texts[b].box.topLeft();
      const bool halo = texts[a].text == texts[b].text && std::abs(offset.x()) <= 2 && std::abs(offset.y()) <= 2;
      // Boxes include the font's whole line height; a pixel of it shared is not text on text.
      if (!receivers && !halo && texts[a].box.adjusted(1, 1, -1, -1).intersects(texts[b].box.adjusted(1, 1, -1, -1)))
        found << "on each other: " + describe(texts[a]) + " and " + describe(texts[b]);
    }
  }
  return found;
}

class StudioLayout : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
    // The layout a first start gets: no saved window state.
    QSettings().remove("windowState");
    QSettings().remove("geometry");
    window_ = std::make_unique<MainWindow>(presetScenario("default"));
    window_->resize(1280, 720);
    window_->show();
    ASSERT_TRUE(test::waitUntil([&] { return window_->pane()->shownStep() >= 0 && window_->isVisible(); }));
  }
  std::unique_ptr<MainWindow> window_;
};

TEST_F(StudioLayout, TheViewTakesMostOfTheWidth) {
  const int view = window_->pane()->view()->width();
  EXPECT_GT(view, window_->width() * 60 / 100) << "view " << view << " px of " << window_->width();
  for (QDockWidget* dock : window_->findChildren<QDockWidget*>()) {
    if (dock->isVisible() && !dock->isFloating() && dock->height() > window_->height() / 2) {
      EXPECT_LT(dock->width(), view) << dock->windowTitle().toStdString() << " is wider than the view";
    }
  }
}

TEST_F(StudioLayout, NoTextIsClippedAt1280x720InAnyViewModeOrPanel) {
  for (int mode = 0; mode < 4; ++mode) {
    window_->viewControls()->setMode(mode);
    QCoreApplication::processEvents();
    const QStringList clipped = clippedTexts(window_.get());
    EXPECT_TRUE(clipped.isEmpty()) << "mode " << mode << ":\n" << clipped.join('\n').toStdString();
  }
  // Panels that share a place as tabs: each one in front in turn.
  for (QDockWidget* dock : window_->findChildren<QDockWidget*>()) {
    if (window_->tabifiedDockWidgets(dock).isEmpty()) continue;
    dock->raise();
    QCoreApplication::processEvents();
    const QStringList clipped = clippedTexts(window_.get());
    EXPECT_TRUE(clipped.isEmpty()) << dock->windowTitle().toStdString() << ":\n" << clipped.join('\n').toStdString();
  }
}

TEST_F(StudioLayout, TheViewsPaintedTextFitsInEveryViewMode) {
  SliceView* view = window_->pane()->view();
  int frames = 0;
  QObject::connect(view, &SliceView::frameDrawn, view, [&] { ++frames; });
  for (int mode = 0; mode < 4; ++mode) {
    window_->viewControls()->setMode(mode);
    const int before = frames;
    ASSERT_TRUE(test::waitUntil([&] { return frames > before + 1; })) << "mode " << mode;
    const QStringList misplaced = misplacedPaintedTexts(*view);
    EXPECT_TRUE(misplaced.isEmpty()) << "mode " << mode << ":\n" << misplaced.join('\n').toStdString();
  }
}

TEST_F(StudioLayout, NoTextIsClippedInTheRecordAndSaveImageDialogs) {
  for (const ExportDialog::Kind kind : {ExportDialog::Kind::Recording, ExportDialog::Kind::Image}) {
    ExportDialog dialog(kind, "/home/user/iso3dfd.mp4", QSize(1024, 600), window_.get());
    dialog.show();
    ASSERT_TRUE(test::waitUntil([&] { return dialog.isVisible(); }));
    test::saveScreenshot(dialog.grab().toImage(), kind == ExportDialog::Kind::Recording ? "record_dialog" : "image_dialog");
    const QStringList clipped = clippedTexts(&dialog);
    EXPECT_TRUE(clipped.isEmpty()) << clipped.join('\n').toStdString();
    EXPECT_LE(dialog.width(), 1280);
  }
}

}  // namespace
}  // namespace iso
