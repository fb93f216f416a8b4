#include "compute/TuningDatabase.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <ctime>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "compute/ClError.h"
#include "compute/KernelSources.h"
#include "core/CacheDirectory.h"
#include "core/Grid.h"
#include "core/JsonInput.h"
#include "core/OutputFile.h"

namespace iso {

namespace {

using nlohmann::json;

// A measured rate beyond any machine (10^15 points per second) is damage, and is not quoted.
constexpr double kMaxMptsPerSecond = 1e9;

std::string userDatabasePath() {
  const std::string dir = cacheDirectory();
  return dir.empty() ? std::string() : dir + "/tuning.json";
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// j[key] when it is a string, else "" (the database is user-editable: never throw on its types).
std::string stringAt(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Why `db` is not a database this version reads ("" when it is one).
std::string whyNotADatabase(const json& db) {
  if (!db.is_object()) return "it is not a JSON object";
  const std::string schema = stringAt(db, "schema");
  if (schema != kTuningSchema)
    return schema.empty() ? "it has no \"schema\"" : "its schema is " + excerpt(schema) + ", not " + kTuningSchema;
  if (!db.contains("entries") || !db["entries"].is_array()) return "it has no \"entries\" array";
  return "";
}

// The entries of a database; one that is not a database of this schema has none.
json entriesOf(const json& db) { return whyNotADatabase(db).empty() ? db["entries"] : json::array(); }

// The user's database as read: its value, and why it cannot be used ("" when it can, or is absent).
struct UserDatabase {
  json db = json::object();
  std::string problem;
};

UserDatabase readUserDatabase() {
  CacheJson cache = readCacheJson(userDatabasePath());
  UserDatabase user{std::move(cache.value), std::move(cache.problem)};
  if (user.problem.empty() && !user.db.empty()) user.problem = whyNotADatabase(user.db);
  return user;
}

// A parameter value as the stages take it: an integer within int (a larger one is damage, and would
// wrap to a negative number).
std::optional<int> intOf(const json& v) {
  if (!v.is_number_integer()) return std::nullopt;
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    return u <= std::uint64_t(std::numeric_limits<int>::max()) ? std::optional<int>(int(u)) : std::nullopt;
  }
  const auto i = v.get<std::int64_t>();
  return i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max() ? std::optional<int>(int(i)) : std::nullopt;
}

// The specificity of `match` for this device and grid, or -1 when one of its keys does not hold.
int matchScore(const json& match, const DeviceInfo& device, const Grid& grid) {
  if (!match.is_object()) return -1;
  int score = 0;
  for (const auto& [key, value] : match.items()) {
    if (key == "nv_compute_min") {
      const std::optional<int> min = intOf(value);
      if (!min || device.nvComputeMajor < *min) return -1;
      score += 3;
      continue;
    }
    if (!value.is_string()) return -1;
    const std::string v = value.get<std::string>();
    bool holds = false;
    int weight = 0;
    if (key == "vendor") holds = lower(device.vendor).find(lower(v)) != std::string::npos, weight = 2;
    else if (key == "type") holds = device.type == v, weight = 1;
    else if (key == "architecture") holds = deviceArchitecture(device) == v, weight = 4;
    else if (key == "device") holds = device.name == v, weight = 16;
    else if (key == "driver") holds = device.driverVersion == v, weight = 8;
    else if (key == "size_class") holds = gridSizeClass(grid) == v, weight = 32;
    // An unknown key may be a condition of a later version: the entry does not apply.
    if (!holds) return -1;
    score += weight;
  }
  return score;
}

// The entry's parameters; none when one of them is not an integer within int (the entry is damaged).
StageParamMap paramsOf(const json& entry) {
  StageParamMap p;
  if (entry.contains("params") && entry["params"].is_object())
    for (const auto& [k, v] : entry["params"].items()) {
      const std::optional<int> value = intOf(v);
      if (!value) return {};
      p[k] = *value;
    }
  return p;
}

std::string describe(const json& entry, bool shipped) {
  const json match = entry.value("match", json::object());
  const auto text = [&](const char* key) { return stringAt(match, key); };
  std::string what;
  if (match.contains("device")) what = text("device");
  else if (match.contains("architecture")) what = (text("vendor").empty() ? "" : text("vendor") + " ") + text("architecture");
  else if (match.contains("nv_compute_min"))
    what = "NVIDIA compute capability " + std::to_string(intOf(match["nv_compute_min"]).value_or(0)) + ".0+";
  else if (match.contains("vendor")) what = text("vendor");
  else what = "every device";
  if (match.contains("size_class")) what += ", " + text("size_class") + " grids";
  std::string measured;
  // What it says of its measurement, where the values make sense (a rate of 1e308 or a grid of 2^40 do not).
  if (const json m = entry.value("measured", json::object());
      m.is_object() && m.contains("mpts_per_s") && m["mpts_per_s"].is_number() &&
      m["mpts_per_s"].get<double>() >= 0.0 && m["mpts_per_s"].get<double>() <= kMaxMptsPerSecond) {
    measured = " (" + std::to_string(std::lround(m["mpts_per_s"].get<double>())) + " Mpts/s";
    const auto axis = [](const json& n) { return intOf(n).value_or(0) >= 1 && intOf(n).value_or(0) <= kMaxAxisCells; };
    if (m.contains("grid") && m["grid"].is_array() && m["grid"].size() == 3 && std::all_of(m["grid"].begin(), m["grid"].end(), axis))
      measured += " at " + std::to_string(*intOf(m["grid"][0])) + "x" + std::to_string(*intOf(m["grid"][1])) + "x" +
                  std::to_string(*intOf(m["grid"][2]));
    const std::string on = stringAt(m, "device"), date = stringAt(m, "date");
    if (!on.empty() && on != text("device")) measured += " on " + on;
    if (!date.empty()) measured += ", " + date;
    measured += ")";
  }
  return std::string(shipped ? "shipped tuning for " : "your tuning for ") + what + measured;
}

std::string todayUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

json measurementEntry(const std::string& stage, const json& match, const DeviceInfo& device, const StageParamMap& params,
                      const Grid& tunedOn, double mptsPerSecond) {
  return {{"stage", stage},
          {"match", match},
          {"params", params},
          {"measured",
           {{"grid", {tunedOn.n1, tunedOn.n2, tunedOn.n3}},
            {"mpts_per_s", std::round(mptsPerSecond)},
            {"date", todayUtc()},
            {"device", device.name},
            {"driver", device.driverVersion}}}};
}

}  // namespace

std::string gridSizeClass(const Grid& grid) {
  const std::size_t points = grid.interiorSize();
  if (points < (std::size_t(1) << 22)) return "small";
  if (points < (std::size_t(1) << 25)) return "medium";
  return "large";
}

std::string deviceArchitecture(const DeviceInfo& device) {
  if (device.nvComputeMajor <= 0) return "";
  return "sm_" + std::to_string(device.nvComputeMajor) + std::to_string(device.nvComputeMinor);
}

std::optional<TunedParams> lookupTuning(const std::string& stage, const DeviceInfo& device, const Grid& grid) {
  std::optional<TunedParams> best;
  double bestScore = -1.0;
  const auto consider = [&](const json& entries, bool shipped) {
    for (const json& e : entries) {
      if (!e.is_object() || stringAt(e, "stage") != stage) continue;
      const int score = matchScore(e.value("match", json::object()), device, grid);
      if (score < 0) continue;
      StageParamMap p = paramsOf(e);
      if (p.empty()) continue;
      const double ranked = score + (shipped ? 0.0 : 0.5);  // on a tie the user's own tuning wins
      if (ranked > bestScore) {
        bestScore = ranked;
        best = TunedParams{std::move(p), describe(e, shipped), shipped};
      }
    }
  };
  for (const auto& [name, text] : embeddedTuningFiles()) consider(entriesOf(parseJsonInput(text)), /*shipped=*/true);
  const UserDatabase user = readUserDatabase();
  if (!user.problem.empty())
    cacheNote("your tuning database " + userDatabasePath() + " is not used: " + user.problem +
              " (`iso3dfd tune` keeps it aside and starts a new one)");
  consider(entriesOf(user.db), /*shipped=*/false);
  return best;
}

std::string storeTuning(const std::string& stage, const DeviceInfo& device, const StageParamMap& params,
                        const Grid& tunedOn, double mptsPerSecond) {
  const std::string path = userDatabasePath();
  if (path.empty())
    throw ComputeError(ComputeStatus::DeviceError, "no writable cache directory for the tuning database "
                                                   "(set ISO3DFD_CACHE_DIR)");
  const UserDatabase user = readUserDatabase();
  // A database this version cannot read (damaged, or another version's) is kept, never overwritten.
  std::string keptAs;
  if (!user.problem.empty()) {
    keptAs = setAsideDamagedCacheFile(path, user.problem);
    if (keptAs.empty())
      throw ComputeError(ComputeStatus::DeviceError, "the tuning database " + path + " cannot be read (" + user.problem +
                                                         ") nor kept aside under another name: it was left as it is, "
                                                         "and this tuning was not stored");
  }
  const json match = {{"device", device.name}, {"driver", device.driverVersion}, {"size_class", gridSizeClass(tunedOn)}};
  json entries = json::array();
  for (const json& e : entriesOf(user.db))
    if (!(e.is_object() && stringAt(e, "stage") == stage && e.value("match", json::object()) == match))
      entries.push_back(e);
  entries.push_back(measurementEntry(stage, match, device, params, tunedOn, mptsPerSecond));
  const json db = {{"schema", kTuningSchema}, {"entries", entries}};
  try {  // whole or not at all: a full disk keeps the previous database
    writeWholeFile(path, db.dump(2) + "\n");
  } catch (const FileWriteError& e) {
    throw ComputeError(ComputeStatus::DeviceError, std::string("the tuning database was not updated: ") + e.what());
  }
  return keptAs;
}

std::string shippedTuningEntry(const std::string& stage, const DeviceInfo& device, const StageParamMap& params,
                               const Grid& tunedOn, double mptsPerSecond) {
  const json match = {{"device", device.name}, {"size_class", gridSizeClass(tunedOn)}};
  return measurementEntry(stage, match, device, params, tunedOn, mptsPerSecond).dump();
}

}  // namespace iso
