#include "app/studio/CodeView.h"

#include <Qsci/qscilexercpp.h>
#include <QFontDatabase>
#include <algorithm>

namespace iso {

namespace {
constexpr int kFontPointSize = 11;
}

CodeView::CodeView(QWidget* parent) : QsciScintilla(parent) {
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSize(kFontPointSize);
  auto* lexer = new QsciLexerCPP(this);
  lexer->setDefaultFont(mono);
  lexer->setFont(mono);  // every style: comments and keywords keep the column grid
  setLexer(lexer);
  setFont(mono);
  setMarginsFont(mono);
  setUtf8(true);
  setReadOnly(true);
  setCaretLineVisible(false);
  setWrapMode(QsciScintilla::WrapNone);
  setIndentationGuides(false);
  setFolding(QsciScintilla::NoFoldStyle);
}

void CodeView::showText(const QString& text) {
  setReadOnly(false);  // QScintilla refuses setText on a read-only document
  setText(text);
  setReadOnly(true);
  setCursorPosition(0, 0);
  ensureLineVisible(0);
}

namespace {
int characterWidth(const QsciScintilla& view) {
  return std::max(1, int(view.SendScintilla(QsciScintillaBase::SCI_TEXTWIDTH, QsciScintillaBase::STYLE_DEFAULT, "M")));
}
}  // namespace

int CodeView::longestLineWidth() const {
  int longest = 0;
  for (int line = 0; line < lines(); ++line) longest = std::max(longest, text(line).trimmed().isEmpty() ? 0 : int(text(line).size()));
  return (longest + 2) * characterWidth(*this);
}

void CodeView::setScrollWidth(int pixels) {
  SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 0L);
  SendScintilla(SCI_SETSCROLLWIDTH, std::max(1, pixels));
}

int CodeView::textAreaWidth() const {
  int margins = 0;
  for (int m = 0; m < 5; ++m) margins += int(SendScintilla(SCI_GETMARGINWIDTHN, m));
  return viewport()->width() - margins;
}

}  // namespace iso
