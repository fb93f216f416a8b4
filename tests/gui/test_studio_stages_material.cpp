// The stage explorer's material without widgets: the side-by-side diff, the compiled-in sources and
// explanations of every registry stage, and the explanations' placeholders.
#include <gtest/gtest.h>

#include <QString>
#include <algorithm>
#include <cstdio>

#include "compute/SolverFactory.h"
#include "app/studio/SourceDiff.h"
#include "app/studio/StageExplanation.h"
#include "app/studio/StageMaterial.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

std::vector<std::string> materialLines(const std::string& repoPath) {
  const auto text = readStageMaterial(repoPath);
  EXPECT_TRUE(text) << repoPath << " is not among the resources";
  return text ? splitLines(text->toStdString()) : std::vector<std::string>{};
}

int lineNumberOf(const std::vector<std::string>& lines, const std::string& needle) {
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find(needle) != std::string::npos) return int(i) + 1;
  return 0;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// Every left (right) line appears once, in order, with its own number.
void expectRowsRebuildBothTexts(const std::vector<DiffRow>& rows, const std::vector<std::string>& left,
                                const std::vector<std::string>& right, const std::string& what) {
  std::vector<std::string> l, r;
  for (const DiffRow& row : rows) {
    if (row.leftLine > 0) {
      EXPECT_EQ(row.leftLine, int(l.size()) + 1) << what;
      l.push_back(row.leftText);
    }
    if (row.rightLine > 0) {
      EXPECT_EQ(row.rightLine, int(r.size()) + 1) << what;
      r.push_back(row.rightText);
    }
    if (row.kind == DiffRow::Kind::Same) {
      EXPECT_EQ(row.leftText, row.rightText) << what;
    }
    if (row.kind == DiffRow::Kind::Changed) {
      EXPECT_NE(row.leftText, row.rightText) << what;
    }
  }
  EXPECT_EQ(l, left) << what;
  EXPECT_EQ(r, right) << what;
}

TEST(SourceDiff, SplitsLinesLikeAnEditor) {
  EXPECT_EQ(splitLines("a\r\nb\n"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(splitLines("a\n\nb"), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_TRUE(splitLines("").empty());
}

TEST(SourceDiff, LinearAgainstBasicNamesTheChangedLines) {
  const auto basic = materialLines("resources/kernels/basic.cl");
  const auto linear = materialLines("resources/kernels/linear.cl");
  const auto rows = sideBySideDiff(basic, linear);
  EXPECT_GT(changedRowCount(rows), 0);
  expectRowsRebuildBothTexts(rows, basic, linear, "basic.cl -> linear.cl");

  // The index function leaves; the linear index arrives: both at their own line numbers.
  const int idx3Line = lineNumberOf(basic, "inline int idx3");
  const int linearIndexLine = lineNumberOf(linear, "const int c = (z * (n2 + 2 * R) + y) * nx + x;");
  ASSERT_GT(idx3Line, 0);
  ASSERT_GT(linearIndexLine, 0);
  const auto leftRow = std::find_if(rows.begin(), rows.end(), [&](const DiffRow& r) { return r.leftLine == idx3Line; });
  const auto rightRow = std::find_if(rows.begin(), rows.end(), [&](const DiffRow& r) { return r.rightLine == linearIndexLine; });
  ASSERT_NE(leftRow, rows.end());
  ASSERT_NE(rightRow, rows.end());
  EXPECT_NE(leftRow->kind, DiffRow::Kind::Same);
  EXPECT_NE(rightRow->kind, DiffRow::Kind::Same);
  // Lines are paired by resemblance, not by their place in the hunk: the first line of the Laplacian
  // faces its new form, and the new linear index has no partner.
  const auto lapRow = std::find_if(rows.begin(), rows.end(), [](const DiffRow& r) { return r.leftText.find("float lap") != std::string::npos; });
  ASSERT_NE(lapRow, rows.end());
  EXPECT_EQ(lapRow->kind, DiffRow::Kind::Changed);
  EXPECT_NE(lapRow->rightText.find("float lap = coef[0] * prev[c];"), std::string::npos) << lapRow->rightText;
  EXPECT_EQ(rightRow->kind, DiffRow::Kind::Added);
  // The kernel's signature is common to both.
  const auto signature = std::find_if(rows.begin(), rows.end(), [](const DiffRow& r) {
    return r.leftText == "__kernel void stencil(STENCIL_ARGS) {";
  });
  ASSERT_NE(signature, rows.end());
  EXPECT_EQ(signature->kind, DiffRow::Kind::Same);
}

TEST(SourceDiff, EveryStageAgainstItsPreviousRebuildsBothFiles) {
  for (const StageInfo& stage : StageRegistry::all()) {
    if (stage.previous.empty()) continue;
    for (const std::string& before : StageRegistry::get(stage.previous).sourceFiles)
      for (const std::string& after : stage.sourceFiles) {
        const auto left = materialLines(before), right = materialLines(after);
        expectRowsRebuildBothTexts(sideBySideDiff(left, right), left, right, before + " -> " + after);
      }
  }
}

TEST(SourceDiff, IdenticalAndEmptyTexts) {
  const std::vector<std::string> text = {"a", "b", "c"};
  const auto same = sideBySideDiff(text, text);
  EXPECT_EQ(changedRowCount(same), 0);
  EXPECT_EQ(same.size(), text.size());
  const auto added = sideBySideDiff({}, text);
  ASSERT_EQ(added.size(), text.size());
  for (const DiffRow& r : added) {
    EXPECT_EQ(r.kind, DiffRow::Kind::Added);
  }
  const auto removed = sideBySideDiff(text, {});
  for (const DiffRow& r : removed) {
    EXPECT_EQ(r.kind, DiffRow::Kind::Removed);
  }
}

TEST(SourceDiff, ChangedSpanLiesBetweenTheCommonPrefixAndSuffix) {
  const LineChange linear = changedSpan("lap += prev[idx3(x + r, y, z, nx, ny)];", "lap += prev[c + r];");
  EXPECT_EQ(linear.begin, 12);      // after "lap += prev["
  EXPECT_EQ(linear.leftEnd, 37);    // before "];"
  EXPECT_EQ(linear.rightEnd, 17);    // "c + r"
  const LineChange grown = changedSpan("aa", "aaa");  // the suffix may not reach into the prefix
  EXPECT_EQ(grown.begin, 2);
  EXPECT_EQ(grown.leftEnd, 2);
  EXPECT_EQ(grown.rightEnd, 3);
  const LineChange same = changedSpan("abc", "abc");
  EXPECT_EQ(same.begin, same.leftEnd);
}

TEST(SourceDiff, FoldingKeepsContextAroundChangesOnly) {
  std::vector<std::string> left, right;
  for (int i = 0; i < 41; ++i) {
    left.push_back("line " + std::to_string(i));
    right.push_back(i == 20 ? left.back() + " changed" : left.back());
  }
  const auto rows = sideBySideDiff(left, right);
  const auto folded = foldUnchanged(rows, 3);
  // 20 same, 1 changed, 20 same -> fold(17), 3 same, changed, 3 same, fold(17).
  ASSERT_EQ(folded.size(), 9u);
  EXPECT_EQ(folded.front().kind, DiffRow::Kind::Folded);
  EXPECT_EQ(folded.front().foldedLines, 17);
  EXPECT_EQ(folded[4].kind, DiffRow::Kind::Changed);
  EXPECT_EQ(folded[4].leftLine, 21);
  EXPECT_EQ(folded.back().foldedLines, 17);
  EXPECT_EQ(changedRowCount(folded), changedRowCount(rows));
  // A run that would fold a single row stays whole.
  std::vector<std::string> shortRight = right;
  shortRight[12] = "changed too";
  const auto twoChanges = foldUnchanged(sideBySideDiff(left, shortRight), 3);
  for (std::size_t i = 1; i + 1 < twoChanges.size(); ++i)
    if (twoChanges[i].kind == DiffRow::Kind::Folded) {
      EXPECT_GT(twoChanges[i].foldedLines, 1);
    }
}

TEST(StageMaterial, EveryStageHasSourcesExplanationAndParameters) {
  for (const StageInfo& stage : StageRegistry::all()) {
    SCOPED_TRACE(stage.id);
    ASSERT_FALSE(stage.sourceFiles.empty());
    for (const std::string& file : stage.sourceFiles) {
      EXPECT_GT(materialLines(file).size(), 10u) << file;
    }
    const auto explanation = readStageExplanation(stage.id);
    ASSERT_TRUE(explanation) << stage.explanationFile() << " is not among the resources";
    const std::string text = explanation->toStdString();
    EXPECT_LE(splitLines(text).size(), 80u) << "keep the explanation to one screen or two";
    EXPECT_NE(text.find("`" + stage.id + "`"), std::string::npos) << "the explanation names its stage";
    if (!stage.previous.empty()) {
      EXPECT_NE(text.find(stage.previous), std::string::npos) << "and what it is compared with";
    }
    EXPECT_NO_THROW(resolveStage(stage.id).parameterNames());
    if (stage.opencl) {
      EXPECT_FALSE(resolveStage(stage.id).parameterNames().empty());
    }
  }
}

// The code an explanation quotes is in the files the learner sees next to it (this stage's or the
// previous one's), so the text cannot drift from the kernels unnoticed.
TEST(StageMaterial, QuotedCodeIsInTheStagesSources) {
  for (const StageInfo& stage : StageRegistry::all()) {
    std::vector<std::string> sourceLines;
    auto add = [&](const StageInfo& s) {
      for (const std::string& file : s.sourceFiles)
        for (const std::string& line : materialLines(file)) sourceLines.push_back(trimmed(line));
    };
    add(stage);
    if (!stage.previous.empty()) add(StageRegistry::get(stage.previous));
    const auto explanation = readStageExplanation(stage.id);
    ASSERT_TRUE(explanation);
    bool inCode = false;
    int quoted = 0;
    for (const std::string& line : splitLines(explanation->toStdString())) {
      if (trimmed(line).rfind("```", 0) == 0) {  // fences may be indented under a list item
        inCode = !inCode;
        continue;
      }
      const std::string code = trimmed(line);
      if (!inCode || code.empty()) continue;
      ++quoted;
      const bool found = std::any_of(sourceLines.begin(), sourceLines.end(),
                                     [&](const std::string& s) { return s.find(code) != std::string::npos; });
      EXPECT_TRUE(found) << stage.explanationFile() << " quotes a line that is in none of its sources: " << code;
    }
    EXPECT_FALSE(inCode) << stage.explanationFile() << ": unterminated code block";
    EXPECT_GT(quoted, 0) << stage.explanationFile() << " points at no line of code";
  }
}

TEST(StageExplanation, PlaceholdersAreFilledWithoutMeasurements) {
  for (const StageInfo& stage : StageRegistry::all()) {
    std::vector<std::string> unknown;
    const std::string text = fillExplanation(readStageExplanation(stage.id)->toStdString(), stage.id, {}, &unknown);
    EXPECT_TRUE(unknown.empty()) << stage.id << ": unknown placeholder " << (unknown.empty() ? "" : unknown.front());
    EXPECT_EQ(text.find("{{"), std::string::npos) << stage.id;
    EXPECT_NE(text.find(kNotMeasuredText), std::string::npos) << stage.id << " shows no live numbers";
  }
}

TEST(StageExplanation, PlaceholdersShowTheMeasurements) {
  StageMeasurements all;
  double mpts = 90.0;
  for (const StageInfo& stage : StageRegistry::all()) {
    all[stage.id] = {mpts, 25.0, stage.opencl ? "NVIDIA H100 80GB HBM3" : "host CPU"};
    mpts *= 3.0;
  }
  for (const StageInfo& stage : StageRegistry::all()) {
    std::vector<std::string> unknown;
    const std::string text = fillExplanation(readStageExplanation(stage.id)->toStdString(), stage.id, all, &unknown);
    EXPECT_TRUE(unknown.empty()) << stage.id;
    EXPECT_EQ(text.find("{{"), std::string::npos) << stage.id;
    EXPECT_EQ(text.find("not measured"), std::string::npos) << stage.id;
    EXPECT_NE(text.find("25.0 %"), std::string::npos) << stage.id;
    if (stage.previous.empty()) continue;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f×", all[stage.id].mpts / all[stage.previous].mpts);
    EXPECT_NE(text.find(ratio), std::string::npos) << stage.id << " should show " << ratio;
  }
}

TEST(StageExplanation, ValuesAndUnknownNames) {
  StageMeasurements m = {{"gpu-basic", {52700.0, 28.2, "NVIDIA H100"}}, {"gpu-linear", {53300.0, 0.0, "NVIDIA H100"}}};
  EXPECT_EQ(fillExplanation("{{mpts}} on {{device}}", "gpu-basic", m), "52.7 Gpts/s on NVIDIA H100");
  EXPECT_EQ(fillExplanation("{{percent_roofline}}", "gpu-basic", m), "28.2 %");
  EXPECT_EQ(fillExplanation("{{speedup_previous}}", "gpu-linear", m), "1.01× (gpu-basic: 52.7 Gpts/s)");
  EXPECT_NE(fillExplanation("{{percent_roofline}}", "gpu-linear", m).find("unknown"), std::string::npos);
  EXPECT_EQ(fillExplanation("{{mpts}}", "cpu-serial", {{"cpu-serial", {95.4, 4.0, "host CPU"}}}), "95 Mpts/s");
  const StageMeasurements serial = {{"cpu-serial", {95.4, 4.0, "host CPU"}}};
  EXPECT_NE(fillExplanation("{{speedup_previous}}", "cpu-serial", serial).find("first stage"), std::string::npos);
  // gpu-basic's previous stage (cpu-serial) is not measured; cpu-parallel is not measured at all.
  EXPECT_EQ(fillExplanation("{{speedup_previous}}", "gpu-basic", m), "not measured yet for cpu-serial");
  EXPECT_EQ(fillExplanation("{{device}}, {{percent_roofline}}, {{speedup_previous}}", "cpu-parallel", serial),
            "not measured yet, not measured yet, not measured yet");
  EXPECT_EQ(fillExplanation("{{mpts}}", "cpu-parallel", serial), kNotMeasuredText);
  std::vector<std::string> unknown;
  EXPECT_EQ(fillExplanation("a {{gflops}} b {{ unclosed", "gpu-basic", m, &unknown), "a [unknown placeholder gflops] b {{ unclosed");
  EXPECT_EQ(unknown, std::vector<std::string>{"gflops"});
  EXPECT_THROW(fillExplanation("x", "gpu-fastest", m), std::invalid_argument);
}

}  // namespace
}  // namespace iso
