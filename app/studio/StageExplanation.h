#pragma once
// The learner's explanation of a stage (Markdown from resources/stages/) with its live numbers filled
// in. No Qt: the placeholders are plain text substitutions, so a benchmark front end without a GUI
// could render the same text.
//
// Placeholders, written {{name}}:
//   device            the device the stage was measured on
//   mpts              the stage's throughput (Mpts/s, or Gpts/s from 10 000 Mpts/s on)
//   percent_roofline  its share of the device's measured copy-bandwidth roofline (16 B per point)
//   speedup_previous  its throughput over that of the stage it is compared with
// Until the stage has a result, mpts reads "not measured yet on this device — run the benchmark" and
// the others "not measured yet"; the first stage's speed-up says there is nothing to compare with.
#include <map>
#include <string>
#include <vector>

namespace iso {

struct StageMeasurement {
  double mpts = 0.0;             // interior points × steps / s / 1e6; 0 = not measured
  double rooflinePercent = 0.0;  // 0 = no measured ceiling for the device
  std::string device;            // as the solver names it
};

// Keyed by stage id.
using StageMeasurements = std::map<std::string, StageMeasurement>;

inline constexpr const char* kNotMeasuredText = "not measured yet on this device — run the benchmark";
inline constexpr const char* kNotMeasuredShortText = "not measured yet";

// `markdown` with every {{name}} replaced for stage `stageId` (a registry id). A name that is not a
// placeholder is replaced by "[unknown placeholder NAME]" and appended to `unknownNames` when given.
std::string fillExplanation(const std::string& markdown, const std::string& stageId,
                            const StageMeasurements& measurements, std::vector<std::string>* unknownNames = nullptr);

}  // namespace iso
