#pragma once
// The Diff tab of the stage explorer and the Read page of the lesson: a source file of the previous
// stage (left) against one of this stage (right), side by side in two code views that scroll together,
// as hunks (SourceDiff.h): the changed runs of a small change, or, for a rewrite, each section of the
// kernel (set-up, loads, stencil, store) facing the same section of the new one. Each changed hunk has
// a title row and, below it, the sentence of the lesson's explanation that it implements. Removed, added
// and changed lines are highlighted; "Changed hunks only" (on by default for a rewrite) leaves out the
// unchanged code, one line per run.
#include <QWidget>
#include <string>
#include <vector>

#include "app/studio/LessonText.h"
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
  static constexpr int kContextRows = 3;  // unchanged rows kept next to each change

  explicit StageDiffView(QWidget* parent = nullptr);

  // Compares `stageId` with its registry's previous stage (nothing to compare for the first stage), with
  // the notes of its lesson text (none when it has no lesson text).
  void setStage(const std::string& stageId);
  void setChangedOnly(bool on);
  bool changedOnly() const;

  // The rows on screen (folded or not, with the hunks' title rows) and the lines that differ in the diff.
  const std::vector<DiffRow>& shownRows() const { return shown_; }
  int changedRows() const;
  const std::vector<DiffHunk>& hunks() const { return hunks_; }
  bool rewrite() const { return rewrite_; }
  // The sentence shown under the title row of hunk `n` ("" when none); -1 when the hunk has no note.
  QString hunkNote(std::size_t n) const;
  QString summary() const;
  CodeView* leftView() const { return left_; }
  CodeView* rightView() const { return right_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;  // the notes are wrapped to the views' width

 private:
  void compare();  // diffs the two picked files
  void showRows();
  void markRows();
  void annotateNotes();
  void linkScrolling(CodeView* from, CodeView* to);

  QComboBox *leftFile_ = nullptr, *rightFile_ = nullptr;
  QLabel *leftTitle_ = nullptr, *rightTitle_ = nullptr, *summary_ = nullptr;
  QCheckBox* changedOnly_ = nullptr;
  CodeView *left_ = nullptr, *right_ = nullptr;
  std::string stage_, previous_;
  std::vector<LessonNote> notes_;
  std::vector<DiffHunk> hunks_;
  bool rewrite_ = false;
  int totalRows_ = 0;  // rows of every hunk, for the summary
  std::vector<DiffRow> shown_;
  std::vector<std::pair<int, std::size_t>> headings_;  // shown row of each changed hunk's title, hunk index
  int annotatedWidth_ = 0;  // the width in pixels the notes were wrapped to
};

}  // namespace iso
