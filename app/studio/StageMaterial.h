#pragma once
// The stages' teaching material compiled into the binary as Qt resources (app/studio/CMakeLists.txt):
// the source files the registry lists (repository-relative paths), the explanations and the lesson's
// texts (relative to resources/), so the studio shows them without a source tree.
#include <QString>
#include <optional>
#include <string>

namespace iso {

// The file's text, or nullopt when it is not among the resources.
std::optional<QString> readStageMaterial(const std::string& repoPath);

// The stage's explanation (StageInfo::explanationFile(), which is relative to resources/).
std::optional<QString> readStageExplanation(const std::string& stageId);

// The stage's text in the lesson (resources/lessons/<id>.md, LessonText.h).
std::optional<QString> readLessonMarkdown(const std::string& stageId);

}  // namespace iso
