#include "app/studio/LessonText.h"

#include <algorithm>
#include <sstream>

namespace iso {
namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

bool isTableLine(const std::string& line) { return trimmed(line).starts_with("|"); }

std::vector<std::string> tableCells(const std::string& line) {
  std::string body = trimmed(line);
  if (body.starts_with("|")) body.erase(0, 1);
  if (body.ends_with("|")) body.pop_back();
  std::vector<std::string> cells;
  std::istringstream in(body);
  for (std::string cell; std::getline(in, cell, '|');) cells.push_back(trimmed(cell));
  return cells;
}

bool isSeparatorRow(const std::vector<std::string>& cells) {
  return !cells.empty() && std::all_of(cells.begin(), cells.end(), [](const std::string& c) {
    return !c.empty() && c.find_first_not_of("-: ") == std::string::npos;
  });
}

// Splits Predict's Markdown into its table and the rest.
void readPredict(const std::vector<std::string>& lines, LessonText& text) {
  std::string rest;
  for (const std::string& line : lines) {
    if (!isTableLine(line)) {
      rest += line + "\n";
      continue;
    }
    const std::vector<std::string> cells = tableCells(line);
    if (isSeparatorRow(cells)) continue;
    if (text.perPoint.header.empty()) text.perPoint.header = cells;
    else text.perPoint.rows.push_back(cells);
  }
  text.predict = trimmed(rest);
}

// "- `a`, `b`: sentence" (keys, then the sentence); "- sentence" (no keys). Continuation lines of a
// bullet join its sentence.
void readNotes(const std::vector<std::string>& lines, LessonText& text) {
  for (const std::string& raw : lines) {
    const std::string line = trimmed(raw);
    if (line.empty()) continue;
    if (!line.starts_with("- ")) {
      if (!text.notes.empty()) text.notes.back().sentence += " " + line;
      continue;
    }
    LessonNote note;
    std::size_t pos = 2;
    while (pos < line.size() && line[pos] == '`') {
      const std::size_t close = line.find('`', pos + 1);
      if (close == std::string::npos) break;
      note.keys.push_back(line.substr(pos + 1, close - pos - 1));
      pos = line.find_first_not_of(", ", close + 1);
      if (pos == std::string::npos) pos = line.size();
    }
    if (!note.keys.empty() && pos < line.size() && line[pos] == ':') {
      ++pos;
    } else {  // "- `code` in a sentence" without a colon after the code is a sentence
      note.keys.clear();
      pos = 2;
    }
    note.sentence = trimmed(line.substr(std::min(pos, line.size())));
    text.notes.push_back(std::move(note));
  }
}

}  // namespace

LessonText parseLessonText(const std::string& markdown) {
  LessonText text;
  std::string heading;  // the section being read; "" before the first
  std::vector<std::string> body;
  const auto finish = [&] {
    std::string joined;
    for (const std::string& line : body) joined += line + "\n";
    if (heading.empty()) text.introduction = trimmed(joined);
    else if (heading == "Predict") readPredict(body, text);
    else if (heading == "Run") text.run = trimmed(joined);
    else if (heading == "Read") readNotes(body, text);
    else if (heading == "Takeaway") text.takeaway = trimmed(joined);
    else text.otherSections.emplace_back(heading, trimmed(joined));
    body.clear();
  };
  for (const std::string& line : linesOf(markdown)) {
    if (text.title.empty() && heading.empty() && line.starts_with("# ")) {
      text.title = trimmed(line.substr(2));
    } else if (line.starts_with("## ")) {
      finish();
      heading = trimmed(line.substr(3));
    } else {
      body.push_back(line);
    }
  }
  finish();
  return text;
}

std::optional<std::size_t> noteForCode(const std::string& code, const std::vector<LessonNote>& notes) {
  std::optional<std::size_t> best, fallback;
  std::size_t bestHits = 0;
  for (std::size_t n = 0; n < notes.size(); ++n) {
    if (notes[n].keys.empty()) {
      if (!fallback) fallback = n;
      continue;
    }
    const auto hits = std::size_t(std::count_if(notes[n].keys.begin(), notes[n].keys.end(),
                                                [&](const std::string& key) { return code.find(key) != std::string::npos; }));
    if (hits > bestHits) {
      bestHits = hits;
      best = n;
    }
  }
  return best ? best : fallback;
}

std::string explanationSummary(const std::string& markdown) {
  std::string summary;
  bool afterTitle = false;
  for (const std::string& raw : linesOf(markdown)) {
    const std::string line = trimmed(raw);
    if (!afterTitle) {
      afterTitle = line.starts_with("# ");
      continue;
    }
    if (line.empty() || line.starts_with("#")) {
      if (!summary.empty()) break;
      continue;
    }
    summary += (summary.empty() ? "" : " ") + line;
  }
  return summary;
}

}  // namespace iso
