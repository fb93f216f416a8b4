#pragma once
// The Source tab of the stage explorer: one of the stage's source files with line numbers, and a file
// picker when the stage has several.
#include <QWidget>
#include <string>
#include <vector>

class QComboBox;

namespace iso {

class CodeView;

class StageSourceView : public QWidget {
  Q_OBJECT
 public:
  explicit StageSourceView(QWidget* parent = nullptr);

  // The stage's files (repository-relative); shows the first.
  void setFiles(const std::vector<std::string>& repoPaths);
  int fileCount() const;
  void showFile(int index);
  QString currentFile() const;
  CodeView* editor() const { return editor_; }

 private:
  QComboBox* picker_ = nullptr;
  CodeView* editor_ = nullptr;
};

}  // namespace iso
