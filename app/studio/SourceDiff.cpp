#include "SourceDiff.h"

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

std::vector<DiffRow> sideBySideDiff(const std::vector<std::string>& left, const std::vector<std::string>& right) {
  dtl::Diff<std::string, std::vector<std::string>> diff(left, right, /*deletesFirst=*/true);
  diff.compose();
  std::vector<DiffRow> rows;
  std::vector<DiffRow> removed, added;  // the current hunk, paired when it ends
  auto flushHunk = [&] {
    const std::size_t paired = std::min(removed.size(), added.size());
    for (std::size_t i = 0; i < paired; ++i) {
      DiffRow row = removed[i];
      row.kind = DiffRow::Kind::Changed;
      row.rightLine = added[i].rightLine;
      row.rightText = added[i].rightText;
      rows.push_back(std::move(row));
    }
    for (std::size_t i = paired; i < removed.size(); ++i) rows.push_back(removed[i]);
    for (std::size_t i = paired; i < added.size(); ++i) rows.push_back(added[i]);
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

int changedRowCount(const std::vector<DiffRow>& rows) {
  return int(std::count_if(rows.begin(), rows.end(), [](const DiffRow& r) {
    return r.kind == DiffRow::Kind::Changed || r.kind == DiffRow::Kind::Added || r.kind == DiffRow::Kind::Removed;
  }));
}

}  // namespace iso
