#include "core/HostBandwidth.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "core/OutputFile.h"
#include "core/CacheDirectory.h"
#include "core/Format.h"
#include "core/JsonInput.h"
#include "core/Metrics.h"
#include "core/SystemMemory.h"
#include "core/ThreadPool.h"

namespace iso {

namespace {

using nlohmann::json;

constexpr std::size_t kMiB = std::size_t(1) << 20;
constexpr int kPasses = 7;

// The CPU model, hardware threads and physical memory: a cache directory shared between machines
// (a network home) must not hand one machine's bandwidth to another.
std::string machineDescription() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      model = line.substr(line.find_first_not_of(" \t", line.find(':') + 1));
      break;
    }
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  const long long mib = pages > 0 && pageSize > 0 ? (long long)pages * pageSize / (long long)kMiB : 0;
  return model + ", " + std::to_string(ThreadPool::hardwareThreads()) + " threads, " + std::to_string(mib) + " MiB";
}


json toJson(const HostBandwidth& b) {
  return {{"machine", b.machine}, {"date", b.date},     {"min_gbs", b.minGBs},
          {"median_gbs", b.medianGBs}, {"max_gbs", b.maxGBs}, {"passes", b.passes},
          {"buffer_bytes", b.bufferBytes}, {"threads", b.threads}};
}

// The stored measurement, or nothing when the file is missing, damaged (then set aside, CacheDirectory.h)
// or from another machine.
std::optional<HostBandwidth> load(const std::string& path, const std::string& machine) {
  const CacheJson cache = readCacheJson(path);
  if (!cache.problem.empty()) setAsideDamagedCacheFile(path, cache.problem);
  const json& j = cache.value;
  try {
    HostBandwidth b;
    b.machine = j.at("machine").get<std::string>();
    b.date = excerpt(j.at("date").get<std::string>());
    b.minGBs = j.at("min_gbs").get<double>();
    b.medianGBs = j.at("median_gbs").get<double>();
    b.maxGBs = j.at("max_gbs").get<double>();
    const auto passes = j.at("passes").get<std::int64_t>(), threads = j.at("threads").get<std::int64_t>();
    b.bufferBytes = j.at("buffer_bytes").get<std::size_t>();
    if (b.machine != machine || !(b.minGBs > 0.0 && b.minGBs <= b.medianGBs && b.medianGBs <= b.maxGBs) ||
        b.maxGBs > kMaxPlausibleRate || passes < 1 || passes > 1000 || threads < 1 || threads > 1 << 20)
      return std::nullopt;
    b.passes = int(passes);
    b.threads = int(threads);
    return b;
  } catch (const json::exception&) {  // an empty object (no file), a missing key or a wrong type
    return std::nullopt;
  }
}

std::string cacheFilePath() {
  const std::string dir = cacheDirectory();
  return dir.empty() ? std::string() : (std::filesystem::path(dir) / "host-bandwidth.json").string();
}

std::mutex valueMutex;  // held while measuring: a second caller waits for the one measurement
std::optional<HostBandwidth> value;  // this process's: read once, or measured

}  // namespace

std::size_t hostBandwidthBufferBytes() {
  const std::size_t available = availableMemoryBytes();
  const std::size_t eighth = available == 0 ? 64 * kMiB : available / 8;
  return std::clamp(eighth, 4 * kMiB, 256 * kMiB) / kMiB * kMiB;
}

HostBandwidth measureHostBandwidth(int passes, std::size_t bufferBytes) {
  HostBandwidth result;
  result.bufferBytes = std::max(bufferBytes, sizeof(float));
  result.threads = ThreadPool::hardwareThreads();
  result.passes = std::max(passes, 1);
  result.machine = machineDescription();
  result.date = utcNow();
  const std::size_t count = result.bufferBytes / sizeof(float);
  std::unique_ptr<float[]> src(new float[count]), dst(new float[count]);
  ThreadPool pool(result.threads);
  const auto part = [&](int t, auto&& body) {
    const std::size_t begin = count * std::size_t(t) / std::size_t(pool.size());
    const std::size_t end = count * std::size_t(t + 1) / std::size_t(pool.size());
    body(begin, end);
  };
  // Each thread touches its own part first, so pages land near the thread that copies them.
  pool.run([&](int t) {
    part(t, [&](std::size_t b, std::size_t e) {
      std::fill(src.get() + b, src.get() + e, 1.0f);
      std::fill(dst.get() + b, dst.get() + e, 0.0f);
    });
  });
  std::vector<double> rates;
  for (int pass = 0; pass < result.passes; ++pass) {
    const auto t0 = std::chrono::steady_clock::now();
    pool.run([&](int t) {
      part(t, [&](std::size_t b, std::size_t e) { std::memcpy(dst.get() + b, src.get() + b, (e - b) * sizeof(float)); });
    });
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rates.push_back(2.0 * double(result.bufferBytes) / s / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  result.minGBs = rates.front();
  result.medianGBs = rates[rates.size() / 2];
  result.maxGBs = rates.back();
  return result;
}

HostBandwidth cachedHostBandwidth(const std::string& cacheFile, std::size_t bufferBytes, bool remeasure) {
  const std::string machine = machineDescription();
  if (!cacheFile.empty() && !remeasure)
    if (auto stored = load(cacheFile, machine)) return *stored;
  const HostBandwidth measured = measureHostBandwidth(kPasses, bufferBytes);
  if (!cacheFile.empty()) {
    try {
      writeWholeFile(cacheFile, toJson(measured).dump(2) + "\n");
    } catch (const FileWriteError&) {  // measured again next time
    }
  }
  return measured;
}

HostBandwidth hostCopyBandwidth(bool remeasure) {
  const std::lock_guard lock(valueMutex);
  if (!value || remeasure) value = cachedHostBandwidth(cacheFilePath(), hostBandwidthBufferBytes(), remeasure);
  return *value;
}

std::optional<HostBandwidth> storedHostBandwidth() {
  const std::lock_guard lock(valueMutex);
  if (!value) value = load(cacheFilePath(), machineDescription());
  return value;
}

std::optional<HostBandwidth> storedHostBandwidth(const std::string& cacheFile) {
  return load(cacheFile, machineDescription());
}

double hostCopyBandwidthGBs() { return hostCopyBandwidth().medianGBs; }

}  // namespace iso
