#pragma once
// Throughput conventions (docs/METRICS.md), and the one formatter of the counters that the command-line
// report, the studio's status bar and its view's overlay print.
#include <string>
#include <vector>

namespace iso {

inline constexpr double kFlopsPerPoint = 61.0;        // 7R + 5, the sample's count
inline constexpr double kSampleBytesPerPoint = 12.0;  // the sample's figure
inline constexpr double kTrafficBytesPerPoint = 16.0; // read prev, vel, next; write next
// The largest rate a file read back (a cache, a report) may hold, in any of its units (Mpts/s, GFLOP/s,
// GB/s): 10^9 is an exa-unit, beyond any machine. A larger value is damage, and is refused rather than
// printed or drawn (a chart's logarithmic axis up to 1e308 does not end).
inline constexpr double kMaxPlausibleRate = 1e9;

struct Throughput {
  double seconds = 0.0;
  double mpts = 0.0;          // interior points × steps / s / 1e6
  double gflops = 0.0;
  double gbsSample = 0.0;     // 12 B/pt
  double gbsTraffic = 0.0;    // 16 B/pt
  double rooflinePercent = 0.0;  // traffic GB/s over the measured copy bandwidth (0 when unknown)
  double ceilingGBs = 0.0;       // that bandwidth
  // A stage that moves fewer (or more) bytes than 16 a point-step (half storage, two steps a pass): its
  // own count, and its GB/s and % of the same bandwidth, which the formatters add to the 16 B figures.
  double ownBytesPerPoint = kTrafficBytesPerPoint;
  double gbsOwn = 0.0;
  double ownRooflinePercent = 0.0;
};

Throughput computeThroughput(double interiorPoints, double steps, double seconds, double ceilingGBs = 0.0,
                             double ownBytesPerPoint = kTrafficBytesPerPoint);

// What the counters show. The command-line report reads only the throughput; a live run fills the rest.
struct CounterReading {
  Throughput throughput;
  long step = 0;
  double time = 0.0, dt = 0.0;  // simulated seconds
  std::string state;            // "playing", "paused", "rebuilding…"
  double framesPerSecond = 0.0;
  int n1 = 0, n2 = 0, n3 = 0;
  std::string stage, device, transferPath;
  std::string transferNote;  // a second line about the slices' path (e.g. why not on the device), or ""
  std::string ceilingName;  // what ceilingGBs measures
};

enum class CounterLayout {
  Report,      // the command line: one labelled line per figure, the oneAPI sample's style
  Overlay,     // over the view: short lines that fit a narrow view
  StatusLine,  // the status bar: one line
};

std::vector<std::string> formatCounters(const CounterReading& reading, CounterLayout layout);

// One rate of `t` with `decimals` decimals, or "–" while no step has been timed (mpts is 0).
std::string rateText(const Throughput& t, double value, int decimals);

// The Report lines of a measurement, each ending in a newline.
std::string formatThroughput(const Throughput& t);

}  // namespace iso
