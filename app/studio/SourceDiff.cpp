#include "app/studio/SourceDiff.h"

#include <algorithm>
#include <dtl/dtl.hpp>
#include <optional>
#include <regex>

namespace iso {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

namespace {

constexpr double kMinPairSimilarity = 0.25;  // below it, two lines read as unrelated

// Share of the longer line that the two lines have in common at their start and end.
double similarity(const std::string& a, const std::string& b) {
  const std::size_t longer = std::max(a.size(), b.size());
  if (longer == 0) return 1.0;
  const LineChange span = changedSpan(a, b);
  return double(span.begin + (a.size() - std::size_t(span.leftEnd))) / double(longer);
}

// Appends one edit hunk: removed and added lines are paired as Changed rows where they resemble each
// other, keeping both orders (the pairing with the largest total similarity); the rest stay Removed
// or Added, each in its place.
void appendHunk(const std::vector<DiffRow>& removed, const std::vector<DiffRow>& added, std::vector<DiffRow>& rows) {
  const std::size_t n = removed.size(), m = added.size();
  std::vector<std::vector<double>> best(n + 1, std::vector<double>(m + 1, 0.0));
  auto score = [&](std::size_t i, std::size_t j) {
    const double s = similarity(removed[i].leftText, added[j].rightText);
    return s >= kMinPairSimilarity ? s : -1.0;
  };
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      best[i][j] = std::max(best[i - 1][j], best[i][j - 1]);
      const double s = score(i - 1, j - 1);
      if (s > 0.0) best[i][j] = std::max(best[i][j], best[i - 1][j - 1] + s);
    }
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // backwards
  for (std::size_t i = n, j = m; i > 0 && j > 0;) {
    const double s = score(i - 1, j - 1);
    if (s > 0.0 && best[i][j] == best[i - 1][j - 1] + s) {
      pairs.emplace_back(--i, --j);
    } else if (best[i][j] == best[i - 1][j]) {
      --i;
    } else {
      --j;
    }
  }
  std::size_t i = 0, j = 0;
  auto flushUntil = [&](std::size_t ri, std::size_t aj) {
    while (i < ri) rows.push_back(removed[i++]);
    while (j < aj) rows.push_back(added[j++]);
  };
  for (auto p = pairs.rbegin(); p != pairs.rend(); ++p) {
    flushUntil(p->first, p->second);
    DiffRow row = removed[i++];
    row.kind = DiffRow::Kind::Changed;
    row.rightLine = added[j].rightLine;
    row.rightText = added[j++].rightText;
    rows.push_back(std::move(row));
  }
  flushUntil(n, m);
}

}  // namespace

std::vector<DiffRow> sideBySideDiff(const std::vector<std::string>& left, const std::vector<std::string>& right) {
  dtl::Diff<std::string, std::vector<std::string>> diff(left, right, /*deletesFirst=*/true);
  diff.compose();
  std::vector<DiffRow> rows;
  std::vector<DiffRow> removed, added;  // the current hunk, paired when it ends
  auto flushHunk = [&] {
    appendHunk(removed, added, rows);
    removed.clear();
    added.clear();
  };
  for (const auto& [line, info] : diff.getSes().getSequence()) {
    DiffRow row;
    if (info.type == dtl::SES_DELETE) {
      row.kind = DiffRow::Kind::Removed;
      row.leftLine = int(info.beforeIdx);
      row.leftText = line;
      removed.push_back(std::move(row));
      continue;
    }
    if (info.type == dtl::SES_ADD) {
      row.kind = DiffRow::Kind::Added;
      row.rightLine = int(info.afterIdx);
      row.rightText = line;
      added.push_back(std::move(row));
      continue;
    }
    flushHunk();
    row.leftLine = int(info.beforeIdx);
    row.rightLine = int(info.afterIdx);
    row.leftText = row.rightText = line;
    rows.push_back(std::move(row));
  }
  flushHunk();
  return rows;
}

std::vector<DiffRow> foldUnchanged(const std::vector<DiffRow>& rows, int context) {
  context = std::max(context, 0);
  std::vector<DiffRow> out;
  std::size_t i = 0;
  while (i < rows.size()) {
    if (rows[i].kind != DiffRow::Kind::Same) {
      out.push_back(rows[i++]);
      continue;
    }
    std::size_t end = i;
    while (end < rows.size() && rows[end].kind == DiffRow::Kind::Same) ++end;
    // Context is kept only on the sides of the run that touch a change.
    const std::size_t keepBefore = i == 0 ? 0 : std::size_t(context);
    const std::size_t keepAfter = end == rows.size() ? 0 : std::size_t(context);
    const std::size_t length = end - i;
    if (length <= keepBefore + keepAfter + 1) {
      out.insert(out.end(), rows.begin() + long(i), rows.begin() + long(end));
    } else {
      out.insert(out.end(), rows.begin() + long(i), rows.begin() + long(i + keepBefore));
      DiffRow fold;
      fold.kind = DiffRow::Kind::Folded;
      fold.foldedLines = int(length - keepBefore - keepAfter);
      out.push_back(fold);
      out.insert(out.end(), rows.begin() + long(end - keepAfter), rows.begin() + long(end));
    }
    i = end;
  }
  return out;
}

LineChange changedSpan(const std::string& left, const std::string& right) {
  const std::size_t shorter = std::min(left.size(), right.size());
  std::size_t prefix = 0;
  while (prefix < shorter && left[prefix] == right[prefix]) ++prefix;
  std::size_t suffix = 0;  // not reaching into the prefix on either side
  while (suffix < shorter - prefix && left[left.size() - 1 - suffix] == right[right.size() - 1 - suffix]) ++suffix;
  return {int(prefix), int(left.size() - suffix), int(right.size() - suffix)};
}

int changedRowCount(const std::vector<DiffRow>& rows) {
  return int(std::count_if(rows.begin(), rows.end(), [](const DiffRow& r) {
    return r.kind == DiffRow::Kind::Changed || r.kind == DiffRow::Kind::Added || r.kind == DiffRow::Kind::Removed ||
           r.kind == DiffRow::Kind::Replaced;
  }));
}

const char* sectionName(CodeSection section) {
  switch (section) {
    case CodeSection::SetUp: return "set-up";
    case CodeSection::Loads: return "loads";
    case CodeSection::Stencil: return "stencil";
    case CodeSection::Store: return "store";
  }
  return "";
}

namespace {

bool containsAny(const std::string& text, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return text.find(w) != std::string::npos; });
}

// The line without its // comment and surrounding blanks.
std::string codeOf(const std::string& line) {
  std::string code = line.substr(0, line.find("//"));
  const auto first = code.find_first_not_of(" \t\\");
  if (first == std::string::npos) return {};
  const auto last = code.find_last_not_of(" \t\\");
  return code.substr(first, last - first + 1);
}

// Lines that take the section of the code they stand next to: blanks, comments, braces, preprocessor
// branches, pragmas and loop headers (which belong to their body).
bool isNeutral(const std::string& code) {
  static const std::regex neutral(R"(^([{}();]*|#(pragma|if|ifdef|ifndef|else|elif|endif)\b.*|(for|while)\s*\(.*[){]|UNROLL\(.*\)|\*.*|/\*.*)$)");
  return std::regex_match(code, neutral);
}

CodeSection sectionOfCode(const std::string& code) {
  // The store: next's update, and the absorbing layer's factors that go into it.
  static const std::regex store(R"(\bnext\s*\[[^\]]*\]\s*=[^=]|\b(gy|gz|gxyz)\b)");
  static const std::regex laplacian(R"(\b(lap|value)\b)");
  // Register queues and windows, and reads of the local tile (t, row, col point into it).
  static const std::regex queuesAndTile(R"(\b(q|u|cq|hq|vq|nq|vn|w|t|row)\s*\[|= t \+)");
  if (containsAny(code, {"wave_update(", "WAVE_STEP(", "gstore(", "storeVec", "maskStore"}) || std::regex_search(code, store))
    return CodeSection::Store;
  if (containsAny(code, {"coef[", "c[r]", "c[0]"}) || std::regex_search(code, laplacian)) return CodeSection::Stencil;
  if (containsAny(code, {"prev[", "prev +", "gload(", "tile[", "tile +", "barrier(", "copy_async", "CP_ASYNC", "COPY_",
                         "vload", "loadVec", "LOAD_REGISTER_QUEUES", "ISSUE_COPIES"}) ||
      std::regex_search(code, queuesAndTile))
    return CodeSection::Loads;
  return CodeSection::SetUp;
}

// Where the stencil's own function starts: the OpenCL kernel, or the CPU stage's computeStencil. What
// comes before it (macros, helpers, includes) is set-up, whatever it touches.
std::size_t stencilFunctionStart(const std::vector<std::string>& lines) {
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (containsAny(codeOf(lines[i]), {"__kernel", "::computeStencil("})) return i;
  return 0;
}

// Runs shorter than kMinSectionLines (but the store's) join the neighbour that shares their section on both sides, else the
// longer neighbour.
void mergeShortRuns(std::vector<CodeSection>& sections) {
  struct Run {
    CodeSection section;
    std::size_t begin, end;
  };
  for (bool merged = true; merged;) {
    merged = false;
    std::vector<Run> runs;
    for (std::size_t i = 0; i < sections.size(); ++i)
      if (runs.empty() || runs.back().section != sections[i]) runs.push_back({sections[i], i, i + 1});
      else runs.back().end = i + 1;
    if (runs.size() < 2) return;
    for (std::size_t r = 0; r < runs.size() && !merged; ++r) {
      // The store is often one line, and the end of the step: it stays.
      if (runs[r].end - runs[r].begin >= std::size_t(kMinSectionLines) || runs[r].section == CodeSection::Store) continue;
      const Run* before = r > 0 ? &runs[r - 1] : nullptr;
      const Run* after = r + 1 < runs.size() ? &runs[r + 1] : nullptr;
      const Run* into = !before ? after : !after ? before
                      : before->section == after->section || before->end - before->begin >= after->end - after->begin ? before : after;
      std::fill(sections.begin() + long(runs[r].begin), sections.begin() + long(runs[r].end), into->section);
      merged = true;
    }
  }
}

}  // namespace

std::vector<CodeSection> classifyLines(const std::vector<std::string>& lines) {
  std::vector<std::optional<CodeSection>> own(lines.size());
  const std::size_t start = stencilFunctionStart(lines);
  for (std::size_t i = 0; i < lines.size();) {
    // A macro continued over several lines is one unit: its lines share the section of the whole.
    std::size_t end = i + 1;
    std::string code = codeOf(lines[i]);
    for (; end < lines.size() && !lines[end - 1].empty() && lines[end - 1].back() == '\\'; ++end) {
      code += ' ';
      code += codeOf(lines[end]);
    }
    if (i < start) {
      std::fill(own.begin() + long(i), own.begin() + long(end), CodeSection::SetUp);
    } else if (!isNeutral(code)) {
      std::fill(own.begin() + long(i), own.begin() + long(end), sectionOfCode(code));
    }
    i = end;
  }
  // Neutral lines: a closing brace ends the code before it; anything else leads into the code after it.
  std::vector<CodeSection> sections(lines.size(), CodeSection::SetUp);
  std::optional<CodeSection> next;
  for (std::size_t i = lines.size(); i-- > 0;) {
    if (own[i]) next = own[i];
    sections[i] = next.value_or(CodeSection::SetUp);
  }
  std::optional<CodeSection> previous;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (own[i]) previous = own[i];
    else if (previous && codeOf(lines[i]).starts_with("}")) sections[i] = *previous;
  }
  mergeShortRuns(sections);
  return sections;
}

std::string DiffHunk::changedText() const {
  std::string text;
  for (const DiffRow& row : rows) {
    if (row.kind == DiffRow::Kind::Same) continue;
    if (row.leftLine > 0) text += row.leftText + "\n";
    if (row.rightLine > 0) text += row.rightText + "\n";
  }
  return text;
}

bool isRewrite(const std::vector<DiffRow>& rows) { return !rows.empty() && 2 * changedRowCount(rows) > int(rows.size()); }

int changedHunkCount(const std::vector<DiffHunk>& hunks) {
  return int(std::count_if(hunks.begin(), hunks.end(), [](const DiffHunk& h) { return h.changed(); }));
}

namespace {

// Sets the hunk's line ranges from its rows.
DiffHunk hunkOf(CodeSection section, std::vector<DiffRow> rows) {
  DiffHunk hunk;
  hunk.section = section;
  for (const DiffRow& row : rows) {
    if (row.leftLine > 0) {
      if (hunk.leftFirst == 0) hunk.leftFirst = row.leftLine;
      hunk.leftLast = row.leftLine;
    }
    if (row.rightLine > 0) {
      if (hunk.rightFirst == 0) hunk.rightFirst = row.rightLine;
      hunk.rightLast = row.rightLine;
    }
  }
  hunk.rows = std::move(rows);
  return hunk;
}

bool differs(const DiffRow& row) { return changedRowCount({row}) > 0; }

}  // namespace

std::vector<DiffHunk> lineHunks(const std::vector<DiffRow>& rows, const std::vector<std::string>& left,
                                const std::vector<std::string>& right, int context) {
  context = std::max(context, 0);
  const std::vector<CodeSection> leftSections = classifyLines(left), rightSections = classifyLines(right);
  // Rows within `context` of a changed row belong to a changed hunk.
  std::vector<bool> near(rows.size(), false);
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (differs(rows[i]))
      for (std::size_t j = i >= std::size_t(context) ? i - std::size_t(context) : 0; j <= std::min(rows.size() - 1, i + std::size_t(context)); ++j)
        near[j] = true;
  std::vector<DiffHunk> hunks;
  for (std::size_t i = 0; i < rows.size();) {
    std::size_t end = i;
    while (end < rows.size() && near[end] == near[i]) ++end;
    std::vector<DiffRow> part(rows.begin() + long(i), rows.begin() + long(end));
    CodeSection section = CodeSection::SetUp;
    const auto first = std::find_if(part.begin(), part.end(), differs);
    if (first != part.end())
      section = first->rightLine > 0 ? rightSections[std::size_t(first->rightLine - 1)] : leftSections[std::size_t(first->leftLine - 1)];
    hunks.push_back(hunkOf(section, std::move(part)));
    i = end;
  }
  return hunks;
}

namespace {

struct SectionBlock {
  CodeSection section;
  std::size_t begin, end;  // line indices, [begin, end)
};

std::vector<SectionBlock> sectionBlocks(const std::vector<std::string>& lines) {
  const std::vector<CodeSection> sections = classifyLines(lines);
  std::vector<SectionBlock> blocks;
  for (std::size_t i = 0; i < sections.size(); ++i)
    if (blocks.empty() || blocks.back().section != sections[i]) blocks.push_back({sections[i], i, i + 1});
    else blocks.back().end = i + 1;
  return blocks;
}

// The rows of lines [block.begin, block.end) as all removed (left) or all added (right).
std::vector<DiffRow> oneSidedRows(const std::vector<std::string>& lines, const SectionBlock& block, bool left) {
  std::vector<DiffRow> rows;
  for (std::size_t i = block.begin; i < block.end; ++i) {
    DiffRow row;
    row.kind = left ? DiffRow::Kind::Removed : DiffRow::Kind::Added;
    (left ? row.leftLine : row.rightLine) = int(i) + 1;
    (left ? row.leftText : row.rightText) = lines[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

// The rows with the removed and the added lines of each edit run side by side (Replaced rows), the
// longer side's rest alone, where they had a row each: a rewrite leaves no blank filler where nothing
// lines up anyway. Changed pairs and unchanged rows stay where they are.
std::vector<DiffRow> compacted(const std::vector<DiffRow>& rows) {
  std::vector<DiffRow> out, removed, added;
  const auto flush = [&] {
    for (std::size_t i = 0; i < std::max(removed.size(), added.size()); ++i) {
      if (i < removed.size() && i < added.size()) {
        DiffRow row = removed[i];
        row.kind = DiffRow::Kind::Replaced;
        row.rightLine = added[i].rightLine;
        row.rightText = added[i].rightText;
        out.push_back(std::move(row));
      } else {
        out.push_back(i < removed.size() ? removed[i] : added[i]);
      }
    }
    removed.clear();
    added.clear();
  };
  for (const DiffRow& row : rows) {
    if (row.kind == DiffRow::Kind::Removed) removed.push_back(row);
    else if (row.kind == DiffRow::Kind::Added) added.push_back(row);
    else {
      flush();
      out.push_back(row);
    }
  }
  flush();
  return out;
}

// The line diff of two blocks, numbered as lines of their whole texts, compacted.
std::vector<DiffRow> blockDiff(const std::vector<std::string>& left, const SectionBlock& a, const std::vector<std::string>& right,
                               const SectionBlock& b) {
  std::vector<DiffRow> rows = sideBySideDiff({left.begin() + long(a.begin), left.begin() + long(a.end)},
                                             {right.begin() + long(b.begin), right.begin() + long(b.end)});
  for (DiffRow& row : rows) {
    if (row.leftLine > 0) row.leftLine += int(a.begin);
    if (row.rightLine > 0) row.rightLine += int(b.begin);
  }
  return compacted(rows);
}

}  // namespace

std::vector<DiffHunk> sectionHunks(const std::vector<std::string>& left, const std::vector<std::string>& right) {
  const std::vector<SectionBlock> a = sectionBlocks(left), b = sectionBlocks(right);
  // The heaviest common subsequence of the two block sequences by section: the stencil and the store,
  // the heart of a step, weigh more than the loads and the set-up around them, so that they face each
  // other when the rest cannot all be matched.
  const auto weight = [](CodeSection section) { return section == CodeSection::Stencil || section == CodeSection::Store ? 2 : 1; };
  std::vector<std::vector<int>> common(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (std::size_t i = a.size(); i-- > 0;)
    for (std::size_t j = b.size(); j-- > 0;)
      common[i][j] = std::max({common[i + 1][j], common[i][j + 1],
                               a[i].section == b[j].section ? common[i + 1][j + 1] + weight(a[i].section) : 0});
  std::vector<DiffHunk> hunks;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i].section == b[j].section &&
        common[i][j] == common[i + 1][j + 1] + weight(a[i].section)) {
      hunks.push_back(hunkOf(a[i].section, blockDiff(left, a[i], right, b[j])));
      ++i;
      ++j;
    } else if (i < a.size() && (j == b.size() || common[i + 1][j] >= common[i][j + 1])) {
      hunks.push_back(hunkOf(a[i].section, oneSidedRows(left, a[i], true)));
      ++i;
    } else {
      hunks.push_back(hunkOf(b[j].section, oneSidedRows(right, b[j], false)));
      ++j;
    }
  }
  return hunks;
}

std::vector<DiffHunk> diffHunks(const std::vector<std::string>& left, const std::vector<std::string>& right, int context) {
  const std::vector<DiffRow> rows = sideBySideDiff(left, right);
  return isRewrite(rows) ? sectionHunks(left, right) : lineHunks(rows, left, right, context);
}

}  // namespace iso
