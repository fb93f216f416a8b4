#pragma once
// Side-by-side diff of two source texts (no Qt), for the stage explorer's Diff tab and the lesson: the
// rows a viewer shows next to each other, grouped into hunks. A small change is a line diff whose changed
// runs (with a little context) are the hunks; a rewrite (most lines differ) is aligned by the kernel's
// sections instead (set-up, loads, stencil, store): each section of the old code faces the same section
// of the new one, so that "the loads" of both stages are read side by side.
#include <string>
#include <vector>

namespace iso {

struct DiffRow {
  // Replaced: a removed line and an added one side by side that have nothing in common (a rewrite).
  // Heading: a viewer's title row above a hunk (leftText and rightText say what each side holds).
  enum class Kind { Same, Changed, Added, Removed, Replaced, Folded, Heading };
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

// Rows that differ (Changed, Added, Removed or Replaced).
int changedRowCount(const std::vector<DiffRow>& rows);

// What a line of a stencil kernel (OpenCL or C++) does, in the order a step does it.
enum class CodeSection { SetUp, Loads, Stencil, Store };
const char* sectionName(CodeSection section);  // "set-up", "loads", "stencil", "store"

// The section of every line, by what it touches: the update of next (wave_update, WAVE_STEP, a store
// to next) is the store; the coefficients and the Laplacian are the stencil; reads of prev, the local
// tile, barriers and asynchronous copies are the loads; the rest (macros, indices, declarations) is
// the set-up. Blank, comment and brace lines go with the code they stand next to, and a run shorter
// than kMinSectionLines (but the store, often one line) joins its neighbours, so that a section reads as
// a block.
inline constexpr int kMinSectionLines = 3;
std::vector<CodeSection> classifyLines(const std::vector<std::string>& lines);

// A block of rows that belong together: one section's lines on both sides (a rewrite), or one changed
// run with its context (a line diff), or an unchanged run between two of those.
struct DiffHunk {
  CodeSection section = CodeSection::SetUp;
  std::vector<DiffRow> rows;
  int leftFirst = 0, leftLast = 0;    // 1-based line range on the left; 0, 0 when it has no left line
  int rightFirst = 0, rightLast = 0;  // the same on the right
  bool changed() const { return changedRowCount(rows) > 0; }
  // The hunk's code that differs, left (removed, changed) and right (added, changed), one line each.
  std::string changedText() const;
};

// Whether the line diff `rows` reads as a rewrite: more than half of the rows differ.
bool isRewrite(const std::vector<DiffRow>& rows);
// Hunks of diffHunks that differ.
int changedHunkCount(const std::vector<DiffHunk>& hunks);

// The line diff split into hunks: each changed run with up to `context` unchanged rows on either side
// (runs closer than that share a hunk), and the unchanged runs between them as unchanged hunks. A
// changed hunk's section is that of its first changed line on the right (else the left).
std::vector<DiffHunk> lineHunks(const std::vector<DiffRow>& rows, const std::vector<std::string>& left,
                                const std::vector<std::string>& right, int context);

// A rewrite aligned by sections: both texts cut into their section blocks, the two sequences of
// blocks matched by section (the most in common, the stencil and the store counting double, in order),
// each matched pair
// diffed line by line, with the removed and added lines of each edit run side by side (Replaced rows):
// no blank filler where nothing lines up anyway. A block without a partner is all removed or all added.
// Every line of both texts appears once, in order.
std::vector<DiffHunk> sectionHunks(const std::vector<std::string>& left, const std::vector<std::string>& right);

// The hunks of `left` against `right`: sectionHunks for a rewrite, lineHunks otherwise.
std::vector<DiffHunk> diffHunks(const std::vector<std::string>& left, const std::vector<std::string>& right, int context);

}  // namespace iso
