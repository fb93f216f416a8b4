#include "core/ModelFile.h"

#include <segyio/segy.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <system_error>

#include "core/Format.h"
#include "core/Allocation.h"
#include "core/Npy.h"
#include "core/SystemMemory.h"

namespace iso {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ScenarioError("velocity model '" + path + "': " + what);
}

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

// A file whose fastest cell is slower than this (m/s) is slower than any rock, fluid or gas: the file's
// unit is wrong, most often km/s read as m/s.
constexpr double kMinFastestFileVelocity = 100.0;

// The hint that names the unit that would fit, and where each front end sets it.
std::string unitHint(VelocityUnit fits) {
  return ". If the file is in " + toString(fits) + ", set its unit to \"" + toString(fits) +
         "\" (scenario key model.file_unit; iso3dfd --model-unit; the Unit box in the studio)";
}

// Converts the file's values to m/s, then checks them; the hints name the unit that would fit.
void convertAndCheckVelocities(const std::string& path, Volume& v, VelocityUnit unit) {
  const double factor = metresPerSecondPer(unit);
  const std::string unitNote = unit == VelocityUnit::MetresPerSecond ? "" : " (read in " + toString(unit) + ")";
  double fastest = 0.0;
  for (std::size_t n = 0; n < v.data.size(); ++n) {
    const double x = double(v.data[n]) * factor;  // in double: km/s could overflow a float
    if (x >= kMinVelocity && x <= kMaxVelocity) {  // false for NaN
      v.data[n] = float(x);
      fastest = std::max(fastest, x);
      continue;
    }
    const std::size_t plane = std::size_t(v.n1) * v.n2;
    std::string msg = "the velocity at (i, j, k) = (" + std::to_string(n % v.n1) + ", " +
                      std::to_string(n % plane / v.n1) + ", " + std::to_string(n / plane) + ") is " +
                      shortNumber(x) + " m/s" + unitNote + "; velocities must be finite and within [" +
                      shortNumber(kMinVelocity) + ", " + shortNumber(kMaxVelocity) + "] m/s";
    if (x > kMaxVelocity && unit == VelocityUnit::KilometresPerSecond)
      msg += unitHint(VelocityUnit::MetresPerSecond);
    fail(path, msg);
  }
  if (fastest < kMinFastestFileVelocity) {
    std::string msg = "the fastest velocity in the file is " + shortNumber(fastest) + " m/s" + unitNote +
                      ", slower than any rock, fluid or gas (below " + shortNumber(kMinFastestFileVelocity) +
                      " m/s)";
    if (unit == VelocityUnit::MetresPerSecond && fastest * 1000.0 >= kMinFastestFileVelocity)
      msg += unitHint(VelocityUnit::KilometresPerSecond);
    fail(path, msg);
  }
}

Volume loadNpy(const std::string& path) {
  NpyArray array;
  try {
    array = readNpy(path);
  } catch (const std::runtime_error& e) {
    throw ScenarioError(std::string("velocity model ") + e.what());
  }
  if (array.shape.size() != 3 || array.data.empty())
    fail(path, "expected a non-empty 3D array of shape (n3, n2, n1), got " +
                   std::to_string(array.shape.size()) + " dimension(s)");
  return Volume{int(array.shape[2]), int(array.shape[1]), int(array.shape[0]), std::move(array.data)};
}

Volume loadRaw(const std::string& path, int n1, int n2, int n3) {
  if (n1 < 1 || n2 < 1 || n3 < 1)
    fail(path, "a raw float32 file needs its dims: set model.file_n1, file_n2 and file_n3 (each >= 1)");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) fail(path, "cannot open the file for reading");
  const auto bytes = std::uintmax_t(in.tellg());
  const auto expected = std::uintmax_t(n1) * n2 * n3 * sizeof(float);
  if (bytes != expected)
    fail(path, "size is " + std::to_string(bytes) + " bytes, but " + std::to_string(n1) + " x " +
                   std::to_string(n2) + " x " + std::to_string(n3) + " float32 values need " +
                   std::to_string(expected) + " bytes");
  requireAvailableMemory(expected, "velocity model '" + path + "'");
  Volume v{n1, n2, n3, allocateArray(std::size_t(n1) * n2 * n3, "velocity model '" + path + "'")};
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(v.data.data()), std::streamsize(expected))) fail(path, "read failed");
  return v;
}

Volume loadSegy(const std::string& path, int givenN1, int givenN2) {
  std::unique_ptr<segy_file, int (*)(segy_file*)> fp(segy_open(path.c_str(), "rb"), segy_close);
  if (!fp) fail(path, "cannot open the file for reading");
  char bin[SEGY_BINARY_HEADER_SIZE];
  if (segy_binheader(fp.get(), bin) != SEGY_OK) fail(path, "cannot read the SEG-Y binary header");
  const int samples = segy_samples(bin);
  const int format = segy_format(bin);
  if (samples < 1) fail(path, "malformed SEG-Y binary header: " + std::to_string(samples) + " samples per trace");
  if (format != SEGY_IBM_FLOAT_4_BYTE && format != SEGY_IEEE_FLOAT_4_BYTE)
    fail(path, "SEG-Y sample format code " + std::to_string(format) +
                   " is not supported (1 = IBM float and 5 = IEEE float are)");
  const long trace0 = segy_trace0(bin);
  const int traceBytes = segy_trsize(format, samples);
  // The trace count from the file size, checked here: libsegyio asserts (aborts the process) when the
  // count exceeds an int, which a large sparse or damaged file reaches with short traces.
  std::error_code ec;
  const std::uintmax_t fileBytes = std::filesystem::file_size(path, ec);
  if (ec) fail(path, "cannot read the file size: " + ec.message());
  // Each trace is its 240-byte header and its samples (traceBytes counts only the samples).
  const std::uintmax_t stride = std::uintmax_t(SEGY_TRACE_HEADER_SIZE) + std::uintmax_t(std::max(traceBytes, 0));
  if (trace0 < 0 || traceBytes <= 0 || fileBytes <= std::uintmax_t(trace0) ||
      (fileBytes - std::uintmax_t(trace0)) % stride != 0)
    fail(path, "malformed SEG-Y file: the file size is not a whole number of traces of " +
                   std::to_string(samples) + " samples");
  const std::uintmax_t traceCount = (fileBytes - std::uintmax_t(trace0)) / stride;
  if (traceCount > std::uintmax_t(std::numeric_limits<int>::max()))
    fail(path, "holds " + std::to_string(traceCount) + " traces of " + std::to_string(samples) +
                   " samples by its size, more than the " + std::to_string(std::numeric_limits<int>::max()) +
                   " a SEG-Y file can index");
  requireAvailableMemory(traceCount * std::uintmax_t(samples) * sizeof(float), "velocity model '" + path + "'");
  int traces = 0;
  if (segy_traces(fp.get(), &traces, trace0, traceBytes) != SEGY_OK || std::uintmax_t(traces) != traceCount)
    fail(path, "malformed SEG-Y file: the file size is not a whole number of traces of " +
                   std::to_string(samples) + " samples");

  int n1 = givenN1, n2 = givenN2;
  if (n1 > 0 && n2 > 0) {
    if (long(n1) * n2 != traces)
      fail(path, "holds " + std::to_string(traces) + " traces, not file_n1 x file_n2 = " + std::to_string(n1) +
                     " x " + std::to_string(n2));
  } else {
    // Geometry from the inline/crossline headers: the line direction that varies fastest is x.
    int sorting = 0, offsets = 0, lines = 0, perLine = 0;
    if (segy_sorting(fp.get(), SEGY_TR_INLINE, SEGY_TR_CROSSLINE, SEGY_TR_OFFSET, &sorting, trace0, traceBytes) != SEGY_OK ||
        sorting == SEGY_UNKNOWN_SORTING ||
        segy_offsets(fp.get(), SEGY_TR_INLINE, SEGY_TR_CROSSLINE, traces, &offsets, trace0, traceBytes) != SEGY_OK)
      fail(path, "cannot infer the trace geometry from the inline/crossline headers; give model.file_n1 and file_n2");
    if (offsets != 1) fail(path, "pre-stack SEG-Y (" + std::to_string(offsets) + " offsets) is not a velocity model");
    // segy_count_lines walks the traces until the fast-varying header repeats its first value.
    const int fastField = sorting == SEGY_INLINE_SORTING ? SEGY_TR_CROSSLINE : SEGY_TR_INLINE;
    if (segy_count_lines(fp.get(), fastField, offsets, &lines, &perLine, trace0, traceBytes) != SEGY_OK ||
        long(lines) * perLine != traces)
      fail(path, "the inline/crossline headers do not form a regular grid; give model.file_n1 and file_n2");
    n1 = perLine;
    n2 = lines;
  }

  // Velocities are positive in any unit: a trace is checked as it comes, and before the volume is even
  // allocated a few traces spread over the file are, so that a file of millions of empty traces (sparse,
  // or zeroed) is refused at once, not after gigabytes of allocation and minutes of reading.
  std::vector<float> trace(static_cast<std::size_t>(samples));
  const auto readTrace = [&](int t) {
    if (segy_readtrace(fp.get(), t, trace.data(), trace0, traceBytes) != SEGY_OK)
      fail(path, "cannot read trace " + std::to_string(t));
    segy_to_native(format, samples, trace.data());
    for (int k = 0; k < samples; ++k)
      if (const float x = trace[std::size_t(k)]; !(x > 0.0f) || !std::isfinite(x))
        fail(path, "the velocity at (i, j, k) = (" + std::to_string(t % n1) + ", " + std::to_string(t / n1) + ", " +
                       std::to_string(k) + ") is " + shortNumber(x) +
                       "; velocities are positive and finite (a damaged file, or one with unwritten parts)");
  };
  constexpr int kSampledTraces = 64;
  for (int s = 0; s < kSampledTraces && traces > 0; ++s) readTrace(int(long(s) * (traces - 1) / (kSampledTraces - 1)));
  Volume v{n1, n2, samples, allocateArray(std::size_t(n1) * n2 * samples, "velocity model '" + path + "'")};
  const std::size_t plane = std::size_t(n1) * n2;
  for (int t = 0; t < traces; ++t) {
    readTrace(t);
    for (int k = 0; k < samples; ++k) v.data[std::size_t(k) * plane + std::size_t(t)] = trace[std::size_t(k)];
  }
  return v;
}

}  // namespace

Volume loadModelFile(const std::string& path, int rawN1, int rawN2, int rawN3, VelocityUnit unit) {
  if (path.empty()) fail(path, "model.path is empty");
  if (!std::filesystem::is_regular_file(path))
    fail(path, std::filesystem::exists(path) ? "not a regular file (a directory?)" : "no such file");
  const std::string ext = lowerExtension(path);
  Volume v;
  if (ext == ".npy")
    v = loadNpy(path);
  else if (ext == ".bin" || ext == ".raw" || ext == ".f32")
    v = loadRaw(path, rawN1, rawN2, rawN3);
  else if (ext == ".sgy" || ext == ".segy")
    v = loadSegy(path, rawN1, rawN2);
  else
    fail(path, "unknown extension '" + ext + "' (known: .npy, .bin/.raw/.f32 raw float32, .sgy/.segy)");
  convertAndCheckVelocities(path, v, unit);
  return v;
}

}  // namespace iso
