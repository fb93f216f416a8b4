#pragma once
// Throughput conventions (docs/METRICS.md).
#include <string>

namespace iso {

inline constexpr double kFlopsPerPoint = 61.0;        // 7R + 5, the sample's count
inline constexpr double kSampleBytesPerPoint = 12.0;  // the sample's figure
inline constexpr double kTrafficBytesPerPoint = 16.0; // read prev, vel, next; write next

struct Throughput {
  double seconds = 0.0;
  double mpts = 0.0;          // interior points × steps / s / 1e6
  double gflops = 0.0;
  double gbsSample = 0.0;     // 12 B/pt
  double gbsTraffic = 0.0;    // 16 B/pt
  double rooflinePercent = 0.0;  // traffic GB/s over the measured copy bandwidth (0 when unknown)
  double ceilingGBs = 0.0;       // that bandwidth
};

Throughput computeThroughput(double interiorPoints, double steps, double seconds, double ceilingGBs = 0.0);

// Multi-line report in the oneAPI sample's style plus our 16-byte figure and the roofline share.
std::string formatThroughput(const Throughput& t);

}  // namespace iso
