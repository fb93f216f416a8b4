#include "compute/Bandwidth.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "compute/ClHost.h"
#include "compute/StageParams.h"
#include "core/OutputFile.h"
#include "core/CacheDirectory.h"
#include "core/Format.h"
#include "core/JsonInput.h"
#include "core/Metrics.h"
#include "core/SystemMemory.h"

namespace iso {

namespace {

using nlohmann::json;

constexpr int kTimedRuns = 7;
constexpr double kFmaTargetSeconds = 0.03;

// Independent chains keep every FMA pipeline busy; the runtime trip count keeps the compiler from
// folding the loop; the sum written out keeps it from dropping it.
constexpr const char* kFmaSource = R"CL(
__kernel void fma_probe(__global float* out, const int iterations, const float a, const float b) {
  const size_t gid = get_global_id(0);
  float4 x0 = (float4)((float)gid * 1e-9f), x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f;
  float4 x4 = x0 + 0.4f, x5 = x0 + 0.5f, x6 = x0 + 0.6f, x7 = x0 + 0.7f;
  for (int i = 0; i < iterations; ++i) {
    x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);
    x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
  }
  out[gid] = dot(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7, (float4)(1.0f));
}
)CL";
constexpr double kFlopsPerIteration = 8 * 4 * 2;  // chains × lanes × (multiply + add)

CeilingMeasurement spreadOf(std::vector<double> rates) {
  std::sort(rates.begin(), rates.end());
  CeilingMeasurement m;
  m.min = rates.front();
  m.median = rates[rates.size() / 2];
  m.max = rates.back();
  m.runs = int(rates.size());
  m.date = utcNow();
  return m;
}

CeilingMeasurement measureCopy(const DeviceInfo& device) {
  ClContext ctx(device);
  const std::size_t count = copyProbeBytes(device) / 2 / sizeof(float);
  Buffer<float> src(ctx, count, CL_MEM_READ_WRITE, "bandwidth source"), dst(ctx, count, CL_MEM_READ_WRITE, "bandwidth target");
  src.fill(ctx, 1.0f);
  dst.fill(ctx, 0.0f);
  std::vector<double> rates;
  for (int i = 0; i <= kTimedRuns; ++i) {
    cl_event e = nullptr;
    checkCl(clEnqueueCopyBuffer(ctx.queue(), src.get(), dst.get(), 0, 0, src.bytes(), 0, nullptr, &e),
            "clEnqueueCopyBuffer", "bandwidth measurement");
    const double t = Event(e).seconds();
    if (i > 0 && t > 0.0) rates.push_back(2.0 * double(src.bytes()) / t / 1e9);  // the first copy is a warm-up
  }
  if (rates.empty()) throw ComputeError(ComputeStatus::InvalidParameter, "bandwidth measurement: the copies took no time");
  return spreadOf(std::move(rates));
}

CeilingMeasurement measureFma(const DeviceInfo& device) {
  ClContext ctx(device);
  Program program(ctx, {kFmaSource, "", "FMA throughput probe"});
  Kernel kernel = program.kernel("fma_probe");
  const std::size_t group = std::max<std::size_t>(1, kernel.maxWorkGroupSize(ctx));
  NDRange range;
  range.global[0] = std::size_t(std::max(1u, device.computeUnits)) * group * 16;
  Buffer<float> out(ctx, range.global[0], CL_MEM_WRITE_ONLY, "FMA probe output");
  const float a = 0.9999f, b = 1e-4f;  // converges to 1: no overflow, no denormals
  const auto run = [&](int iterations) { return kernel.args(out, iterations, a, b).launch(ctx, range).seconds(); };
  // The first launch is the warm-up and sizes the runs to about kFmaTargetSeconds.
  int iterations = 64;
  const double first = run(iterations);
  if (first > 0.0) iterations = int(std::clamp(iterations * kFmaTargetSeconds / first, 64.0, double(1 << 22)));
  std::vector<double> rates;
  for (int i = 0; i < kTimedRuns; ++i) {
    const double t = run(iterations);
    if (t > 0.0) rates.push_back(double(range.global[0]) * iterations * kFlopsPerIteration / t / 1e9);
  }
  if (rates.empty()) throw ComputeError(ComputeStatus::InvalidParameter, "FMA probe: the kernel took no time");
  return spreadOf(std::move(rates));
}

const char* probeKey(CeilingProbe probe) { return probe == CeilingProbe::Copy ? "copy_gbs" : "fma_gflops"; }

std::optional<CeilingMeasurement> fromJson(const json& j) {
  try {
    CeilingMeasurement m;
    m.min = j.at("min").get<double>();
    m.median = j.at("median").get<double>();
    m.max = j.at("max").get<double>();
    const auto runs = j.at("runs").get<std::int64_t>();
    m.date = excerpt(j.at("date").get<std::string>());
    if (!(m.min > 0.0 && m.min <= m.median && m.median <= m.max && m.max <= kMaxPlausibleRate) || runs < 1 || runs > 1000)
      return std::nullopt;
    m.runs = int(runs);
    return m;
  } catch (const json::exception&) {  // a missing key or a wrong type: measured again
    return std::nullopt;
  }
}

// One read-modify-write of bandwidth.json at a time in this process, and the measurements the cache could
// not keep: without a writable cache, a probe runs once per process, not once per call.
std::mutex cacheMutex;
std::map<std::string, CeilingMeasurement> measuredHere;

std::string cachePath() {
  const std::string dir = cacheDirectory();
  return dir.empty() ? std::string() : dir + "/bandwidth.json";
}

// The cache's measurements (a damaged file is set aside, and measured again). Under cacheMutex.
json readDatabase(const std::string& path) {
  CacheJson cache = readCacheJson(path);
  if (!cache.problem.empty()) setAsideDamagedCacheFile(path, cache.problem);
  return std::move(cache.value);
}

std::optional<CeilingMeasurement> storedIn(const json& db, const std::string& key, CeilingProbe probe) {
  if (db.contains(key) && db[key].is_object() && db[key].contains(probeKey(probe))) return fromJson(db[key][probeKey(probe)]);
  return std::nullopt;
}

}  // namespace

std::size_t copyProbeBytes(const DeviceInfo& device) {
  // Buffers of 1 GiB on GPUs and 256 MiB on CPU devices, within what the device allows; a CPU device's
  // buffers are host memory, so together at most a quarter of what is free (SystemMemory.h).
  std::uint64_t each = device.type == "CPU" ? (256ull << 20) : (1ull << 30);
  each = std::min<std::uint64_t>({each, device.maxAllocBytes, device.globalMemBytes / 4});
  if (const std::size_t available = availableMemoryBytes(); device.type == "CPU" && available > 0)
    each = std::min<std::uint64_t>(each, available / 8);
  return std::size_t(std::max<std::uint64_t>(each, 1ull << 20) / sizeof(float) * sizeof(float)) * 2;
}

std::optional<CeilingMeasurement> storedCeiling(const DeviceInfo& device, CeilingProbe probe) {
  const std::lock_guard lock(cacheMutex);
  const std::string key = deviceKey(device);
  if (auto stored = storedIn(readDatabase(cachePath()), key, probe)) return stored;
  const auto here = measuredHere.find(key + "|" + probeKey(probe));
  return here != measuredHere.end() ? std::optional(here->second) : std::nullopt;
}

CeilingMeasurement measuredCeiling(const DeviceInfo& device, CeilingProbe probe, bool remeasure) {
  if (!remeasure)
    if (auto stored = storedCeiling(device, probe)) return *stored;
  const CeilingMeasurement m = probe == CeilingProbe::Copy ? measureCopy(device) : measureFma(device);
  const std::lock_guard lock(cacheMutex);
  const std::string key = deviceKey(device), path = cachePath();
  try {
    if (path.empty()) throw FileWriteError("no cache folder");
    json db = readDatabase(path);  // again: another probe may have stored its result meanwhile
    if (!db[key].is_object()) db[key] = json::object();  // a bare number (no spread, no date) is replaced
    db[key][probeKey(probe)] = {{"min", m.min}, {"median", m.median}, {"max", m.max}, {"runs", m.runs}, {"date", m.date}};
    writeWholeFile(path, db.dump(2) + "\n");
  } catch (const FileWriteError&) {  // kept for this process, measured again by the next
    measuredHere[key + "|" + probeKey(probe)] = m;
  }
  return m;
}

double copyBandwidthGBs(const DeviceInfo& device, bool remeasure) {
  return measuredCeiling(device, CeilingProbe::Copy, remeasure).median;
}

}  // namespace iso
