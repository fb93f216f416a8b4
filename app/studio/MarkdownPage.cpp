#include "app/studio/MarkdownPage.h"

#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextTable>

namespace iso {
namespace {

// The Markdown importer sets headings very large and tight against the text around them, code blocks
// unshaded and tables without room in their cells: give headings a size that keeps a title on one line
// and air above, code a shaded, indented block, and tables padding, as a reader expects of a page.
void spaceOutForReading(QTextDocument* document) {
  QTextCursor cursor(document);
  for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
    QTextBlockFormat format = block.blockFormat();
    cursor.setPosition(block.position());
    if (QTextTable* table = cursor.currentTable()) {
      QTextTableFormat tableFormat = table->format();
      if (tableFormat.cellPadding() < 4) {
        tableFormat.setCellPadding(4);
        tableFormat.setCellSpacing(0);
        tableFormat.setBorder(1);
        tableFormat.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        tableFormat.setBorderBrush(QColor(170, 170, 170));
        tableFormat.setBorderCollapse(true);
        table->setFormat(tableFormat);
      }
    }
    if (format.headingLevel() > 0) {
      format.setTopMargin(format.headingLevel() == 1 ? 4 : 14);
      format.setBottomMargin(6);
      cursor.setBlockFormat(format);
      // Each fragment (a heading may hold code) gets a fixed size instead of the importer's relative one.
      for (auto it = block.begin(); !it.atEnd(); ++it) {
        const QTextFragment fragment = it.fragment();
        QTextCharFormat chars = fragment.charFormat();
        chars.clearProperty(QTextFormat::FontSizeAdjustment);
        chars.setFontPointSize(kReadingPointSize * (format.headingLevel() == 1 ? 1.6 : 1.3));
        cursor.setPosition(fragment.position());
        cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
        cursor.setCharFormat(chars);
      }
    } else if (format.hasProperty(QTextFormat::BlockCodeFence)) {
      format.setBackground(QColor(242, 242, 238));
      format.setLeftMargin(format.leftMargin() + 12);
      cursor.setBlockFormat(format);
    }
  }
}

}  // namespace

void prepareForReading(QTextBrowser* browser) {
  browser->setOpenLinks(false);
  QFont font = browser->font();
  font.setPointSize(kReadingPointSize);
  browser->document()->setDefaultFont(font);
}

void showMarkdown(QTextBrowser* browser, const QString& markdown) {
  browser->setMarkdown(markdown);
  spaceOutForReading(browser->document());
}

}  // namespace iso
