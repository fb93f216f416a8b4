// The window a new user opens, at 1280x720: the view takes the largest share of the width, and no label,
// button or group title is drawn narrower or shorter than its text needs (clipped or cut off), in any
// view mode. Needs an X display with OpenGL: run under xvfb-run.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QSettings>
#include <QTabBar>

#include "app/studio/ExportDialog.h"
#include "app/studio/MainWindow.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/ViewControls.h"
#include "core/Scenario.h"
#include "render/SliceView.h"
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
  for (QAbstractButton* b : window->findChildren<QAbstractButton*>())
    if (!qobject_cast<QTabBar*>(b->parentWidget())) check(b, b->text(), b->minimumSizeHint());
  for (QGroupBox* g : window->findChildren<QGroupBox*>()) {
    const QSize title = g->fontMetrics().size(Qt::TextShowMnemonic, g->title());
    check(g, g->title(), QSize(title.width(), 0));
  }
  return clipped;
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
