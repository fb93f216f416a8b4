#include "app/studio/StageMaterial.h"

#include <QFile>

#include "core/StageRegistry.h"

namespace iso {

std::optional<QString> readStageMaterial(const std::string& repoPath) {
  // The resource prefix and paths relative to the repository root are set in app/studio/CMakeLists.txt.
  QFile file(QStringLiteral(":/stage-material/") + QString::fromStdString(repoPath));
  if (!file.open(QIODevice::ReadOnly)) return std::nullopt;
  return QString::fromUtf8(file.readAll());
}

std::optional<QString> readStageExplanation(const std::string& stageId) {
  return readStageMaterial("resources/" + StageRegistry::get(stageId).explanationFile());
}

std::optional<QString> readLessonMarkdown(const std::string& stageId) {
  return readStageMaterial("resources/lessons/" + StageRegistry::get(stageId).id + ".md");
}

}  // namespace iso
