#include "app/studio/StageExplanation.h"

#include <algorithm>
#include <cstdio>

#include "core/StageRegistry.h"

namespace iso {
namespace {

const StageMeasurement* measured(const StageMeasurements& all, const std::string& id) {
  const auto it = all.find(id);
  return it != all.end() && it->second.mpts > 0.0 ? &it->second : nullptr;
}

std::string formatted(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string rateText(double mpts) {
  return mpts >= 1e4 ? formatted("%.1f Gpts/s", mpts / 1e3) : formatted("%.0f Mpts/s", mpts);
}

std::string placeholderValue(const std::string& name, const StageInfo& stage, const StageMeasurements& all) {
  const StageMeasurement* own = measured(all, stage.id);
  // Only the throughput carries the hint to run the benchmark: the other values follow from it.
  if (name == "mpts") return own ? rateText(own->mpts) : kNotMeasuredText;
  if (!own) return kNotMeasuredShortText;
  if (name == "device") return own->device.empty() ? "unnamed device" : own->device;
  if (name == "percent_roofline")
    return own->rooflinePercent > 0.0 ? formatted("%.1f %%", own->rooflinePercent)
                                      : "unknown (no copy bandwidth measured for this device)";
  if (stage.previous.empty()) return "— (" + stage.id + " is the first stage)";
  const StageMeasurement* previous = measured(all, stage.previous);
  if (!previous) return std::string(kNotMeasuredShortText) + " for " + stage.previous;
  return formatted("%.2f×", own->mpts / previous->mpts) + " (" + stage.previous + ": " + rateText(previous->mpts) +
         (previous->device == own->device ? "" : " on " + previous->device) + ")";
}

}  // namespace

std::string fillExplanation(const std::string& markdown, const std::string& stageId,
                            const StageMeasurements& measurements, std::vector<std::string>* unknownNames) {
  const StageInfo& stage = StageRegistry::get(stageId);
  static const std::vector<std::string> known = {"device", "mpts", "percent_roofline", "speedup_previous"};
  std::string out;
  out.reserve(markdown.size());
  std::size_t pos = 0;
  while (true) {
    const std::size_t open = markdown.find("{{", pos);
    const std::size_t close = open == std::string::npos ? open : markdown.find("}}", open + 2);
    if (close == std::string::npos) {
      out.append(markdown, pos, std::string::npos);
      return out;
    }
    out.append(markdown, pos, open - pos);
    const std::string name = markdown.substr(open + 2, close - open - 2);
    if (std::find(known.begin(), known.end(), name) != known.end()) {
      out += placeholderValue(name, stage, measurements);
    } else {
      out += "[unknown placeholder " + name + "]";
      if (unknownNames) unknownNames->push_back(name);
    }
    pos = close + 2;
  }
}

}  // namespace iso
