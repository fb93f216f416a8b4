#include "app/controller/BenchmarkReport.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "core/Grid.h"
#include "core/InputFile.h"
#include "core/JsonInput.h"
#include "core/Scenario.h"
#include "core/StageRegistry.h"


namespace iso {

using nlohmann::json;

std::vector<std::string> BenchmarkReport::devices() const {
  std::vector<std::string> out;
  for (const auto& r : rows)
    if (!r.device.empty() && std::find(out.begin(), out.end(), r.device) == out.end()) out.push_back(r.device);
  return out;
}

bool BenchmarkReport::anyFailed() const {
  return std::any_of(rows.begin(), rows.end(), [](const BenchmarkRow& r) { return !r.error.empty(); });
}

std::string hostCpuModel() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto first = line.find_first_not_of(" \t", colon + 1);
    return first == std::string::npos ? "" : line.substr(first);
  }
  return "";
}

namespace {

std::string grid(const BenchmarkRow& r) {
  return std::to_string(r.n1) + "x" + std::to_string(r.n2) + "x" + std::to_string(r.n3);
}

std::string paramsText(const std::map<std::string, int>& params) {
  std::string out;
  for (const auto& [k, v] : params) out += (out.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return out;
}

std::string fixed(double x, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string general(double x) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

json optionalNumber(const std::optional<double>& x) { return x ? json(*x) : json(nullptr); }

json rowJson(const BenchmarkRow& r) {
  const Throughput& t = r.throughput;
  json params = json::object();
  for (const auto& [k, v] : r.params) params[k] = v;
  return {{"stage", r.stage},
          {"title", r.title},
          {"device", r.device},
          {"n1", r.n1},
          {"n2", r.n2},
          {"n3", r.n3},
          {"steps", r.steps},
          {"seconds", t.seconds},
          {"seconds_per_step", r.secondsPerStep},
          {"mpts", t.mpts},
          {"gflops", t.gflops},
          {"gbs_sample", t.gbsSample},
          {"gbs_traffic", t.gbsTraffic},
          {"bytes_per_point_step", r.bytesPerPointStep},
          {"ceiling", r.ceilingName},
          {"ceiling_gbs", t.ceilingGBs},
          {"roofline_percent", t.rooflinePercent},
          {"speedup_vs_serial", optionalNumber(r.speedupVsSerial)},
          {"previous", r.previous},
          {"speedup_vs_previous", optionalNumber(r.speedupVsPrevious)},
          {"max_abs_diff", r.difference ? json(r.difference->maxAbs) : json(nullptr)},
          {"rel_l2", r.difference ? json(r.difference->relativeL2) : json(nullptr)},
          {"non_finite", r.difference ? json(r.difference->nonFinite) : json(nullptr)},
          {"params", params},
          {"error", r.error}};
}

// The longest name a report's row may give a stage, device or ceiling: longer is damage (and would be
// drawn as a chart's label).
constexpr std::size_t kMaxNameChars = 200;
constexpr long long kMaxInt = std::numeric_limits<int>::max();

// Reads typed keys of one JSON object, within their ranges, and names the key (with its row) in every
// error: a value out of range is damage (2^31 read as an int is negative; 1e308 as a rate draws no chart).
class JsonFields {
 public:
  JsonFields(const json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail("", "must be a JSON object");
  }
  const json& at(const std::string& key) const {
    const auto it = object_.find(key);
    if (it == object_.end()) fail(key, "is missing");
    return *it;
  }
  std::string text(const std::string& key, std::size_t maxChars = kMaxJsonBytes) const {
    const json& v = at(key);
    if (!v.is_string()) fail(key, "must be a string");
    if (v.get_ref<const std::string&>().size() > maxChars) fail(key, "is longer than " + std::to_string(maxChars) + " characters");
    return v.get<std::string>();
  }
  // A finite number from 0 to `max` (by default a rate: kMaxPlausibleRate).
  double number(const std::string& key, double max = kMaxPlausibleRate) const {
    const json& v = at(key);
    if (!v.is_number()) fail(key, "must be a number");
    const double x = v.get<double>();
    if (!(x >= 0.0 && x <= max)) fail(key, "is " + excerpt(v) + ", outside 0 to " + shortNumber(max));
    return x;
  }
  int integer(const std::string& key, long long min = 0, long long max = kMaxInt) const {
    const json& v = at(key);
    if (!v.is_number_integer()) fail(key, "must be an integer");
    const bool inRange = v.is_number_unsigned() ? v.get<std::uint64_t>() <= std::uint64_t(max)
                                                : v.get<std::int64_t>() >= min && v.get<std::int64_t>() <= max;
    if (!inRange) fail(key, "is " + excerpt(v) + ", outside " + std::to_string(min) + " to " + std::to_string(max));
    return int(v.get<std::int64_t>());
  }
  std::optional<double> optionalNumber(const std::string& key, double max = kMaxPlausibleRate) const {
    if (at(key).is_null()) return std::nullopt;
    return number(key, max);
  }
  bool flag(const std::string& key) const {
    const json& v = at(key);
    if (!v.is_boolean()) fail(key, "must be true or false");
    return v.get<bool>();
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw std::runtime_error("benchmark JSON: " + where_ + (key.empty() ? "" : " key '" + key + "'") + " " + what);
  }

 private:
  const json& object_;
  std::string where_;
};

BenchmarkRow rowFromJson(const json& j, std::size_t index) {
  const JsonFields f(j, "rows[" + std::to_string(index) + "]");
  BenchmarkRow r;
  r.stage = f.text("stage", kMaxNameChars);
  r.title = f.text("title", kMaxNameChars);
  r.device = f.text("device", kMaxNameChars);
  r.n1 = f.integer("n1", 0, kMaxAxisCells);
  r.n2 = f.integer("n2", 0, kMaxAxisCells);
  r.n3 = f.integer("n3", 0, kMaxAxisCells);
  r.steps = f.integer("steps", 0, kMaxScenarioSteps);
  r.secondsPerStep = f.number("seconds_per_step");
  Throughput& t = r.throughput;
  t.seconds = f.number("seconds");
  t.mpts = f.number("mpts");
  t.gflops = f.number("gflops");
  t.gbsSample = f.number("gbs_sample");
  t.gbsTraffic = f.number("gbs_traffic");
  if (j.contains("bytes_per_point_step")) r.bytesPerPointStep = f.number("bytes_per_point_step");
  t.ceilingGBs = f.number("ceiling_gbs");
  t.rooflinePercent = f.number("roofline_percent");
  r.ceilingName = f.text("ceiling", kMaxNameChars);
  r.speedupVsSerial = f.optionalNumber("speedup_vs_serial");
  r.previous = f.text("previous", kMaxNameChars);
  r.speedupVsPrevious = f.optionalNumber("speedup_vs_previous");
  if (const auto maxAbs = f.optionalNumber("max_abs_diff", std::numeric_limits<double>::max())) {
    FieldDifference d;
    d.maxAbs = *maxAbs;
    d.relativeL2 = f.number("rel_l2", std::numeric_limits<double>::max());
    d.nonFinite = std::size_t(f.integer("non_finite"));
    r.difference = d;
  }
  const JsonFields params(f.at("params"), "rows[" + std::to_string(index) + "].params");
  for (const auto& item : f.at("params").items())
    r.params[item.key()] = params.integer(item.key(), std::numeric_limits<int>::min(), kMaxInt);
  r.error = f.text("error");
  return r;
}

}  // namespace

std::string benchmarkTable(const BenchmarkReport& report) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-14s %-28s %-11s %10s %9s %9s %9s %6s %8s %8s %9s %8s  %s\n", "stage", "device",
                "grid", "Mpts/s", "GFLOP/s", "GB/s(12)", "GB/s(16)", "%roof", "xserial", "xprev", "max|diff|",
                "relL2", "params");
  out += line;
  std::vector<std::string> ceilings;
  for (const auto& r : report.rows) {
    if (!r.error.empty()) {
      out += r.stage + std::string(r.stage.size() < 14 ? 14 - r.stage.size() : 0, ' ') + " " + grid(r) +
             "  error: " + r.error + "\n";
      continue;
    }
    const Throughput& t = r.throughput;
    const std::string roof = t.ceilingGBs > 0.0 ? fixed(t.rooflinePercent, 1) : "n/a";
    const std::string serial = r.speedupVsSerial ? fixed(*r.speedupVsSerial, 2) + "x" : "n/a";
    const std::string previous = r.speedupVsPrevious ? fixed(*r.speedupVsPrevious, 2) + "x" : "n/a";
    std::string maxDiff = "n/a", relL2 = "n/a";
    if (r.stage == "cpu-serial") {
      maxDiff = relL2 = "ref";
    } else if (r.difference) {
      maxDiff = r.difference->nonFinite ? "NaN/Inf" : general(r.difference->maxAbs);
      relL2 = r.difference->nonFinite ? "NaN/Inf" : general(r.difference->relativeL2);
    }
    std::snprintf(line, sizeof line, "%-14s %-28.28s %-11s %10.1f %9.2f %9.2f %9.2f %6s %8s %8s %9s %8s  %s\n",
                  r.stage.c_str(), r.device.c_str(), grid(r).c_str(), t.mpts, t.gflops, t.gbsSample, t.gbsTraffic,
                  roof.c_str(), serial.c_str(), previous.c_str(), maxDiff.c_str(), relL2.c_str(),
                  paramsText(r.params).c_str());
    out += line;
    if (t.ceilingGBs > 0.0) {
      const StageInfo* info = StageRegistry::find(r.stage);
      const std::string ceiling = r.ceilingName + (info && info->opencl ? " of " + r.device : "") + ": " +
                                  fixed(t.ceilingGBs, 1) + " GB/s";
      if (std::find(ceilings.begin(), ceilings.end(), ceiling) == ceilings.end()) ceilings.push_back(ceiling);
    }
  }
  out += "\nxserial: speed-up over cpu-serial; xprev: over the stage before it in the teaching order "
         "(the same grid). max|diff|, relL2: u^N against cpu-serial.\n";
  if (!ceilings.empty()) out += "%roof: GB/s(16) over the measured ceiling of the stage's device:\n";
  for (const auto& c : ceilings) out += "  " + c + "\n";
  if (report.cancelled) out += "(cancelled: the stages after the last row did not run)\n";
  return out;
}

std::string benchmarkJson(const BenchmarkReport& report) {
  json rows = json::array();
  for (const auto& r : report.rows) rows.push_back(rowJson(r));
  const json j = {{"schema", kBenchmarkSchema},   {"date", report.date},
                  {"host_cpu", report.hostCpu},   {"devices", report.devices()},
                  {"warmup_steps", report.warmupSteps}, {"repeats", report.repeats},
                  {"cancelled", report.cancelled}, {"rows", rows}};
  return j.dump(2) + "\n";
}

std::string benchmarkCsv(const BenchmarkReport& report) {
  static const char* const kColumns[] = {
      "stage", "title", "device", "n1", "n2", "n3", "steps", "seconds", "seconds_per_step", "mpts", "gflops",
      "gbs_sample", "gbs_traffic", "bytes_per_point_step", "ceiling", "ceiling_gbs", "roofline_percent",
      "speedup_vs_serial", "previous", "speedup_vs_previous", "max_abs_diff", "rel_l2", "non_finite", "params", "error"};
  std::ostringstream out;
  out.precision(9);
  for (std::size_t c = 0; c < std::size(kColumns); ++c) out << (c ? "," : "") << kColumns[c];
  out << "\n";
  for (const auto& r : report.rows) {
    json j = rowJson(r);
    j["params"] = paramsText(r.params);
    for (std::size_t c = 0; c < std::size(kColumns); ++c) {
      const json& v = j[kColumns[c]];
      out << (c ? "," : "");
      if (v.is_string()) {
        // RFC 4180: quoted, with inner quotes doubled; line breaks become spaces so a row stays one line.
        std::string s = v.get<std::string>();
        std::string quoted = "\"";
        for (char ch : s) {
          if (ch == '"') quoted += "\"\"";
          else quoted += (ch == '\n' || ch == '\r') ? ' ' : ch;
        }
        out << quoted << '"';
      } else if (v.is_number_float()) {
        out << v.get<double>();
      } else if (!v.is_null()) {
        out << v.dump();
      }
    }
    out << "\n";
  }
  return out.str();
}

BenchmarkReport parseBenchmarkJson(const std::string& text) {
  json j;
  try {
    j = parseJsonInput(text);
  } catch (const JsonInputError& e) {
    throw std::runtime_error(std::string("benchmark JSON: ") + e.what());
  }
  const JsonFields f(j, "top level");
  const std::string schema = f.text("schema", kMaxNameChars);
  if (schema != kBenchmarkSchema)
    throw std::runtime_error("benchmark JSON: schema '" + excerpt(schema) + "' is not " + kBenchmarkSchema);
  BenchmarkReport report;
  report.date = f.text("date", kMaxNameChars);
  report.hostCpu = f.text("host_cpu", kMaxNameChars);
  report.warmupSteps = f.integer("warmup_steps", 0, kMaxScenarioSteps);
  report.repeats = f.integer("repeats");
  report.cancelled = f.flag("cancelled");
  const json& rows = f.at("rows");
  if (!rows.is_array()) f.fail("rows", "must be an array");
  for (std::size_t n = 0; n < rows.size(); ++n) report.rows.push_back(rowFromJson(rows[n], n));
  return report;
}

BenchmarkReport readBenchmarkJson(const std::string& path) {
  std::string text;
  try {
    text = readInputFile(path, kMaxJsonBytes, "benchmark report");
  } catch (const FileReadError& e) {
    throw std::runtime_error(e.what());
  }
  try {
    return parseBenchmarkJson(text);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("'" + path + "': " + e.what());
  }
}

}  // namespace iso
