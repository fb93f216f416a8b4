// main() of studio_tests: the window tests need a QApplication and an X display with OpenGL (run under
// xvfb-run); the controller and slot tests need neither. Without a display (e.g. when CMake lists the
// tests at build time) Qt's offscreen platform is used and the window tests skip themselves.
#include <gtest/gtest.h>

#include <QApplication>

#include "compute/Stage.h"
#include "tests/gui/test_studio_support.h"

int main(int argc, char** argv) {
  iso::registerStages();  // as the programs do first thing
  if (!iso::test::haveDisplay()) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("iso3dfd-tests");  // keep the users' saved layout and recent files out
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
