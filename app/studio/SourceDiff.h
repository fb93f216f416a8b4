#pragma once
// Side-by-side line diff of two source texts (no Qt), for the stage explorer's Diff tab: the rows a
// viewer shows next to each other, with runs of unchanged lines that can be folded away.
#include <string>
#include <vector>

namespace iso {

struct DiffRow {
  enum class Kind { Same, Changed, Added, Removed, Folded };
  Kind kind = Kind::Same;
  int leftLine = 0;   // 1-based line number in the left text; 0 where the row has no left line
  std::string leftText;
  int rightLine = 0;  // the same for the right text
  std::string rightText;
  int foldedLines = 0;  // Folded rows: how many unchanged rows they stand for
};

// Splits at '\n' (a trailing '\r' is dropped); a final newline does not start another line.
std::vector<std::string> splitLines(const std::string& text);

// The rows of a line diff (dtl's shortest edit script). Within each edit hunk, removed and added lines
// that resemble each other (a common start and end of at least a quarter of the longer one) are paired as
// Changed rows, in order; the others stay Removed or Added.
std::vector<DiffRow> sideBySideDiff(const std::vector<std::string>& left, const std::vector<std::string>& right);

// The rows with each run of unchanged rows folded into one Folded row, except the `context` rows next
// to a change (none at the ends of the text); a run that would fold a single row stays whole.
std::vector<DiffRow> foldUnchanged(const std::vector<DiffRow>& rows, int context);

// Where two versions of a line differ: characters [begin, leftEnd) of the left line and
// [begin, rightEnd) of the right one, between their longest common prefix and suffix.
struct LineChange {
  int begin = 0, leftEnd = 0, rightEnd = 0;
};
LineChange changedSpan(const std::string& left, const std::string& right);

// Rows that differ (Changed, Added or Removed).
int changedRowCount(const std::vector<DiffRow>& rows);

}  // namespace iso
