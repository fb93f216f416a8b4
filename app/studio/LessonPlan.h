#pragma once
// The lesson's path through the stages and what the learner gave and measured on it. No Qt.
//
// A step is a registry stage with a previous one: it is run against that stage, and its speed-up is
// over it. The steps follow the registry's teaching order (cpu-parallel, gpu-basic, ... gpu-temporal);
// a machine without an OpenCL device has only the CPU's. The lesson covers the first step's previous
// stage (where it starts) and every step's stage.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace iso {

struct LessonStep {
  std::string stage, previous;
};

// The steps from the one of `from` on (a registry id; "" or the first stage: from the start). Throws
// std::invalid_argument naming the stages a lesson can start from when `from` is none of them.
std::vector<LessonStep> lessonSteps(const std::string& from, bool includeOpenCL);

// The stages a lesson of `steps` covers, in its order: the first step's previous stage, then each
// step's stage (a stage compared again later, e.g. gpu-private-z before gpu-slm, appears once).
std::vector<std::string> lessonStages(const std::vector<LessonStep>& steps);

// Bytes of memory traffic per point and time step at best, from the stage's descriptor.
double lessonBytesPerPoint(const std::string& stage);

struct LessonMeasurement {
  double mpts = 0.0;             // 0: not measured
  double rooflinePercent = 0.0;  // of ceilingGBs; 0 when unknown
  double ceilingGBs = 0.0;       // the memory roof the stage ran under
  std::string device;
  bool onHostCores = false;      // ran on the host's cores (a CPU stage, or OpenCL on a CPU device)
};

class LessonRecord {
 public:
  // The learner's speed-up for `stage` over its previous one; <= 0 (or not finite) clears it.
  void setPrediction(const std::string& stage, double speedup);
  std::optional<double> prediction(const std::string& stage) const;
  // The latest measurement replaces an earlier one (a stage is measured in each step it appears in).
  void setMeasurement(const std::string& stage, const LessonMeasurement& measurement);
  const LessonMeasurement* measurement(const std::string& stage) const;  // nullptr: not measured
  std::optional<double> measuredSpeedup(const LessonStep& step) const;   // stage over previous

 private:
  std::map<std::string, double> predictions_;
  std::map<std::string, LessonMeasurement> measurements_;
};

// One stage of the summary's staircase.
struct StaircaseEntry {
  std::string stage, previous;  // previous "" for the stage the lesson starts from
  double bytesPerPoint = 0.0;
  std::optional<LessonMeasurement> measured;
  std::optional<double> predictedSpeedup, measuredSpeedup;
  // The learner's prediction in Mpts/s: the previous stage's measurement times the predicted speed-up.
  std::optional<double> predictedMpts;
};
std::vector<StaircaseEntry> lessonStaircase(const std::vector<LessonStep>& steps, const LessonRecord& record);

}  // namespace iso
