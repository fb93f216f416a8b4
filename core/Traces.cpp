#include "core/Traces.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <string_view>
#include <stdexcept>

#include "core/OutputFile.h"
#include "core/Npy.h"
#include "core/Version.h"

namespace iso {

namespace {

// Samples per receiver; refuses a trace buffer that is not a whole number of rows.
std::size_t sampleCount(const std::vector<float>& traces, std::size_t receiverCount) {
  if (receiverCount == 0) throw std::invalid_argument("no receivers: there are no traces to save");
  if (traces.size() % receiverCount != 0)
    throw std::invalid_argument("trace buffer of " + std::to_string(traces.size()) + " values is not a whole number of " +
                                "rows of " + std::to_string(receiverCount) + " receivers");
  return traces.size() / receiverCount;
}

std::string printed(const char* format, auto... values) {
  const int length = std::snprintf(nullptr, 0, format, values...);
  std::string text(std::size_t(std::max(length, 0)), '\0');
  std::snprintf(text.data(), text.size() + 1, format, values...);  // the terminator goes into text's own
  return text;
}

SegyPosition positionOf(int i, int j, int k, double dx) { return {i * dx, j * dx, k * dx}; }

// The textual header: what made the file and how to read it (lines of at most 76 characters).
std::vector<std::string> segyDescription(const Scenario& s, const SegyPosition& source, std::array<int, 3> sourceCell,
                                         std::size_t samples, double dt) {
  std::vector<std::string> lines{
      "iso3dfd studio " + std::string(kProjectVersion) + ": shot gather of a 3D acoustic wave simulation",
      "ISO3DFD stencil, 16th order in space, 2nd in time; stage " + s.stage.substr(0, 18),
      "Scenario: " + s.name.substr(0, 66),
      printed("Grid %d x %d x %d cells, dx %g m", s.n1, s.n2, s.n3, s.dx),
      "Model " + toString(s.model.kind) + ", boundary " + toString(s.boundary.kind),
      printed("Source %s at cell (%d, %d, %d)", toString(s.source.kind).c_str(), sourceCell[0], sourceCell[1], sourceCell[2]),
      printed("Source position: x %g m, y %g m, depth %g m", source.x, source.y, source.depth)};
  if (s.source.kind == SourceKind::Ricker)
    lines.push_back(printed("Ricker wavelet: peak frequency %g Hz, amplitude %g", s.source.frequency, s.source.amplitude));
  for (const std::string& line :
       {printed("%zu receivers, one trace each, in the order of the scenario", s.receivers.size()),
        printed("%zu samples per trace, dt %.9g s, the first at t = 0 (before step 1)", samples, dt),
        std::string("Values: the wavefield u at each receiver's cell, 4-byte IEEE floats"),
        std::string("Positions: metres from the first interior cell, x and y horizontal,"),
        std::string("depth down (elevation = -depth). Offset: the signed horizontal distance"),
        std::string("in whole metres, negative on the source's -x side")})
    lines.push_back(line);
  return lines;
}

}  // namespace

void saveTracesCsv(const std::string& path, const std::vector<float>& traces,
                   const std::vector<ReceiverSpec>& receivers, double dt) {
  const std::size_t samples = sampleCount(traces, receivers.size());
  OutputFile out(path);
  std::string header = "time_s";
  for (std::size_t r = 0; r < receivers.size(); ++r)
    header += ",r" + std::to_string(r) + "_i" + std::to_string(receivers[r].i) + "_j" +
              std::to_string(receivers[r].j) + "_k" + std::to_string(receivers[r].k);
  header += '\n';
  out.write(header);
  char buf[32];
  for (std::size_t n = 0; n < samples; ++n) {
    out.write(std::string_view(buf, std::size_t(std::snprintf(buf, sizeof buf, "%.9g", double(n + 1) * dt))));
    for (std::size_t r = 0; r < receivers.size(); ++r) {
      const int length = std::snprintf(buf, sizeof buf, ",%.9g", double(traces[n * receivers.size() + r]));  // float32 round trip
      out.write(std::string_view(buf, std::size_t(length)));
    }
    out.write("\n");
  }
  out.commit();
}

void saveTracesNpy(const std::string& path, const std::vector<float>& traces, std::size_t receiverCount) {
  const std::size_t samples = sampleCount(traces, receiverCount);
  writeNpy(path, traces.data(), {samples, receiverCount});
}

SegyWriteReport saveTracesSegy(const std::string& path, const std::vector<float>& traces, const Scenario& scenario,
                               double dt, const std::vector<float>& initial) {
  const std::size_t receivers = scenario.receivers.size();
  const std::size_t recorded = sampleCount(traces, receivers);
  if (!initial.empty() && initial.size() != receivers)
    throw std::invalid_argument(std::to_string(initial.size()) + " initial values for " + std::to_string(receivers) + " receivers");
  const SourceSpec& src = scenario.source;  // -1 on an axis: its centre (Scenario.h)
  const std::array<int, 3> cell{src.i >= 0 ? src.i : scenario.n1 / 2, src.j >= 0 ? src.j : scenario.n2 / 2,
                                src.k >= 0 ? src.k : scenario.n3 / 2};
  SegyGather gather;
  gather.sampleInterval = dt;
  gather.source = positionOf(cell[0], cell[1], cell[2], scenario.dx);
  for (const ReceiverSpec& r : scenario.receivers) gather.receivers.push_back(positionOf(r.i, r.j, r.k, scenario.dx));
  gather.samples = initial.empty() ? std::vector<float>(receivers, 0.0f) : initial;
  gather.samples.insert(gather.samples.end(), traces.begin(), traces.end());
  gather.description = segyDescription(scenario, gather.source, cell, recorded + 1, dt);
  return writeSegyGather(path, gather);
}

std::vector<float> initialReceiverValues(const Problem& problem) {
  std::vector<float> values;
  for (std::size_t index : problem.receivers) values.push_back(problem.initialPrev.empty() ? 0.0f : problem.initialPrev[index]);
  return values;
}

std::vector<float> initialReceiverValues(const Scenario& scenario, const std::vector<float>& velocity) {
  if (scenario.source.kind != SourceKind::OneApiCubes) return std::vector<float>(scenario.receivers.size(), 0.0f);
  return initialReceiverValues(buildProblem(scenario, velocity));
}

TraceFormat traceFormatOf(const std::string& path) {
  const std::size_t dot = path.find_last_of("./");
  std::string ext = dot == std::string::npos || path[dot] != '.' ? "" : path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".npy") return TraceFormat::Npy;
  if (ext == ".sgy" || ext == ".segy") return TraceFormat::Segy;
  return TraceFormat::Csv;
}

std::vector<std::string> saveTraces(const std::string& path, const std::vector<float>& traces, const Scenario& scenario,
                                    double dt, const std::vector<float>& initial) {
  switch (traceFormatOf(path)) {
    case TraceFormat::Npy: saveTracesNpy(path, traces, scenario.receivers.size()); return {};
    case TraceFormat::Csv: saveTracesCsv(path, traces, scenario.receivers, dt); return {};
    case TraceFormat::Segy: break;
  }
  const SegyWriteReport report = saveTracesSegy(path, traces, scenario, dt, initial);
  std::vector<std::string> notes;
  if (report.intervalRounded)
    notes.push_back(printed("SEG-Y keeps the sample interval in whole microseconds: dt = %.6g us is stored as %d us "
                            "(the textual header has the exact dt; a dt in whole microseconds keeps the time axis exact)", dt * 1e6, report.sampleIntervalMicroseconds));
  if (report.positionsRounded)
    notes.push_back("positions finer than 0.1 mm are rounded to 0.1 mm in the SEG-Y headers");
  return notes;
}

}  // namespace iso
