#pragma once
// The Diff tab of the stage explorer: a source file of the previous stage (left) against one of this
// stage (right), side by side in two synchronised code views. Removed, added and changed lines are
// highlighted; "Changed lines only" folds the unchanged runs into one line each.
#include <QWidget>
#include <string>
#include <vector>

#include "app/studio/SourceDiff.h"

class QCheckBox;
class QComboBox;
class QLabel;

namespace iso {

class CodeView;

class StageDiffView : public QWidget {
  Q_OBJECT
 public:
  // The QScintilla indicator that boxes the characters that differ within a changed line.
  static constexpr int kChangedTextIndicator = 8;

  explicit StageDiffView(QWidget* parent = nullptr);

  // Compares `stageId` with its registry's previous stage (nothing to compare for the first stage).
  void setStage(const std::string& stageId);
  void setChangedOnly(bool on);

  // The rows on screen (folded or not) and the lines that differ in the whole diff.
  const std::vector<DiffRow>& shownRows() const { return shown_; }
  int changedRows() const { return changedRowCount(rows_); }
  QString summary() const;
  CodeView* leftView() const { return left_; }
  CodeView* rightView() const { return right_; }

 private:
  void compare();  // diffs the two picked files
  void showRows();
  void linkScrolling(CodeView* from, CodeView* to);

  QComboBox *leftFile_ = nullptr, *rightFile_ = nullptr;
  QLabel *leftTitle_ = nullptr, *rightTitle_ = nullptr, *summary_ = nullptr;
  QCheckBox* changedOnly_ = nullptr;
  CodeView *left_ = nullptr, *right_ = nullptr;
  std::vector<DiffRow> rows_, shown_;
};

}  // namespace iso
