#include "app/studio/CodeView.h"

#include <Qsci/qscilexercpp.h>
#include <QFontDatabase>

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

}  // namespace iso
