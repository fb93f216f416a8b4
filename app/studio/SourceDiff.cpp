#include "app/studio/SourceDiff.h"

#include <algorithm>
#include <dtl/dtl.hpp>

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
    return r.kind == DiffRow::Kind::Changed || r.kind == DiffRow::Kind::Added || r.kind == DiffRow::Kind::Removed;
  }));
}

}  // namespace iso
