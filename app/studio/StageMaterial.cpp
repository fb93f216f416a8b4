#include "StageMaterial.h"

#include <QFile>

#include "StageRegistry.h"

namespace iso {

QString stageMaterialPath(const std::string& repoPath) {
  return QStringLiteral(":/stage-material/") + QString::fromStdString(repoPath);
}

std::optional<QString> readStageMaterial(const std::string& repoPath) {
  QFile file(stageMaterialPath(repoPath));
  if (!file.open(QIODevice::ReadOnly)) return std::nullopt;
  return QString::fromUtf8(file.readAll());
}

std::optional<QString> readStageExplanation(const std::string& stageId) {
  return readStageMaterial("resources/" + StageRegistry::get(stageId).explanationFile);
}

}  // namespace iso
