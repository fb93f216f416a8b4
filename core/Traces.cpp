#include "core/Traces.h"

#include <cstdio>
#include <string_view>
#include <stdexcept>

#include "core/OutputFile.h"
#include "core/Npy.h"

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

}  // namespace iso
