#pragma once
// What a benchmark run produces (BenchmarkRunner), and its one writer (text table, JSON, CSV) and one
// JSON reader, so that `iso3dfd bench`, the GPU scripts and the studio print and load the same thing.
//
// JSON schema "iso3dfd-bench/1" (what benchmarkJson writes and parseBenchmarkJson reads back):
//   {
//     "schema": "iso3dfd-bench/1",
//     "date": "2026-11-23T19:30:00Z",      UTC, ISO 8601, when the run started
//     "host_cpu": "AMD EPYC 9B45",         the machine's CPU model ("" when unknown)
//     "devices": ["NVIDIA H100 ..."],       every device a row ran on, once each, in row order
//     "warmup_steps": 1,                     untimed steps at the start of each stage
//     "repeats": 5,                          timed chunks per stage; the median chunk gives the rates
//     "cancelled": false,                    true when the run stopped before its last stage
//     "rows": [{
//       "stage": "gpu-slm", "title": "GPU local memory", "device": "NVIDIA H100 ...",
//       "n1": 256, "n2": 256, "n3": 256,     interior grid
//       "steps": 20,                         steps run, warm-up included (every stage ends on the same u^N)
//       "seconds": 0.12,                     timed seconds, all chunks
//       "seconds_per_step": 0.006,           of the median chunk
//       "mpts": 2796.2,                      interior points × steps / s / 1e6
//       "gflops": 170.6,                     61 flop per point
//       "gbs_sample": 33.6, "gbs_traffic": 44.7,   12 B/pt (the oneAPI sample's figure) and 16 B/pt
//       "bytes_per_point_step": 16,          what the stage itself moves per point and step at best (10 for
//                                            gpu-temporal): its place on a roofline, 61 flop over these bytes
//       "ceiling": "device copy bandwidth", "ceiling_gbs": 2900.0,   the roofline ceiling ("", 0: unknown)
//       "roofline_percent": 1.5,             gbs_traffic over ceiling_gbs (0 when unknown)
//       "speedup_vs_serial": 40.2,           over cpu-serial on the same grid, null without it
//       "previous": "gpu-private-z",         the stage this one is compared with ("" for the first)
//       "speedup_vs_previous": 1.1,          over that stage on the same grid, null without it
//       "max_abs_diff": 1.2e-7, "rel_l2": 3.4e-8, "non_finite": 0,   u^N against cpu-serial, null without it
//       "params": {"tile_x": 32},            the stage parameters the solver ran with
//       "error": ""                          non-empty: the stage failed and its numbers are 0 / null
//     }]
//   }
// Readers ignore keys they do not know, so later versions may add keys; a changed meaning gets a new schema.
// A key added later is optional to the reader: bytes_per_point_step (16 when absent).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/FieldCompare.h"
#include "core/Format.h"
#include "core/Metrics.h"

namespace iso {

inline constexpr const char* kBenchmarkSchema = "iso3dfd-bench/1";

struct BenchmarkRow {
  std::string stage, title, device;
  double bytesPerPointStep = kTrafficBytesPerPoint;  // the stage's own (StageInfo::bytesPerPointStep)
  int n1 = 0, n2 = 0, n3 = 0;
  int steps = 0;
  double secondsPerStep = 0.0;
  Throughput throughput;       // seconds: all timed chunks; rates: the median chunk
  std::string ceilingName;     // what throughput.ceilingGBs is ("" when unknown)
  std::optional<double> speedupVsSerial, speedupVsPrevious;
  std::string previous;
  std::optional<FieldDifference> difference;  // against cpu-serial
  std::map<std::string, int> params;
  std::string error;
};

struct BenchmarkReport {
  std::string date, hostCpu;
  int warmupSteps = 0, repeats = 0;
  bool cancelled = false;
  std::vector<BenchmarkRow> rows;

  std::vector<std::string> devices() const;  // as in the JSON's "devices"
  bool anyFailed() const;                    // a row with an error
};

// The CPU model of this machine ("" when unknown).
std::string hostCpuModel();

// A fixed-width table for a terminal, then a line per ceiling used for % roofline.
std::string benchmarkTable(const BenchmarkReport& report);
std::string benchmarkJson(const BenchmarkReport& report);
// One header line, then one line per row; the columns are the JSON row keys (params as "k=v k=v").
std::string benchmarkCsv(const BenchmarkReport& report);

// Throws std::runtime_error naming the key that is missing or of the wrong type, or the schema.
BenchmarkReport parseBenchmarkJson(const std::string& text);
BenchmarkReport readBenchmarkJson(const std::string& path);

}  // namespace iso
