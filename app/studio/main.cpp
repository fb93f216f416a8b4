// iso3dfd-studio: the desktop application. Everything lives in the iso_studio library (tests drive it).
#include <QApplication>
#include <cstdio>

#include "StudioCli.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("iso3dfd-studio");
  QApplication::setOrganizationName("iso3dfd");
  QApplication::setApplicationVersion(ISO_VERSION);
  QString error;
  const auto options = iso::parseStudioOptions(QApplication::arguments(), error);
  if (!options) {
    std::fprintf(stderr, "iso3dfd-studio: %s\n(see iso3dfd-studio --help)\n", qPrintable(error));
    return 2;
  }
  return iso::runStudio(*options);
}
