// iso3dfd-studio: the desktop application. Everything lives in the iso_studio library (tests drive it).
#include <QApplication>
#include <cstdio>
#include <optional>

#include "app/studio/StudioCli.h"
#include "compute/Stage.h"
#include "core/TemporaryFiles.h"

namespace {
void setApplicationNames() {
  QCoreApplication::setApplicationName("iso3dfd-studio");
  QCoreApplication::setOrganizationName("iso3dfd");
  QCoreApplication::setApplicationVersion(ISO_VERSION);
  QGuiApplication::setDesktopFileName(ISO_APP_ID);  // the desktop entry: its icon and name on Wayland
}
}  // namespace

int main(int argc, char** argv) {
  iso::TemporaryFiles::removeOnSignals();  // before any library installs handlers of its own
  iso::registerStages();  // before any option names or checks a stage
  // Options are parsed before any window system is touched, so --help, --version and bad options work
  // on a machine without a display.
  std::optional<iso::StudioOptions> options;
  QString error;
  {
    QCoreApplication parsing(argc, argv);
    setApplicationNames();
    options = iso::parseStudioOptions(QCoreApplication::arguments(), error);
  }
  if (!options) {
    std::fprintf(stderr, "iso3dfd-studio: %s\n(see iso3dfd-studio --help)\n", qPrintable(error));
    return 2;
  }
  QApplication app(argc, argv);
  setApplicationNames();
  return iso::runStudio(*options);
}
