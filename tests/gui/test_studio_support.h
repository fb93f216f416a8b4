#pragma once
// Helpers shared by the studio tests.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>
#include <QtGlobal>
#include <algorithm>

namespace iso::test {

// QOpenGLWidget needs a real display (Xvfb here); Qt's offscreen platform has no OpenGL.
inline bool haveDisplay() { return qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY"); }

// Runs the event loop until the condition holds; false after the timeout (generous: the machine is
// shared), multiplied by $ISO_TEST_TIMEOUT_SCALE (e.g. 10 under ThreadSanitizer, which is that much slower).
template <class Condition>
bool waitUntil(Condition condition, int timeoutMs = 20000) {
  const int scale = std::max(qEnvironmentVariableIntValue("ISO_TEST_TIMEOUT_SCALE"), 1);  // 0 when unset
  QElapsedTimer clock;
  clock.start();
  while (!condition()) {
    if (clock.elapsed() > qint64(timeoutMs) * scale) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(2);
  }
  return true;
}

}  // namespace iso::test
