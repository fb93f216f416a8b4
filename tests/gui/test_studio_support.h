#pragma once
// Helpers shared by the studio tests.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>
#include <QtGlobal>

#include "tests/gui/test_timeout_scale.h"

namespace iso::test {

// The view's OpenGL needs a real display (Xvfb here); Qt's offscreen platform has no OpenGL.
inline bool haveDisplay() { return qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY"); }

// Runs the event loop until the condition holds; false after the timeout (generous: the machine is
// shared), times timeoutScale().
template <class Condition>
bool waitUntil(Condition condition, int timeoutMs = 20000) {
  const int scale = timeoutScale();
  QElapsedTimer clock;
  clock.start();
  while (!condition()) {
    if (clock.elapsed() > qint64(timeoutMs) * scale) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(2);
  }
  return true;
}

// Runs the event loop for `ms` milliseconds (not scaled: for "nothing happens meanwhile" checks).
inline void runEventsFor(int ms) {
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < ms) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(2);
  }
}

}  // namespace iso::test
