// The stage tables of the documentation against the registry: the README's and docs/STAGES.md's rows
// name every stage once, in teaching order, and STAGES.md gives each its registered title, oneAPI sample
// and parameters. A stage added, renamed or given a parameter fails here until the tables follow; the
// message prints the row the stage needs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "compute/Stage.h"
#include "core/Format.h"

namespace iso {
namespace {

// The cells of each row of the first Markdown table under `heading` ("## Stages") whose first cell is a
// `stage id`: {"`cpu-serial`", "CPU serial", ...}.
std::vector<std::vector<std::string>> stageRows(const std::string& file, const std::string& heading) {
  std::ifstream in(std::filesystem::path(ISO_SOURCE_DIR) / file);
  EXPECT_TRUE(in) << file;
  std::vector<std::vector<std::string>> rows;
  bool under = heading.empty(), inTable = false;
  for (std::string line; std::getline(in, line);) {
    if (!under) {
      under = line == heading;
      continue;
    }
    if (line.rfind("|", 0) != 0) {
      if (inTable) break;  // the table has ended
      continue;
    }
    inTable = true;
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] != '|') {
        cell += line[i];
        continue;
      }
      cells.push_back(std::regex_replace(cell, std::regex(R"(^\s+|\s+$)"), ""));
      cell.clear();
    }
    if (!cells.empty() && std::regex_match(cells[0], std::regex("`[a-z0-9-]+`"))) rows.push_back(cells);
  }
  return rows;
}

std::string idOf(const std::vector<std::string>& row) { return row[0].substr(1, row[0].size() - 2); }

// Every `name` quoted in a cell.
std::set<std::string> quotedNames(const std::string& cell) {
  std::set<std::string> out;
  const std::regex quoted("`([A-Za-z_0-9]+)`");
  for (auto it = std::sregex_iterator(cell.begin(), cell.end(), quoted); it != std::sregex_iterator(); ++it)
    out.insert((*it)[1]);
  return out;
}

std::vector<std::string> registeredIds() {
  std::vector<std::string> ids;
  for (const Stage* s : allStages()) ids.push_back(s->id());
  return ids;
}

// The STAGES.md row a stage needs, with its description left for a person to write.
std::string expectedRow(const Stage& s) {
  const std::vector<std::string> names = s.parameterNames();
  return "| `" + s.id() + "` | " + s.info().title + " | " +
         (s.info().sampleName.empty() ? "—" : "`" + s.info().sampleName + "`") + " | (what it is) | " +
         (names.empty() ? "—" : commaList(names, [](const std::string& n) { return "`" + n + "`"; })) + " |";
}

TEST(StageDocs, TheReadmeTableNamesEveryStageInTeachingOrder) {
  std::vector<std::string> documented;
  for (const auto& row : stageRows("README.md", "## Stages")) documented.push_back(idOf(row));
  EXPECT_EQ(documented, registeredIds()) << "README.md, section Stages: one row per stage, in the order of "
                                            "`iso3dfd stages`";
}

TEST(StageDocs, TheStagesTableGivesEachStageItsTitleSampleAndParameters) {
  const auto rows = stageRows("docs/STAGES.md", "");
  std::vector<std::string> documented;
  for (const auto& row : rows) documented.push_back(idOf(row));
  std::string missing;
  for (const Stage* s : allStages())
    if (std::find(documented.begin(), documented.end(), s->id()) == documented.end()) missing.append("\n").append(expectedRow(*s));
  ASSERT_EQ(documented, registeredIds()) << "docs/STAGES.md: one row per stage, in the order of `iso3dfd stages`"
                                         << (missing.empty() ? "" : "; missing:" + missing);
  for (const auto& row : rows) {
    const Stage& stage = resolveStage(idOf(row));
    const std::string needed = "docs/STAGES.md needs a row like\n" + expectedRow(stage);
    ASSERT_EQ(row.size(), 5u) << needed;
    EXPECT_EQ(row[1], stage.info().title) << needed;
    const std::string& sample = stage.info().sampleName;
    if (sample.empty())
      EXPECT_EQ(row[2].rfind("—", 0), 0u) << needed;
    else
      EXPECT_EQ(quotedNames(row[2]), std::set<std::string>{sample}) << needed;
    const std::vector<std::string> names = stage.parameterNames();
    EXPECT_EQ(quotedNames(row[4]), std::set<std::string>(names.begin(), names.end())) << needed;
  }
}

}  // namespace
}  // namespace iso
