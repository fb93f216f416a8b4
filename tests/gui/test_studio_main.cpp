// main() of studio_tests: the window tests need a QApplication (and an X display with OpenGL: run under
// xvfb-run). The controller and slot tests need neither, but share the executable.
#include <gtest/gtest.h>

#include <QApplication>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
