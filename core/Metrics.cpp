#include "Metrics.h"

#include <cstdio>

namespace iso {

Throughput computeThroughput(double interiorPoints, double steps, double seconds, double ceilingGBs) {
  Throughput t;
  t.seconds = seconds;
  t.ceilingGBs = ceilingGBs;
  if (seconds <= 0.0) return t;
  const double pts = interiorPoints * steps / seconds;
  t.mpts = pts / 1e6;
  t.gflops = pts * kFlopsPerPoint / 1e9;
  t.gbsSample = pts * kSampleBytesPerPoint / 1e9;
  t.gbsTraffic = pts * kTrafficBytesPerPoint / 1e9;
  if (ceilingGBs > 0.0) t.rooflinePercent = 100.0 * t.gbsTraffic / ceilingGBs;
  return t;
}

std::string formatThroughput(const Throughput& t) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "time         : %.3f secs\n"
                "throughput   : %.2f Mpts/s\n"
                "flops        : %.3f GFlops\n"
                "bytes        : %.3f GBytes/s (sample, 12 B/pt)\n"
                "traffic      : %.3f GBytes/s (16 B/pt: read prev, vel, next; write next)\n",
                t.seconds, t.mpts, t.gflops, t.gbsSample, t.gbsTraffic);
  std::string out = buf;
  if (t.ceilingGBs > 0.0) {
    std::snprintf(buf, sizeof buf, "roofline     : %.1f %% of the measured copy bandwidth (%.1f GB/s)\n",
                  t.rooflinePercent, t.ceilingGBs);
    out += buf;
  }
  return out;
}

}  // namespace iso
