// The lesson's material without windows: the texts of every stage, the steps and their order, the
// hunks of every step's diff each paired with a sentence, the kernel sections, the learner's record and
// the staircase it makes.
#include <gtest/gtest.h>

#include <QString>
#include <algorithm>
#include <stdexcept>

#include "app/studio/LessonPlan.h"
#include "app/studio/LessonText.h"
#include "app/studio/SourceDiff.h"
#include "app/studio/StageMaterial.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

LessonText lessonOf(const std::string& stage) {
  const auto markdown = readLessonMarkdown(stage);
  EXPECT_TRUE(markdown) << "resources/lessons/" << stage << ".md is not compiled in";
  return parseLessonText(markdown ? markdown->toStdString() : std::string());
}

std::vector<std::string> materialLines(const std::string& path) {
  const auto text = readStageMaterial(path);
  EXPECT_TRUE(text) << path;
  return text ? splitLines(text->toStdString()) : std::vector<std::string>{};
}

TEST(LessonText, ReadsTheSectionsTableAndNotes) {
  const LessonText text = parseLessonText(
      "# Title\n\nIntro line.\n\n## Predict\n\nThink.\n\n| per point | a | b |\n|---|---|---|\n| loads | 51 | 35 |\n\n"
      "## Run\n\nWatch.\n\n## Read\n\n- `q[`, `z_chunk`: The queue.\n  More of it.\n- A fallback sentence.\n"
      "- `code` in a sentence without a colon.\n\n## Takeaway\n\nRemember.\n\n## Extra\n\nKept.\n");
  EXPECT_EQ(text.title, "Title");
  EXPECT_EQ(text.introduction, "Intro line.");
  EXPECT_EQ(text.predict, "Think.");
  EXPECT_EQ(text.perPoint.header, (std::vector<std::string>{"per point", "a", "b"}));
  ASSERT_EQ(text.perPoint.rows.size(), 1u);
  EXPECT_EQ(text.perPoint.rows[0], (std::vector<std::string>{"loads", "51", "35"}));
  EXPECT_EQ(text.run, "Watch.");
  ASSERT_EQ(text.notes.size(), 3u);
  EXPECT_EQ(text.notes[0].keys, (std::vector<std::string>{"q[", "z_chunk"}));
  EXPECT_EQ(text.notes[0].sentence, "The queue. More of it.");
  EXPECT_TRUE(text.notes[1].keys.empty());
  EXPECT_TRUE(text.notes[2].keys.empty()) << "code without a colon after it is part of the sentence";
  EXPECT_EQ(text.notes[2].sentence, "`code` in a sentence without a colon.");
  EXPECT_EQ(text.takeaway, "Remember.");
  ASSERT_EQ(text.otherSections.size(), 1u);
  EXPECT_EQ(text.otherSections[0].first, "Extra");

  // The note with the most keys in the code wins; without any, the first note without keys.
  EXPECT_EQ(noteForCode("q[2 * R] = prev[c]; z_chunk", text.notes), 0u);
  EXPECT_EQ(noteForCode("nothing known", text.notes), 1u);
  EXPECT_FALSE(noteForCode("x", {}));
}

TEST(LessonText, ExplanationSummaryIsTheFirstParagraph) {
  EXPECT_EQ(explanationSummary("# T\n\nFirst line\nsecond line.\n\nNext paragraph.\n"), "First line second line.");
  const auto explanation = readStageExplanation("gpu-slm");
  ASSERT_TRUE(explanation);
  EXPECT_NE(explanationSummary(explanation->toStdString()).find("local"), std::string::npos);
}

TEST(LessonText, EveryStageHasALessonText) {
  for (const StageInfo& stage : StageRegistry::all()) {
    SCOPED_TRACE(stage.id);
    const LessonText text = lessonOf(stage.id);
    EXPECT_FALSE(text.title.empty());
    EXPECT_FALSE(text.takeaway.empty());
    if (stage.previous.empty()) {
      EXPECT_FALSE(text.introduction.empty()) << "the first stage introduces the lesson";
      continue;
    }
    EXPECT_FALSE(text.predict.empty());
    EXPECT_FALSE(text.run.empty());
    ASSERT_FALSE(text.perPoint.rows.empty()) << "Predict needs its table of facts per point";
    for (const auto& row : text.perPoint.rows) {
      EXPECT_EQ(row.size(), 3u) << row.front();
    }
    EXPECT_FALSE(text.notes.empty());
  }
}

// The Read page's promise: every changed hunk of every step carries a sentence.
TEST(LessonText, EveryChangedHunkOfEveryStepHasASentence) {
  for (const StageInfo& stage : StageRegistry::all()) {
    if (stage.previous.empty()) continue;
    const LessonText text = lessonOf(stage.id);
    const auto left = materialLines(StageRegistry::get(stage.previous).sourceFiles.front());
    const auto right = materialLines(stage.sourceFiles.front());
    for (const DiffHunk& hunk : diffHunks(left, right, 3)) {
      if (!hunk.changed()) continue;
      EXPECT_TRUE(noteForCode(hunk.changedText(), text.notes))
          << stage.id << ": the " << sectionName(hunk.section) << " hunk at lines " << hunk.rightFirst << " has no sentence:\n"
          << hunk.changedText();
    }
  }
}

TEST(LessonText, HunksMeetTheSentenceTheyImplement) {
  const LessonText slm = lessonOf("gpu-slm");
  const auto left = materialLines("resources/kernels/private_z.cl"), right = materialLines("resources/kernels/slm.cl");
  bool barrierSeen = false;
  for (const DiffHunk& hunk : diffHunks(left, right, 3)) {
    if (!hunk.changed() || hunk.changedText().find("barrier(") == std::string::npos) continue;
    const auto note = noteForCode(hunk.changedText(), slm.notes);
    ASSERT_TRUE(note);
    EXPECT_NE(slm.notes[*note].sentence.find("barrier"), std::string::npos) << slm.notes[*note].sentence;
    barrierSeen = true;
  }
  EXPECT_TRUE(barrierSeen);
}

TEST(KernelSections, LinesAreClassifiedByWhatTheyDo) {
  const auto slm = materialLines("resources/kernels/slm.cl");
  const auto sections = classifyLines(slm);
  ASSERT_EQ(sections.size(), slm.size());
  const auto sectionOf = [&](const std::string& needle) {
    for (std::size_t i = 0; i < slm.size(); ++i)
      if (slm[i].find(needle) != std::string::npos) return sections[i];
    ADD_FAILURE() << needle << " not found";
    return CodeSection::SetUp;
  };
  EXPECT_EQ(sectionOf("#define LW"), CodeSection::SetUp);
  EXPECT_EQ(sectionOf("barrier(CLK_LOCAL_MEM_FENCE);  // everyone"), CodeSection::Loads);
  EXPECT_EQ(sectionOf("lap += coef[r]"), CodeSection::Stencil);
  EXPECT_EQ(sectionOf("next[c] = wave_update"), CodeSection::Store);
  EXPECT_STREQ(sectionName(CodeSection::Loads), "loads");
}

TEST(KernelSections, ARewriteIsAlignedBySectionAndKeepsEveryLine) {
  for (const StageInfo& stage : StageRegistry::all()) {
    if (stage.previous.empty()) continue;
    SCOPED_TRACE(stage.id);
    const auto left = materialLines(StageRegistry::get(stage.previous).sourceFiles.front());
    const auto right = materialLines(stage.sourceFiles.front());
    std::vector<std::string> l, r;
    for (const DiffHunk& hunk : sectionHunks(left, right))
      for (const DiffRow& row : hunk.rows) {
        EXPECT_TRUE(row.leftLine > 0 || row.rightLine > 0) << "a row with neither side";
        if (row.leftLine > 0) {
          EXPECT_EQ(row.leftLine, int(l.size()) + 1);
          l.push_back(row.leftText);
        }
        if (row.rightLine > 0) {
          EXPECT_EQ(row.rightLine, int(r.size()) + 1);
          r.push_back(row.rightText);
        }
        if (row.kind == DiffRow::Kind::Same) {
          EXPECT_EQ(row.leftText, row.rightText);
        }
      }
    EXPECT_EQ(l, left);
    EXPECT_EQ(r, right);
  }
  // gpu-slm against gpu-optimized, the rewrite that read as "378 of 391 lines differ" with large blank
  // blocks: the stores face each other, and between two rows with a line on both sides, the rows with
  // one line are all on one side (removed and added lines share rows instead of padding each other).
  const auto slm = materialLines("resources/kernels/slm.cl"), optimized = materialLines("resources/kernels/optimized_gpu.cl");
  EXPECT_TRUE(isRewrite(sideBySideDiff(slm, optimized)));
  const auto hunks = sectionHunks(slm, optimized);
  EXPECT_TRUE(std::any_of(hunks.begin(), hunks.end(), [](const DiffHunk& h) {
    return h.section == CodeSection::Store && h.leftFirst > 0 && h.rightFirst > 0;
  }));
  for (const DiffHunk& h : hunks) {
    bool leftOnly = false, rightOnly = false;
    for (const DiffRow& row : h.rows) {
      if (row.leftLine > 0 && row.rightLine > 0) leftOnly = rightOnly = false;
      else (row.leftLine > 0 ? leftOnly : rightOnly) = true;
      EXPECT_FALSE(leftOnly && rightOnly) << "blank filler on both sides of the " << sectionName(h.section) << " hunk at right line "
                                          << h.rightFirst;
    }
  }
}

TEST(LessonPlan, StepsFollowTheTeachingOrder) {
  const auto all = lessonSteps({}, true);
  ASSERT_EQ(all.size(), StageRegistry::all().size() - 1);
  EXPECT_EQ(all.front().previous, StageRegistry::all().front().id);
  for (const LessonStep& step : all) EXPECT_EQ(StageRegistry::get(step.stage).previous, step.previous);
  const auto stages = lessonStages(all);
  EXPECT_EQ(stages.size(), StageRegistry::all().size()) << "every stage once";

  const auto fromSlm = lessonSteps("gpu-slm", true);
  ASSERT_FALSE(fromSlm.empty());
  EXPECT_EQ(fromSlm.front().stage, "gpu-slm");
  EXPECT_EQ(lessonStages(fromSlm).front(), "gpu-private-z");
  EXPECT_EQ(lessonSteps(StageRegistry::all().front().id, true).size(), all.size()) << "from the first stage: everything";

  const auto cpuOnly = lessonSteps({}, false);
  for (const LessonStep& step : cpuOnly) EXPECT_FALSE(StageRegistry::get(step.stage).opencl) << step.stage;
  try {
    lessonSteps("gpu-fastest", true);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("gpu-slm"), std::string::npos) << e.what();
  }
  EXPECT_THROW(lessonSteps("gpu-slm", false), std::invalid_argument) << "no OpenCL device: no GPU step to start from";
}

TEST(LessonPlan, TheStaircaseHoldsPredictionsBesideMeasurements) {
  const auto steps = lessonSteps("gpu-slm", true);
  LessonRecord record;
  record.setMeasurement("gpu-private-z", {100.0, 10.0, 50.0, "dev", false});
  record.setMeasurement("gpu-slm", {150.0, 15.0, 50.0, "dev", false});
  record.setMeasurement("gpu-optimized", {0.0, 0.0, 0.0, "dev", false});  // not a measurement: ignored
  record.setPrediction("gpu-slm", 2.0);
  record.setPrediction("gpu-optimized", 3.0);
  record.setPrediction("gpu-optimized", 0.0);  // cleared
  EXPECT_FALSE(record.prediction("gpu-optimized"));
  const auto entries = lessonStaircase(steps, record);
  ASSERT_EQ(entries.size(), steps.size() + 1) << "gpu-slm's step from gpu-private-z, then every step after it";
  EXPECT_EQ(entries[0].stage, "gpu-private-z");
  EXPECT_TRUE(entries[0].previous.empty()) << "where the lesson starts";
  EXPECT_EQ(entries[1].stage, "gpu-slm");
  ASSERT_TRUE(entries[1].measuredSpeedup);
  EXPECT_DOUBLE_EQ(*entries[1].measuredSpeedup, 1.5);
  ASSERT_TRUE(entries[1].predictedMpts);
  EXPECT_DOUBLE_EQ(*entries[1].predictedMpts, 200.0) << "the previous stage's Mpts/s times the predicted speed-up";
  EXPECT_FALSE(entries[2].measured);
  EXPECT_FALSE(entries[2].measuredSpeedup);
  for (const StaircaseEntry& e : entries) EXPECT_EQ(e.bytesPerPoint, lessonBytesPerPoint(e.stage));
}

}  // namespace
}  // namespace iso
