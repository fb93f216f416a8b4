#include "Traces.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "Npy.h"

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

}  // namespace

void saveTracesCsv(const std::string& path, const std::vector<float>& traces,
                   const std::vector<ReceiverSpec>& receivers, double dt) {
  const std::size_t samples = sampleCount(traces, receivers.size());
  std::ofstream out(path);
  if (!out) throw std::runtime_error("'" + path + "': cannot open the file for writing");
  out << "time_s";
  for (std::size_t r = 0; r < receivers.size(); ++r)
    out << ",r" << r << "_i" << receivers[r].i << "_j" << receivers[r].j << "_k" << receivers[r].k;
  out << '\n';
  char buf[32];
  for (std::size_t n = 0; n < samples; ++n) {
    std::snprintf(buf, sizeof buf, "%.9g", double(n + 1) * dt);
    out << buf;
    for (std::size_t r = 0; r < receivers.size(); ++r) {
      std::snprintf(buf, sizeof buf, ",%.9g", double(traces[n * receivers.size() + r]));  // float32 round trip
      out << buf;
    }
    out << '\n';
  }
  out.close();
  if (!out) throw std::runtime_error("'" + path + "': write failed (disk full or not writable?)");
}

void saveTracesNpy(const std::string& path, const std::vector<float>& traces, std::size_t receiverCount) {
  const std::size_t samples = sampleCount(traces, receiverCount);
  writeNpy(path, traces.data(), {samples, receiverCount});
}

}  // namespace iso
