#pragma once
// Running the iso3dfd-studio binary as a user or a script does, for the tests of its command line:
// its exit status and everything it printed. For test executables that define ISO_STUDIO_BINARY
// (tests/gui/CMakeLists.txt).
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include "tests/gui/test_timeout_scale.h"

namespace iso::test {

struct StudioRun {
  int exitCode = -1;  // -1: it crashed or timed out
  QString output;     // stdout and stderr together; "timed out: ..." when it did
};

// Runs the studio with `arguments` and `environment` ("NAME=value" settings over this process's) and
// waits for it to end, at most `timeoutMs` times timeoutScale(); one that takes longer is killed.
inline StudioRun runStudio(const QStringList& arguments, const QStringList& environment = {}, int timeoutMs = 180000) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const QString& setting : environment) env.insert(setting.section('=', 0, 0), setting.section('=', 1));
  p.setProcessEnvironment(env);
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(ISO_STUDIO_BINARY, arguments);
  StudioRun r;
  if (!p.waitForFinished(timeoutMs * timeoutScale())) {
    p.kill();
    p.waitForFinished();
    r.output = "timed out: ";
  } else {
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  }
  r.output += QString::fromLocal8Bit(p.readAll());
  return r;
}

}  // namespace iso::test
