#include "app/studio/LessonPlan.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/Format.h"
#include "core/StageRegistry.h"

namespace iso {

std::vector<LessonStep> lessonSteps(const std::string& from, bool includeOpenCL) {
  std::vector<LessonStep> steps;
  for (const StageInfo& stage : StageRegistry::all())
    if (!stage.previous.empty() && (includeOpenCL || !stage.opencl)) steps.push_back({stage.id, stage.previous});
  if (from.empty() || (!steps.empty() && from == steps.front().previous)) return steps;
  const auto start = std::find_if(steps.begin(), steps.end(), [&](const LessonStep& s) { return s.stage == from; });
  if (start == steps.end()) {
    std::vector<std::string> ids;
    if (!steps.empty()) ids.push_back(steps.front().previous);
    for (const LessonStep& s : steps) ids.push_back(s.stage);
    throw std::invalid_argument("the lesson cannot start from '" + from + "' here (stages: " + commaList(ids) + ")");
  }
  return {start, steps.end()};
}

std::vector<std::string> lessonStages(const std::vector<LessonStep>& steps) {
  std::vector<std::string> stages;
  const auto add = [&](const std::string& id) {
    if (std::find(stages.begin(), stages.end(), id) == stages.end()) stages.push_back(id);
  };
  if (!steps.empty()) add(steps.front().previous);
  for (const LessonStep& s : steps) add(s.stage);
  return stages;
}

double lessonBytesPerPoint(const std::string& stage) { return StageRegistry::get(stage).bytesPerPointStep; }

void LessonRecord::setPrediction(const std::string& stage, double speedup) {
  if (std::isfinite(speedup) && speedup > 0.0) predictions_[stage] = speedup;
  else predictions_.erase(stage);
}

std::optional<double> LessonRecord::prediction(const std::string& stage) const {
  const auto it = predictions_.find(stage);
  return it == predictions_.end() ? std::nullopt : std::optional<double>(it->second);
}

void LessonRecord::setMeasurement(const std::string& stage, const LessonMeasurement& measurement) {
  if (measurement.mpts > 0.0) measurements_[stage] = measurement;
}

const LessonMeasurement* LessonRecord::measurement(const std::string& stage) const {
  const auto it = measurements_.find(stage);
  return it == measurements_.end() ? nullptr : &it->second;
}

std::optional<double> LessonRecord::measuredSpeedup(const LessonStep& step) const {
  const LessonMeasurement *after = measurement(step.stage), *before = measurement(step.previous);
  if (!after || !before) return std::nullopt;
  return after->mpts / before->mpts;
}

std::vector<StaircaseEntry> lessonStaircase(const std::vector<LessonStep>& steps, const LessonRecord& record) {
  std::vector<StaircaseEntry> entries;
  for (const std::string& stage : lessonStages(steps)) {
    StaircaseEntry e;
    e.stage = stage;
    e.bytesPerPoint = lessonBytesPerPoint(stage);
    if (const LessonMeasurement* m = record.measurement(stage)) e.measured = *m;
    const auto step = std::find_if(steps.begin(), steps.end(), [&](const LessonStep& s) { return s.stage == stage; });
    if (step != steps.end()) {
      e.previous = step->previous;
      e.predictedSpeedup = record.prediction(stage);
      e.measuredSpeedup = record.measuredSpeedup(*step);
      const LessonMeasurement* before = record.measurement(step->previous);
      if (e.predictedSpeedup && before) e.predictedMpts = before->mpts * *e.predictedSpeedup;
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace iso
