#pragma once
// A read-only source view for the stage explorer: QScintilla with the C++ lexer (which also colours
// OpenCL C well), a monospace font large enough for a projector, and no editing.
#include <Qsci/qsciscintilla.h>

namespace iso {

class CodeView : public QsciScintilla {
  Q_OBJECT
 public:
  explicit CodeView(QWidget* parent = nullptr);

  // Replaces the text (the view stays read-only) and scrolls to the top.
  void showText(const QString& text);

  // The longest line's width in pixels, and the horizontal scroll range (fixed: two views given the same
  // one scroll over the same columns).
  int longestLineWidth() const;
  void setScrollWidth(int pixels);
  // Pixels beside the margins.
  int textAreaWidth() const;
};

}  // namespace iso
