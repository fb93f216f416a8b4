// Entry point of render_tests: GoogleTest inside a QApplication (widgets need one).
// The GL tests need an X display with OpenGL (run under xvfb-run); without any display the
// application falls back to the offscreen platform, and those tests skip saying why.
#include <cstdlib>

#include <QApplication>
#include <gtest/gtest.h>

#include "tests/gui/test_render_support.h"

namespace {
bool g_display = false;
}

bool iso::test::displayAvailable() { return g_display; }

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const bool haveDisplay = !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
  if (!haveDisplay && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // The offscreen platform has no OpenGL, so GL tests need a display.
  g_display = haveDisplay && qgetenv("QT_QPA_PLATFORM") != "offscreen";
  QApplication app(argc, argv);
  return RUN_ALL_TESTS();
}
