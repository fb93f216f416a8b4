#pragma once
// Markdown shown as a page for reading (the stage explanations, the lesson's texts): a size that reads
// from the back of a room, headings with air above them and a size that keeps a title on one line, and
// code blocks shaded and indented.
#include <QString>

class QTextBrowser;

namespace iso {

inline constexpr int kReadingPointSize = 12;

// Sets `browser` to read at kReadingPointSize (once, when it is made).
void prepareForReading(QTextBrowser* browser);
// Replaces its text with `markdown`, laid out for reading.
void showMarkdown(QTextBrowser* browser, const QString& markdown);

}  // namespace iso
