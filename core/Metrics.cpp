#include "core/Metrics.h"

#include <cstdarg>
#include <cstdio>

namespace iso {
namespace {

std::string format(const char* pattern, ...) {
  char buf[512];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(buf, sizeof buf, pattern, args);
  va_end(args);
  return buf;
}

// Whether the stage's own bytes per point-step differ from the 16 of the traffic figure.
bool movesOwnBytes(const Throughput& t) { return t.ownBytesPerPoint != kTrafficBytesPerPoint; }

// "own 10 B/pt: 1308.0 GB/s, 43.6 % of copy": what a stage that moves its own count of bytes draws, with
// the decimals of the layout's other GB/s and % figures.
std::string ownTrafficText(const Throughput& t, int decimals, int percentDecimals) {
  std::string text = format("own %g B/pt: %s GB/s", t.ownBytesPerPoint, rateText(t, t.gbsOwn, decimals).c_str());
  if (t.ceilingGBs > 0.0) text += format(", %s %% of copy", rateText(t, t.ownRooflinePercent, percentDecimals).c_str());
  return text;
}

std::vector<std::string> reportLines(const Throughput& t) {
  std::vector<std::string> lines = {
      format("time         : %.3f secs", t.seconds),
      format("throughput   : %s Mpts/s", rateText(t, t.mpts, 2).c_str()),
      format("flops        : %s GFlops", rateText(t, t.gflops, 3).c_str()),
      format("bytes        : %s GBytes/s (sample, 12 B/pt)", rateText(t, t.gbsSample, 3).c_str()),
      format("traffic      : %s GBytes/s (16 B/pt: read prev, vel, next; write next)", rateText(t, t.gbsTraffic, 3).c_str())};
  if (t.ceilingGBs > 0.0)
    lines.push_back(format("roofline     : %s %% of the measured copy bandwidth (%.1f GB/s)",
                       rateText(t, t.rooflinePercent, 1).c_str(), t.ceilingGBs));
  if (movesOwnBytes(t)) {
    std::string own = format("own traffic  : %s GBytes/s (%g B/pt, what this stage moves", rateText(t, t.gbsOwn, 3).c_str(),
                             t.ownBytesPerPoint);
    if (t.ceilingGBs > 0.0) own += format("; %s %% of the copy bandwidth", rateText(t, t.ownRooflinePercent, 1).c_str());
    lines.push_back(own + ")");
  }
  return lines;
}

std::vector<std::string> overlayLines(const CounterReading& r) {
  const Throughput& t = r.throughput;
  const std::string ceiling = format("%s %.1f GB/s", r.ceilingName.c_str(), t.ceilingGBs);
  const std::string roofline = t.ceilingGBs <= 0.0 ? "roofline: ceiling unknown"
                           : t.mpts > 0.0     ? format("%.1f %% of roofline (%s)", t.rooflinePercent, ceiling.c_str())
                                              : "roofline: " + ceiling;
  std::vector<std::string> lines = {
      format("step %ld · t = %.4f s · dt = %.4f ms · %s", r.step, r.time, r.dt * 1e3, r.state.c_str()),
      format("%s Mpts/s · %s GFLOP/s · %.0f fps", rateText(t, t.mpts, 1).c_str(), rateText(t, t.gflops, 2).c_str(),
             r.framesPerSecond),
      format("%s GB/s (12 B/pt) · %s GB/s (16 B/pt)", rateText(t, t.gbsSample, 2).c_str(),
             rateText(t, t.gbsTraffic, 2).c_str()),
      roofline};
  if (movesOwnBytes(t)) lines.push_back(ownTrafficText(t, 2, 1));
  lines.push_back(format("%s · %d×%d×%d", r.stage.c_str(), r.n1, r.n2, r.n3));
  lines.push_back(r.device);
  lines.push_back("slices: " + r.transferPath);
  if (!r.transferNote.empty()) lines.push_back("  (" + r.transferNote + ")");
  return lines;
}

std::string statusLine(const CounterReading& r) {
  const Throughput& t = r.throughput;
  std::string line = format("step %ld  |  t %.3f s  |  %s Mpts/s  |  %s GFLOP/s  |  %s / %s GB/s (12 / 16 B/pt)", r.step,
                            r.time, rateText(t, t.mpts, 1).c_str(), rateText(t, t.gflops, 1).c_str(),
                            rateText(t, t.gbsSample, 1).c_str(), rateText(t, t.gbsTraffic, 1).c_str());
  if (t.ceilingGBs > 0.0) line += format("  |  %s %% roofline", rateText(t, t.rooflinePercent, 0).c_str());
  if (movesOwnBytes(t)) line += "  |  " + ownTrafficText(t, 1, 0);
  return line + format("  |  %.0f fps", r.framesPerSecond);
}

}  // namespace

Throughput computeThroughput(double interiorPoints, double steps, double seconds, double ceilingGBs,
                             double ownBytesPerPoint) {
  Throughput t;
  t.seconds = seconds;
  t.ceilingGBs = ceilingGBs;
  t.ownBytesPerPoint = ownBytesPerPoint;
  if (seconds <= 0.0) return t;
  const double pts = interiorPoints * steps / seconds;
  t.mpts = pts / 1e6;
  t.gflops = pts * kFlopsPerPoint / 1e9;
  t.gbsSample = pts * kSampleBytesPerPoint / 1e9;
  t.gbsTraffic = pts * kTrafficBytesPerPoint / 1e9;
  t.gbsOwn = pts * ownBytesPerPoint / 1e9;
  if (ceilingGBs > 0.0) {
    t.rooflinePercent = 100.0 * t.gbsTraffic / ceilingGBs;
    t.ownRooflinePercent = 100.0 * t.gbsOwn / ceilingGBs;
  }
  return t;
}

std::string rateText(const Throughput& t, double value, int decimals) {
  return t.mpts > 0.0 ? format("%.*f", decimals, value) : "–";
}

std::vector<std::string> formatCounters(const CounterReading& reading, CounterLayout layout) {
  switch (layout) {
    case CounterLayout::Report: return reportLines(reading.throughput);
    case CounterLayout::Overlay: return overlayLines(reading);
    case CounterLayout::StatusLine: return {statusLine(reading)};
  }
  return {};
}

std::string formatThroughput(const Throughput& t) {
  std::string out;
  for (const std::string& line : reportLines(t)) out += line + '\n';
  return out;
}

}  // namespace iso
